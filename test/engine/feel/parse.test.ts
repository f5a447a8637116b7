/**
 * Parsing FEEL at save time: the syntax tree it makes (plain JSON, kept with a
 * rule), the errors it reports with their line and column, the bounds that
 * keep any text from exhausting the stack, and names with spaces or operator
 * characters, which parse as names when they are passed in scope.
 */
import fc from 'fast-check';
import { parser, trackVariables } from 'lezer-feel';
import { describe, expect, it } from 'vitest';
import { compileExpression, compileUnaryTests, rootEnv } from '../../../lib/engine/feel/compile.ts';
import { FeelSyntaxError, feelLimits, parseExpression, parseUnaryTests, type FeelSyntaxProblem } from '../../../lib/engine/feel/parse.ts';
import { plainName } from '../../../lib/engine/feel/names.ts';
import { expressionCase } from './feel-grammar.ts';
import { feel } from './helpers.ts';

/** The problems `parse` throws, or a failure when it parses. */
function problems(parse: () => unknown): FeelSyntaxProblem[] {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(FeelSyntaxError);
    return (error as FeelSyntaxError).problems;
  }
  throw new Error('expected a FeelSyntaxError');
}

describe('syntax tree', () => {
  it('is plain JSON that compiles after a round trip', () => {
    const ast = parseExpression('if x > 1 then [x, "a", @"2025-01-01"] else {y: x * 2}', ['x']);
    const stored = JSON.parse(JSON.stringify(ast));
    expect(stored).toEqual(ast);
    expect(compileExpression(stored)(rootEnv({ x: 2 }))).toEqual([2, 'a', expect.anything()]);
    const tests = JSON.parse(JSON.stringify(parseUnaryTests('[18..65], > 90')));
    expect(compileUnaryTests(tests)(95, rootEnv({}))).toBe(true);
  });

  it('reads arithmetic with its precedence', () => {
    expect(parseExpression('1 + 2 * 3')).toEqual({
      k: 'arith',
      op: '+',
      l: { k: 'num', v: 1 },
      r: { k: 'arith', op: '*', l: { k: 'num', v: 2 }, r: { k: 'num', v: 3 } },
    });
  });

  it('flattens chains of and and of or', () => {
    expect(parseExpression('a and b and c', ['a', 'b', 'c'])).toEqual({
      k: 'and',
      items: [
        { k: 'var', name: 'a' },
        { k: 'var', name: 'b' },
        { k: 'var', name: 'c' },
      ],
    });
  });

  it('reads literals: strings with escapes, numbers, @-literals', () => {
    expect(parseExpression('"a\\"b\\\\c\\n\\u00e9\\U01F600"')).toEqual({ k: 'str', v: 'a"b\\c\né😀' });
    expect(parseExpression('.5')).toEqual({ k: 'num', v: 0.5 });
    expect(parseExpression('@"P1D"')).toEqual({ k: 'at', v: 'P1D' });
  });

  it('refuses a unary plus, which the grammar lets through and must never read as a negation', () => {
    expect(problems(() => parseExpression('+5', []))).toEqual([
      expect.objectContaining({ message: expect.stringContaining('FEEL has no unary plus'), line: 1, column: 1 }),
    ]);
    expect(problems(() => parseExpression('x * +2', ['x']))[0]!.message).toContain('no unary plus');
    expect(feel('-5')).toEqual(feel('0 - 5'));
  });

  it('keeps an escape past the last code point as written instead of failing', () => {
    expect(feel('"a\\UFFFFFF"')).toBe('a\\UFFFFFF');
    expect(feel('"\\U01F600"')).toBe('\u{1F600}');
  });

  it('reads unary tests: any, lists, negation', () => {
    expect(parseUnaryTests('-')).toEqual({ k: 'any' });
    expect(parseUnaryTests('')).toEqual({ k: 'any' });
    expect(parseUnaryTests('not("a", < 3)')).toEqual({
      k: 'tests',
      not: true,
      tests: [
        { k: 'expr', e: { k: 'str', v: 'a' } },
        { k: 'cmp', op: '<', r: { k: 'num', v: 3 } },
      ],
    });
  });

  it('ignores comments', () => {
    expect(feel('1 + /* two */ 2 // and no more')).toBe(3);
  });
});

