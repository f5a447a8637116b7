/** The save-time analysis: overlaps under unique, rows shadowed under first, and gaps, for number ranges and enumerated strings. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRule } from '../../../lib/engine/authoring.ts';
import type { DecisionTableDefinition } from '../../../lib/engine/definitions.ts';
import { compileUnaryTests, rootEnv } from '../../../lib/engine/feel/compile.ts';
import { parseUnaryTests } from '../../../lib/engine/feel/parse.ts';
import type { FeelValue } from '../../../lib/engine/feel/values.ts';
import { clock } from '../feel/helpers.ts';

const check = (hitPolicy: DecisionTableDefinition['hitPolicy'], rules: string[][], extra: Partial<DecisionTableDefinition> = {}) =>
  checkRule({
    kind: 'decisionTable',
    definition: {
      hitPolicy,
      inputs: [
        { id: 'age', expression: 'age', type: 'number' },
        { id: 'level', expression: 'level', type: 'string' },
      ],
      outputs: [{ id: 'out', name: 'out', type: 'number' }],
      rules: rules.map((when, i) => ({ id: `r${i + 1}`, when, then: [i] })),
      ...extra,
    },
  });

describe('overlaps under unique', () => {
  it('are publish errors naming both rows', () => {
    const { problems, publishProblems } = check('unique', [
      ['[0..18]', '"gold"'],
      ['[18..65]', '-'],
      ['> 65', '"gold", "silver"'],
    ]);
    expect(problems).toEqual([]);
    expect(publishProblems).toEqual([{ path: 'definition.rules[1]', message: expect.stringMatching(/overlaps row 1 \(r1\)/) }]);
  });

  it('are none when the rows are disjoint, open ends included', () => {
    expect(
      check('unique', [
        ['[0..18)', '-'],
        ['[18..65]', '"gold"'],
        ['[18..65]', 'not("gold")'],
        ['> 65', '-'],
      ]).publishProblems,
    ).toEqual([]);
  });
});

describe('shadowed rows under first', () => {
  it('are warnings: a row an earlier row always wins over', () => {
    const { warnings } = check('first', [
      ['< 30', '-'],
      ['< 18', '"gold"'],
      ['>= 30', '-'],
    ]);
    expect(warnings).toEqual([{ path: 'definition.rules[1]', message: expect.stringMatching(/never be the answer.*row 1 \(r1\)/) }]);
  });
});

describe('gaps', () => {
  it('name the input classes no row covers, for number ranges and enumerated strings', () => {
    const { warnings } = check('first', [
      ['< 18', '-'],
      ['[18..65]', '"gold"'],
    ]);
    const messages = warnings.map((w) => w.message);
    expect(messages).toContainEqual(expect.stringMatching(/no row covers age \(18\.\.65\), level any other value/));
    expect(messages.some((m) => /age > 65/.test(m))).toBe(true);
  });

  it('are not reported when a default output covers them, or when a catch-all row exists', () => {
    expect(check('first', [['< 18', '-']], { outputs: [{ id: 'out', name: 'out', type: 'number', default: 0 }] }).warnings).toEqual([]);
    expect(
      check('first', [
        ['< 18', '-'],
        ['-', '-'],
      ]).warnings,
    ).toEqual([]);
  });

  it('are left unsaid when a column holds cells the analysis cannot read', () => {
    expect(check('first', [['? > 18', '-']]).warnings).toEqual([]);
  });
});

/**
 * The analysis against the engine itself: random tables over a number and a
 * string column, each cell matched by the engine against a grid of inputs
 * that holds every class the analysis tells apart (the integer ends 0..6, a
 * point between each two, and points beyond; every listed string and one
 * never listed). Rows overlap, shadow, never match and leave gaps exactly
 * where the grid says they do.
 */
describe('against the engine on every class of input', () => {
  const end = fc.integer({ min: 0, max: 6 });
  const numberCell = fc.oneof(
    fc.constant('-'),
    fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '!='), end).map(([op, n]) => `${op} ${n}`),
    end.map(String),
    fc
      .tuple(fc.constantFrom('[', '('), end, end, fc.constantFrom(']', ')'))
      .map(([open, a, b, close]) => `${open}${Math.min(a, b)}..${Math.max(a, b)}${close}`),
    fc.tuple(end, end).map(([a, b]) => `< ${Math.min(a, b)}, > ${Math.max(a, b)}`),
  );
  const word = fc.constantFrom('"x"', '"y"', '"z"');
  const stringCell = fc.oneof(
    fc.constant('-'),
    fc.uniqueArray(word, { minLength: 1, maxLength: 2 }).map((words) => words.join(', ')),
    fc.uniqueArray(word, { minLength: 1, maxLength: 2 }).map((words) => `not(${words.join(', ')})`),
  );
  const tables = fc.record({
    hitPolicy: fc.constantFrom('unique' as const, 'first' as const),
    rules: fc.array(fc.tuple(numberCell, stringCell), { minLength: 1, maxLength: 8 }),
  });
  const numbers = Array.from({ length: 17 }, (_, i) => i / 2 - 1);
  const strings = ['x', 'y', 'z', 'never listed'];
  const inputs = numbers.flatMap((age) => strings.map((level) => [age, level] as const));
  const env = rootEnv({}, { clock });
  const compiled = new Map<string, ReturnType<typeof compileUnaryTests>>();
  /** Whether the engine matches `value` with the cell: each cell's text compiled once. */
  const matches = (cell: string, value: FeelValue) => {
    let test = compiled.get(cell);
    if (!test) compiled.set(cell, (test = compileUnaryTests(parseUnaryTests(cell))));
    return test(value, env);
  };

  it('finds the overlaps, shadowed and empty rows, and gaps the grid shows', () => {
    fc.assert(
      fc.property(tables, ({ hitPolicy, rules }) => {
        const matched = rules.map(([age, level]) => inputs.map(([a, l]) => matches(age, a) && matches(level, l)));
        const overlaps: { path: string; message: string }[] = [];
        const shadowed: { path: string; message: string }[] = [];
        for (let j = 0; j < rules.length; j++) {
          if (!matched[j]!.some(Boolean)) {
            shadowed.push({ path: `definition.rules[${j}]`, message: expect.stringMatching(/^can never match: its (age|level) cell accepts no value$/) });
            continue;
          }
          for (let i = 0; i < j; i++) {
            if (hitPolicy === 'unique' && inputs.some((_, k) => matched[i]![k] && matched[j]![k]))
              overlaps.push({ path: `definition.rules[${j}]`, message: expect.stringContaining(`overlaps row ${i + 1} (r${i + 1})`) });
            if (hitPolicy === 'first' && inputs.every((_, k) => !matched[j]![k] || matched[i]![k])) {
              shadowed.push({ path: `definition.rules[${j}]`, message: expect.stringContaining(`row ${i + 1} (r${i + 1}) above it matches first`) });
              break;
            }
          }
        }
        const uncovered = inputs.some((_, k) => !matched.some((row) => row[k]));
        const { problems, warnings, publishProblems } = check(hitPolicy, rules);
        expect(problems).toEqual([]);
        expect(publishProblems).toEqual(overlaps);
        expect(warnings.filter((w) => w.path !== 'definition.rules')).toEqual(shadowed);
        expect(warnings.some((w) => w.path === 'definition.rules')).toBe(uncovered);
      }),
      { numRuns: 300 },
    );
  });
});
