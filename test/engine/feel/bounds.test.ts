/**
 * Pathological FEEL, straight at the engine: every evaluation is bounded in
 * time, and says why when it stops. Text nesting too deep or holding a number
 * no double can is refused when parsed; patterns run in linear time (the
 * same answers as JavaScript's RegExp on the same patterns spelled in its
 * syntax, checked as a property, without its exponential backtracking); and
 * work that text alone does not bound (nested iterations, values doubled
 * again and again, shared parts walked) spends a budget of steps, then stops
 * with `evaluation_failed`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule, type CompiledRule } from '../../../lib/engine/compile.ts';
import type { RuleDefinition } from '../../../lib/engine/definitions.ts';
import { EngineError } from '../../../lib/engine/errors.ts';
import { Budget, maxEvaluationSteps } from '../../../lib/engine/feel/budget.ts';
import { FeelSyntaxError, feelLimits, maxRecoveredCharacters, maxSyntaxProblems, parseExpression } from '../../../lib/engine/feel/parse.ts';
import { compilePattern, matchesAnywhere, PatternProblem, patternLimits, replaceAll } from '../../../lib/engine/feel/regex.ts';
import { maxAnswerSize, toPlain } from '../../../lib/engine/feel/values.ts';
import { prepareRule } from '../../../lib/engine/prepare.ts';
import { feel, run } from './helpers.ts';

/** What any one pathological evaluation below may take, even on two busy cores: the budget is spent in well under a second. */
const boundMs = 5_000;

/** Runs `work`, which must end within `boundMs`; its result, or the error it threw. */
function timed<T>(work: () => T): T | Error {
  const started = performance.now();
  let result: T | Error;
  try {
    result = work();
  } catch (error) {
    result = error as Error;
  }
  expect(performance.now() - started).toBeLessThan(boundMs);
  return result;
}

const stopped = (result: unknown) => {
  expect(result).toBeInstanceOf(EngineError);
  expect(result).toMatchObject({ code: 'evaluation_failed', message: expect.stringMatching(/stopped after 5,000,000 steps/) });
};

const compile = (rule: RuleDefinition, resolve?: (id: string) => CompiledRule) => {
  const { prepared, problems } = prepareRule(rule);
  expect(problems).toEqual([]);
  return compileRule(prepared, resolve);
};

describe('text the parser refuses, quickly', () => {
  it.each([
    ['10,000 parentheses', `${'('.repeat(10_000)}1${')'.repeat(10_000)}`, /at most 4000 are allowed/],
    [
      `brackets ${feelLimits.maxDepth + 1} deep`,
      `${'['.repeat(feelLimits.maxDepth + 1)}${']'.repeat(feelLimits.maxDepth + 1)}`,
      /nests brackets deeper than 64 levels/,
    ],
    ['a number literal past decimal128', `${'9'.repeat(3_000)}e4000`, /the number 99999999999999999999… is too large/],
    ['1e6145', '1e6145 > 0', /the number 1e6145 is too large/],
  ])('%s', (_what, text, message) => {
    const result = timed(() => parseExpression(text));
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toMatch(message);
  });

  it('nesting without brackets (2,000 signs) parses or is refused, in bounded time', () => {
    for (const text of [`${'- '.repeat(1_990)}x`, `1${'+1'.repeat(1_990)}`, `${'not('.repeat(60)}true${')'.repeat(60)}`, `x${'.a'.repeat(1_990)}`])
      timed(() => parseExpression(text, ['x']));
  });

  it(`lists at most ${maxSyntaxProblems} problems of one text`, () => {
    const result = timed(() => parseExpression('? '.repeat(1_995)));
    expect((result as FeelSyntaxError).problems).toHaveLength(maxSyntaxProblems);
  });

  it(`recovers from errors in ${maxRecoveredCharacters.toLocaleString('en')} characters of one definition, then reports each text's first problem only`, () => {
    // 74 texts of 3,990 characters with an error at every other one: 300 KB, as large as a definition may be.
    const then = Object.fromEntries(Array.from({ length: 74 }, (_, i) => [`o${i}`, '? '.repeat(1_995)]));
    const { problems } = timed(() => prepareRule({ kind: 'simpleRule', definition: { when: 'true', then } })) as ReturnType<typeof prepareRule>;
    const perText = Object.keys(then).map((name) => problems.filter((p) => p.path === `definition.then.${name}`).length);
    const recovered = Math.floor(maxRecoveredCharacters / 3_990);
    expect(perText).toEqual([...Array<number>(recovered).fill(maxSyntaxProblems), ...Array<number>(74 - recovered).fill(1)]);
    expect(problems[problems.length - 1]).toEqual({ path: 'definition.then.o73', message: 'unexpected "?" at line 1, column 3' });
  });

  it('reads a sign apart from its digits as the number, not NaN', () => {
    expect(feel('- 1')).toBe(-1);
    expect(feel('1 - - 1')).toBe(2);
    expect(feel('- /* a comment */ 2.5')).toBe(-2.5);
    expect(feel('3 > - 1')).toBe(true);
  });

  it("gives null for number() of text past decimal128's range", () => {
    expect(run('number("1e6145")')).toEqual({ value: null, notes: ['number("1e6145"): beyond decimal128\'s range'] });
    expect(run('string(number("1e400"))').value).toBe('1e+400');
  });
});