describe('in, and and or: DMN 1.5 precedence', () => {
  // lezer-feel lets the test of `in` swallow a following and/or; the parser re-associates it.
  it('x in <test> and y is (x in <test>) and y', () => {
    expect(parseExpression('x in [1..2] and y', ['x', 'y'])).toEqual({
      k: 'and',
      items: [
        {
          k: 'in',
          of: { k: 'var', name: 'x' },
          tests: [{ k: 'expr', e: { k: 'range', lo: { k: 'num', v: 1 }, hi: { k: 'num', v: 2 }, loClosed: true, hiClosed: true } }],
        },
        { k: 'var', name: 'y' },
      ],
    });
  });

  it('the common rule of a range and a comparison parses and holds', () => {
    expect(feel('age in [18..65] and income > 1000', { age: 30, income: 2000 })).toBe(true);
    expect(feel('age in [18..65] and income > 1000', { age: 70, income: 2000 })).toBe(false);
  });

  it('or after a list, a comparison test or a name', () => {
    expect(feel('3 in [1, 2] or true')).toBe(true);
    expect(feel('x in < 3 or y', { x: 5, y: true })).toBe(true);
    expect(feel('x in y and z in w', { x: 1, y: [1], z: 2, w: [3] })).toBe(false);
  });

  it('keeps the precedence of and over or', () => {
    expect(feel('x in [1..2] and false or true', { x: 5 })).toBe(true);
    expect(feel('x in [1..2] or true and false', { x: 1 })).toBe(true);
    expect(feel('x in [1..2] or true and false', { x: 5 })).toBe(false);
  });

  it('leaves a parenthesized list of tests as it is', () => {
    expect(feel('x in (1, 2) and y', { x: 2, y: true })).toBe(true);
  });
});

describe('syntax errors', () => {
  it('report where the expression is incomplete', () => {
    expect(problems(() => parseExpression('1 +'))).toEqual([{ message: 'the expression is incomplete', offset: 3, line: 1, column: 4 }]);
    expect(problems(() => parseExpression('if x then 1', ['x']))).toEqual([{ message: 'the expression is incomplete', offset: 11, line: 1, column: 12 }]);
    expect(problems(() => parseExpression('{a: 1'))).toEqual([{ message: 'the expression is incomplete', offset: 5, line: 1, column: 6 }]);
  });

  it('report the line and column of an unexpected token', () => {
    expect(problems(() => parseExpression('1 +\n  * 2'))).toEqual([{ message: 'unexpected "*"', offset: 6, line: 2, column: 3 }]);
    expect(problems(() => parseExpression('[1, 2,, 3]'))).toEqual([{ message: 'unexpected ","', offset: 6, line: 1, column: 7 }]);
  });

  it('report every problem', () => {
    expect(problems(() => parseExpression('a\n\n  b c d )', ['a']))).toEqual([
      { message: 'unexpected "b"', offset: 5, line: 3, column: 3 },
      { message: 'unexpected ")"', offset: 11, line: 3, column: 9 },
    ]);
  });

  it('say where in the message, too', () => {
    expect(() => parseExpression('1 +\n  * 2')).toThrow('unexpected "*" (line 2, column 3)');
  });

  it('refuse empty expressions', () => {
    expect(problems(() => parseExpression('  '))).toEqual([{ message: 'is empty', offset: 0, line: 1, column: 1 }]);
  });

  it('refuse a unary test where an expression is expected, saying what to write', () => {
    expect(problems(() => parseExpression('< 18'))[0]!.message).toMatch(/compare a value with it, e.g. "x < 18"/);
  });

  it('name the operator meant when "=<", "=>" or "==" is typed, in cells and expressions alike', () => {
    expect(problems(() => parseUnaryTests('=< 2'))).toEqual([
      { message: '"=<" is not an operator: did you mean "<=" (less than or equal)?', offset: 1, line: 1, column: 2 },
    ]);
    expect(problems(() => parseUnaryTests('=>2'))[0]!.message).toBe('"=>" is not an operator: did you mean ">=" (greater than or equal)?');
    expect(problems(() => parseUnaryTests('== "gold"'))[0]!.message).toMatch(/^"==" is not an operator: FEEL tests equality with one "="/);
    expect(problems(() => parseExpression('total =< 100', ['total']))[0]!.message).toMatch(/^"=<" is not an operator: did you mean "<="/);
    // Not a typo: a unary test standing alone keeps its own message.
    expect(problems(() => parseExpression('< 18'))[0]!.message).toMatch(/cannot stand here/);
  });

  it('refuse function definitions', () => {
    expect(problems(() => parseExpression('function(x) x + 1'))).toEqual([
      { message: 'function definitions are not supported', offset: 0, line: 1, column: 1 },
    ]);
  });

  it('report errors in unary tests', () => {
    expect(problems(() => parseUnaryTests('[1..'))).toEqual([{ message: 'the expression is incomplete', offset: 4, line: 1, column: 5 }]);
    expect(problems(() => parseUnaryTests('< 18,'))).toEqual([{ message: 'the expression is incomplete', offset: 5, line: 1, column: 6 }]);
  });

  it('leave unknown functions to evaluation, which gives null', () => {
    expect(parseExpression('foo(1)')).toEqual({ k: 'call', fn: 'foo', args: [{ k: 'num', v: 1 }] });
  });
});

describe('bounds', () => {
  it('refuse text over the maximum length, pointing past the limit', () => {
    const text = `1${' '.repeat(feelLimits.maxLength)}`;
    expect(problems(() => parseExpression(text))).toEqual([
      {
        message: `is ${feelLimits.maxLength + 1} characters long; at most ${feelLimits.maxLength} are allowed`,
        offset: feelLimits.maxLength,
        line: 1,
        column: feelLimits.maxLength + 1,
      },
    ]);
  });

  it('accept text of exactly the maximum length', () => {
    expect(() => parseExpression(`1${' '.repeat(feelLimits.maxLength - 1)}`)).not.toThrow();
  });

  it('refuse nesting deeper than the maximum, pointing at the bracket too many', () => {
    const depth = feelLimits.maxDepth + 1;
    expect(problems(() => parseExpression(`${'('.repeat(depth)}1${')'.repeat(depth)}`))).toEqual([
      { message: `nests brackets deeper than ${feelLimits.maxDepth} levels`, offset: feelLimits.maxDepth, line: 1, column: feelLimits.maxDepth + 1 },
    ]);
    expect(problems(() => parseExpression(`${'[{a: '.repeat(depth)}1${'}]'.repeat(depth)}`))[0]!.message).toMatch(/nests brackets deeper/);
  });

  it('accept nesting of exactly the maximum', () => {
    const depth = feelLimits.maxDepth;
    expect(feel(`${'('.repeat(depth)}1${')'.repeat(depth)}`)).toBe(1);
  });

  it('do not count brackets inside strings', () => {
    expect(feel(`"${'('.repeat(200)}"`)).toBe('('.repeat(200));
    expect(feel(`"\\"${'['.repeat(200)}"`)).toBe(`"${'['.repeat(200)}`);
  });

  it('apply to unary tests too', () => {
    expect(problems(() => parseUnaryTests(`${'('.repeat(feelLimits.maxDepth + 1)}`))[0]!.message).toMatch(/nests brackets deeper/);
  });
});

describe('names', () => {
  it('with spaces, as one name', () => {
    expect(parseExpression('date of birth < @"2000-01-01"', ['date of birth'])).toEqual({
      k: 'cmp',
      op: '<',
      l: { k: 'var', name: 'date of birth' },
      r: { k: 'at', v: '2000-01-01' },
    });
    expect(parseExpression('order.total + tax rate', ['order', 'tax rate'])).toEqual({
      k: 'arith',
      op: '+',
      l: { k: 'path', of: { k: 'var', name: 'order' }, name: 'total' },
      r: { k: 'var', name: 'tax rate' },
    });
  });

  it('joined by single spaces however they are written', () => {
    expect(parseExpression('date  of\tbirth', ['date of birth'])).toEqual({ k: 'var', name: 'date of birth' });
  });

  it('with operator characters, only when passed in scope', () => {
    expect(parseExpression('a-b + 1', ['a-b'])).toEqual({ k: 'arith', op: '+', l: { k: 'var', name: 'a-b' }, r: { k: 'num', v: 1 } });
    expect(parseExpression('a-b + 1', ['a', 'b'])).toEqual({
      k: 'arith',
      op: '+',
      l: { k: 'arith', op: '-', l: { k: 'var', name: 'a' }, r: { k: 'var', name: 'b' } },
      r: { k: 'num', v: 1 },
    });
    expect(parseExpression("person's age > 1", ["person's age"])).toEqual({ k: 'cmp', op: '>', l: { k: 'var', name: "person's age" }, r: { k: 'num', v: 1 } });
    expect(problems(() => parseExpression("person's age > 1"))[0]).toMatchObject({ line: 1, column: 7 });
  });

  it('of built-in functions with spaces, and of entries with spaces in contexts', () => {
    expect(parseExpression('string length(s)', ['s'])).toEqual({ k: 'call', fn: 'string length', args: [{ k: 'var', name: 's' }] });
    expect(feel('{monthly income: 10, yearly income: monthly income * 12}.yearly income')).toBe(120);
  });

  it('plain names parse alike whether or not the parser is told them, so only the others are told (a workflow names hundreds of step ids)', () => {
    // The parser's own tree, told every name or only those that are not plain identifiers.
    const tree = (text: string, names: string[]) =>
      parser
        .configure({ contextTracker: trackVariables(Object.fromEntries(names.map((n) => [n, null]))) })
        .parse(text)
        .toString();
    const stepIds = Array.from({ length: 300 }, (_, i) => `step_${i}`);
    fc.assert(
      fc.property(expressionCase, ({ vars, text }) => {
        const all = [...Object.keys(vars), ...stepIds];
        expect(tree(text, all)).toBe(
          tree(
            text,
            all.filter((name) => !plainName.test(name)),
          ),
        );
      }),
      { seed: 8, numRuns: 300 },
    );
    const names = [...stepIds, 'risk-score', 'order total'];
    expect(parseExpression('for x in [step_1, risk-score] return x + order total - step_2', names)).toEqual(
      parseExpression('for x in [step_1, risk-score] return x + order total - step_2', ['risk-score', 'order total']),
    );
  });

  it('in unary tests', () => {
    expect(parseUnaryTests('>= minimum age', ['minimum age'])).toEqual({
      k: 'tests',
      not: false,
      tests: [{ k: 'cmp', op: '>=', r: { k: 'var', name: 'minimum age' } }],
    });
  });
});