describe('patterns run in linear time', () => {
  // With the "!" that makes most of them fail, as long as matches reads.
  const long = 'a'.repeat(99_999);
  it.each([
    ['nested quantifiers', '(a+)+$', `${long}!`, false],
    ['overlapping alternatives', '(a|aa)*c', long, false],
    ['adjacent overlapping quantifiers', '.*.*.*.*x', long, false],
    ['a class nested twice', '(([a-z])+.)+[A-Z]([a-z])+$', `${long}!`, false],
    ['a pattern that matches at the end', '(a+)+!$', `${long}!`, true],
  ])('%s: %s over 100,000 characters', (_what, pattern, input, expected) => {
    expect(timed(() => feel(`matches(x, "${pattern}")`, { x: input }))).toBe(expected);
  });

  it('replaces in linear time too', () => {
    expect(timed(() => feel('string length(replace(x, "(a+)+b", "-"))', { x: `${'a'.repeat(30_000)}!` }))).toBe(30_001);
  });

  it.each([
    ['a backreference', '(a)\\\\1', /backreferences are not supported/],
    ['a backreference to a group not yet closed', '(a\\\\1)', /backreferences are not supported/],
    ['a lookahead', 'a(?=b)', /lookahead and lookbehind are not supported/],
    ['a lookbehind', '(?<!b)a', /lookahead and lookbehind are not supported/],
    ['counted repetitions past the states', '((a{100}){100}){2}', new RegExp(`more than ${patternLimits.maxStates} states`)],
    ['an invalid pattern', '(a', /is not a valid pattern/],
  ])('refuses %s with a note, and the value null', (_what, pattern, note) => {
    const { value, notes } = run(`matches("aab", "${pattern}")`);
    expect(value).toBeNull();
    expect(notes).toEqual([expect.stringMatching(note)]);
  });

  it('refuses a literal pattern that cannot run when the rule is saved, naming the field', () => {
    const { problems } = prepareRule({
      kind: 'simpleRule',
      definition: {
        when: 'matches(code, "(a)\\\\1") or matches(input: code, pattern: "a(?=b)")',
        then: { y: 'replace(code, "a{1,", "b")', z: 'split(code, "(")', w: 'split(string: code, delimiter: "[")' },
      },
    });
    expect(problems).toEqual([
      { path: 'definition.when', message: 'matches: backreferences are not supported' },
      { path: 'definition.when', message: 'matches: lookahead and lookbehind are not supported' },
      { path: 'definition.then.y', message: 'replace: "a{1," is not a valid pattern: "{" must start a quantifier: {n}, {n,} or {n,m}' },
      { path: 'definition.then.z', message: expect.stringMatching(/^split: "\(" is not a valid pattern/) },
      { path: 'definition.then.w', message: expect.stringMatching(/^split: "\[" is not a valid pattern/) },
    ]);
    // A pattern made at run time is checked when it runs.
    expect(prepareRule({ kind: 'simpleRule', definition: { when: 'matches(code, pattern)', then: { y: 1 } } }).problems).toEqual([]);
  });

  it('takes a pattern of 1,000 characters, not one more', () => {
    expect(feel(`matches("a", "${'a?'.repeat(500)}")`)).toBe(true);
    expect(run(`matches("a", "${'a'.repeat(patternLimits.maxLength + 1)}")`).notes).toEqual(['a pattern may be at most 1000 characters']);
  });

  /** An XPath pattern and the JavaScript one that means the same under a set of flags; `caseSafe` when JavaScript's `i` reads it as XPath's does. */
  interface Spelled {
    xp: string;
    js: (flags: string) => string;
    caseSafe: boolean;
  }
  const same = (text: string, caseSafe = true): Spelled => ({ xp: text, js: () => text, caseSafe });
  const spelled = (xp: string, js: string | ((flags: string) => string), caseSafe = true): Spelled => ({
    xp,
    js: typeof js === 'string' ? () => js : js,
    caseSafe,
  });
  const all = (parts: Spelled[], join: (texts: string[]) => string): Spelled => ({
    xp: join(parts.map((p) => p.xp)),
    js: (flags) => join(parts.map((p) => p.js(flags))),
    caseSafe: parts.every((p) => p.caseSafe),
  });

  /**
   * Patterns of a small grammar over a few letters, for which backtracking stays cheap on short inputs, so that
   * JavaScript can judge: XPath's `.`, escapes, blocks, subtractions and anchors are spelled out for it (`\p{Lu}` under
   * the i flag is not, as JavaScript folds its case and XPath does not).
   */
  const patternArb: fc.Arbitrary<Spelled> = fc
    .letrec<{ node: Spelled; atom: Spelled }>((tie) => ({
      atom: fc.oneof(
        fc.constantFrom(
          ...['a', 'b', 'A', 'é', '😀', 'ſ', '\u212A', 'k', '[ab]', '[^a]', '[a-b]', '[😀a]', '\\n', '\\$', '\\.', '[\\s\\S]', '\\p{L}', '[ ]'].map((t) =>
            same(t),
          ),
          // With x a space goes, and what follows it joins what came before.
          spelled(' ', (flags) => (flags.includes('x') ? '' : ' ')),
          spelled('.', (flags) => (flags.includes('s') ? '[\\s\\S]' : '[^\\n\\r]')),
          spelled('\\s', '[ \\t\\n\\r]'),
          spelled('\\S', '[^ \\t\\n\\r]'),
          spelled('\\d', '\\p{Nd}'),
          spelled('\\D', '\\P{Nd}'),
          spelled('\\w', '[^\\p{P}\\p{Z}\\p{C}]'),
          spelled('\\W', '[\\p{P}\\p{Z}\\p{C}]'),
          spelled('[a-z-[aeiou]]', '[b-df-hj-np-tv-z]'),
          spelled('\\p{IsBasicLatin}', '[\\0-\\x7F]', false),
          spelled('\\p{Lu}', '\\p{Lu}', false),
          spelled('\\P{Ll}', '\\P{Ll}', false),
          spelled('[\\w-[\\p{Lu}]]', '[^\\p{P}\\p{Z}\\p{C}\\p{Lu}]', false),
        ),
        tie('node').map((inner) => all([inner], ([t]) => `(${t})`)),
        tie('node').map((inner) => all([inner], ([t]) => `(?:${t})`)),
      ),
      node: fc.oneof(
        { weight: 3, arbitrary: tie('atom') },
        fc
          .tuple(tie('atom'), fc.constantFrom('*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?', '??', '{1,3}?', '{0,1}', '{2,3}', '{0,}?'))
          .map(([atom, q]) => all([atom], ([t]) => `${t}${q}`)),
        fc.tuple(tie('node'), tie('node')).map(([x, y]) => all([x, y], ([a, b]) => `${a}${b}`)),
        fc.tuple(tie('node'), tie('node')).map(([x, y]) => all([x, y], ([a, b]) => `${a}|${b}`)),
        fc.constantFrom(
          // Start and end of the input or, with m, of lines that newlines end, a final one included (XPath 3.1).
          spelled('^', (flags) => (flags.includes('m') ? '(?:^|(?<=\\n)(?=[\\s\\S]))' : '^')),
          spelled('$', (flags) => (flags.includes('m') ? '(?:(?=\\n)|(?<!\\n)$)' : '$')),
          same(''),
        ),
      ),
    }))
    .node.filter((pattern) => pattern.xp.length <= 50);

  /** fn:replace over JavaScript's matches, or undefined where JavaScript leaves a group without the text XPath keeps. */
  function replacedByJs(js: RegExp, input: string, replacement: string, literal: boolean): string | undefined {
    let out = '';
    let copied = 0;
    for (const match of input.matchAll(js)) {
      const groups = match.length - 1;
      let unknown = false;
      const substitution = literal
        ? replacement
        : replacement.replace(/\\([\\$])|\$(\d+)/g, (_form, escaped: string | undefined, digits: string) => {
            if (escaped) return escaped;
            let n = digits;
            while (Number(n) > Math.max(groups, 9)) n = n.slice(0, -1);
            const group = Number(n) <= groups ? match[Number(n)] : '';
            // A group in a repetition: JavaScript clears it each iteration, XPath keeps its last text.
            if (group === undefined) unknown = true;
            return (group ?? '') + digits.slice(n.length);
          });
      if (unknown) return undefined;
      out += input.slice(copied, match.index) + substitution;
      copied = match.index + match[0].length;
    }
    return out + input.slice(copied);
  }

  it('answers as JavaScript does the same pattern in its syntax: matches, and replace with every $ form (a property)', () => {
    fc.assert(
      fc.property(
        patternArb,
        fc.string({ unit: fc.constantFrom('a', 'b', 'A', '1', '٣', '\n', '\r', '\u2028', ' ', '$', '-', 'é', '😀', 'ſ', 'k', '\u212A'), maxLength: 12 }),
        fc.constantFrom('', 'i', 'm', 's', 'ims', 'x', 'q', 'iq'),
        fc.constantFrom('-', '[$0]', '$1', '$2$1', '\\$', '\\\\', '$10', '$0', '$12x', 'q$9'),
        (pattern, input, flags, replacement) => {
          if (flags.includes('i') && !pattern.caseSafe && !flags.includes('q')) return;
          const literal = flags.includes('q');
          let js: RegExp;
          try {
            js = new RegExp(literal ? pattern.xp.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&') : pattern.js(flags), flags.includes('i') ? 'iu' : 'u');
          } catch {
            // With x, a space taken out can leave a quantifier at the start, after "|" or after an anchor: JavaScript
            // refuses all three (XPath the first two).
            return;
          }
          const compiled = compilePattern(pattern.xp, flags);
          expect(matchesAnywhere(compiled, input, new Budget())).toBe(js.test(input));
          if (js.test('')) {
            expect(() => replaceAll(compiled, input, replacement, new Budget())).toThrow(PatternProblem);
            return;
          }
          const expected = replacedByJs(new RegExp(js.source, `${js.flags}g`), input, replacement, literal);
          if (expected !== undefined) expect(replaceAll(compiled, input, replacement, new Budget())).toBe(expected);
        },
      ),
      { numRuns: 8_000 },
    );
  });
});

describe('work the text does not bound spends the budget, then stops', () => {
  it.each([
    ['two ranges of 100,000 combined', 'some i in 1..100000, j in 1..100000 satisfies false'],
    ['a for inside a for', 'count(for i in 1..100000 return for j in 1..100000 return j) > 0'],
    ['a filter over a range, inside a for', 'count(for i in 1..1000 return (for j in 1..100000 return j)[item > i]) > 0'],
    [
      'a text doubled forty times',
      `string length({a: "${'a'.repeat(1_000)}", ${Array.from({ length: 40 }, (_, i) => `b${i}: ${i ? `b${i - 1}` : 'a'} + ${i ? `b${i - 1}` : 'a'}`).join(', ')}}.b39) > 0`,
    ],
    [
      'a list doubled forty times',
      `count({a: for i in 1..100000 return i, ${Array.from({ length: 40 }, (_, i) => `b${i}: concatenate(${i ? `b${i - 1}` : 'a'}, ${i ? `b${i - 1}` : 'a'})`).join(', ')}}.b39) > 0`,
    ],
    ['one long text joined 100,000 times', `string length(string join(for i in 1..100000 return "${'a'.repeat(1_000)}")) > 0`],
    [
      'shared lists compared, 2^40 elements',
      `{a: [1, 2], ${Array.from({ length: 40 }, (_, i) => `b${i}: [${i ? `b${i - 1}` : 'a'}, ${i ? `b${i - 1}` : 'a'}]`).join(', ')}}.b39 = {a: [1, 2], ${Array.from({ length: 40 }, (_, i) => `b${i}: [${i ? `b${i - 1}` : 'a'}, ${i ? `b${i - 1}` : 'a'}]`).join(', ')}}.b39`,
    ],
    [
      'shared lists flattened',
      `count(flatten({a: [1, 2], ${Array.from({ length: 40 }, (_, i) => `b${i}: [${i ? `b${i - 1}` : 'a'}, ${i ? `b${i - 1}` : 'a'}]`).join(', ')}}.b39)) > 0`,
    ],
    [
      'shared lists written as text',
      `string length(string({a: [1, 2], ${Array.from({ length: 40 }, (_, i) => `b${i}: [${i ? `b${i - 1}` : 'a'}, ${i ? `b${i - 1}` : 'a'}]`).join(', ')}}.b39)) > 0`,
    ],
    ['distinct values of 100,000', 'count(distinct values(for i in 1..100000 return i)) > 0'],
    ['a pattern over long text, 1,000 times', `count(for i in 1..1000 return matches(x, "(a|b|c|d|e|f|g|h)*z")) > 0`],
    ['a new pattern each time, 100,000 times', 'count(for i in 1..100000 return matches("x", "[a-z]+" + string(i))) > 0'],
  ])('%s', (_what, when) => {
    const rule = compile({ kind: 'simpleRule', definition: { when, then: { y: 1 } } });
    stopped(timed(() => evaluateRule(rule, { x: 'a'.repeat(100_000) })));
  });

  it('a rule set whose references fan out (each rule set runs the next twice, 40 deep) stops too', () => {
    let rule = compile({ kind: 'simpleRule', definition: { when: 'true', then: { y: 1 } } });
    for (let depth = 0; depth < 40; depth++) {
      const inner = rule;
      rule = compile(
        {
          kind: 'ruleSet',
          definition: {
            strategy: 'allMatch',
            rules: [
              { id: 'a', ruleId: 'inner' },
              { id: 'b', ruleId: 'inner' },
            ],
          },
        },
        () => inner,
      );
    }
    stopped(timed(() => evaluateRule(rule, {})));
  });

  it('a decision table run through fanned-out references stops too', () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ when: [`${i}`], then: [i] }));
    let rule = compile({
      kind: 'decisionTable',
      definition: {
        hitPolicy: 'first',
        inputs: [{ id: 'x', expression: 'x', type: 'number' }],
        outputs: [{ id: 'y', name: 'y', type: 'number' }],
        rules: rows,
      },
    });
    for (let depth = 0; depth < 22; depth++) {
      const inner = rule;
      rule = compile(
        {
          kind: 'ruleSet',
          definition: {
            strategy: 'allMatch',
            rules: [
              { id: 'a', ruleId: 'inner' },
              { id: 'b', ruleId: 'inner' },
            ],
          },
        },
        () => inner,
      );
    }
    stopped(timed(() => evaluateRule(rule, { x: 5_000 })));
  });

  it('leaves room for what rules do: a for over 100,000 values, a table of 10,000 rows, a long pattern search', () => {
    const rule = compile({
      kind: 'simpleRule',
      definition: {
        when: 'true',
        then: { n: 'count(for i in 1..100000 return i * 2 + 1)', total: 'sum(for i in 1..100000 return i)', m: 'matches(x, "^(a|b)*$")' },
      },
    });
    expect(evaluateRule(rule, { x: 'ab'.repeat(50_000) }).output).toEqual({ n: 100_000, total: 5_000_050_000, m: true });
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ when: [`> ${i}`], then: [i] }));
    const table = compile({
      kind: 'decisionTable',
      definition: {
        hitPolicy: 'collect',
        aggregation: 'count',
        inputs: [{ id: 'x', expression: 'x', type: 'number' }],
        outputs: [{ id: 'y', name: 'y', type: 'number' }],
        rules: rows,
      },
    });
    expect(evaluateRule(table, { x: 1e9 }).output).toEqual({ y: 10_000 });
  });

  it('is the stated budget', () => {
    expect(maxEvaluationSteps).toBe(5_000_000);
    const budget = new Budget();
    budget.spend(maxEvaluationSteps);
    expect(() => budget.spend(1)).toThrow(EngineError);
  });
});

describe('answers', () => {
  it(`hold at most ${maxAnswerSize.toLocaleString('en')} values and characters as JSON`, () => {
    const text = 'a'.repeat(1_000);
    const shared = Array.from({ length: 20_000 }, () => text);
    expect(() => toPlain(shared)).toThrow(/The answer holds more than 10,000,000 values and characters/);
    expect(toPlain(shared.slice(0, 9_000))).toHaveLength(9_000);
  });

  it('a rule whose answer is a long text repeated stops with evaluation_failed, not an error of JSON', () => {
    const rule = compile({ kind: 'simpleRule', definition: { when: 'true', then: { y: `for i in 1..20000 return "${'a'.repeat(1_000)}"` } } });
    expect(timed(() => evaluateRule(rule, {}))).toMatchObject({ code: 'evaluation_failed', message: expect.stringMatching(/The answer holds more than/) });
  });

  it('range text of 16,000 spaces is read at once', () => {
    expect(timed(() => feel('range(x)', { x: `[${' '.repeat(16_000)}1` }))).toBeNull();
    expect(feel('range("[ 1 .. 5 )")')).toBe('[1..5)');
  });
});
