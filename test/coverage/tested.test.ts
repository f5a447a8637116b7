/**
 * Test coverage of every kind of rule: which rows, entries and branches the
 * saved test cases reach, the warnings a save and a publish make of the
 * others (their paths, their bound), and a rule without test cases, which
 * gets none.
 */
import { describe, expect, it } from 'vitest';
import { compileRule, type RuleDefinition } from '../../lib/engine/index.ts';
import { prepareRule } from '../../lib/engine/prepare.ts';
import { coverageLimits } from '../../lib/coverage/limits.ts';
import { selfContainedUntestedWarnings, testCoverage, untestedWarnings, withTestCoverage } from '../../lib/coverage/tested.ts';
import { recordProblems } from '../../lib/authoring/record-check.ts';

type Json = Record<string, unknown>;

const prepared = (kind: RuleDefinition['kind'], definition: Json) => {
  const { prepared, problems } = prepareRule({ kind, definition } as unknown as RuleDefinition);
  expect(problems).toEqual([]);
  return prepared;
};
const coverageOf = (kind: RuleDefinition['kind'], definition: Json) => {
  const rule = prepared(kind, definition);
  return testCoverage(
    rule,
    compileRule(rule, () => compileRule(prepared('simpleRule', { when: 'n > 5', then: { big: true } }))),
    definition,
  );
};

const test = (name: string, params: Json, expected: unknown) => ({ name, params, expected });

const table = (tests: Json[], hitPolicy = 'first', rows = 4): Json => ({
  hitPolicy,
  inputs: [{ id: 'n', expression: 'n', type: 'number' }],
  outputs: [{ id: 'out', name: 'out', type: 'number' }],
  rules: Array.from({ length: rows }, (_, i) => ({ id: `r${i}`, when: [`< ${(i + 1) * 10}`], then: [i] })),
  tests,
});

describe('test coverage of a decision table', () => {
  it('names each row no test case reaches, by its path, and which cases reach the others', () => {
    const coverage = coverageOf('decisionTable', table([test('small', { n: 1 }, { out: 0 }), test('third', { n: 25 }, { out: 2 })]));
    expect(coverage.reachedBy).toEqual([[0], [], [1], []]);
    expect(coverage.failures).toEqual([]);
    expect(untestedWarnings(coverage)).toEqual([
      { path: 'definition.rules[1]', message: 'row 2 is not reached by any test case' },
      { path: 'definition.rules[3]', message: 'row 4 is not reached by any test case' },
    ]);
  });

  it('counts every row a collect answers with, and a failing case as reaching nothing', () => {
    const coverage = coverageOf('decisionTable', {
      ...table(
        [test('all', { n: 1 }, [{ out: 0 }, { out: 1 }, { out: 2 }, { out: 3 }]), test('wrong params', { n: 'x' }, null), test('none', { n: 100 }, [])],
        'collect',
      ),
      parameters: [{ name: 'n', type: 'number' }],
    });
    expect(coverage.reachedBy).toEqual([[0], [0], [0], [0]]);
    expect(coverage.failures).toEqual([{ name: 'wrong params', expected: null, actual: null, error: expect.stringContaining('do not fit') }]);
    expect(untestedWarnings(coverage)).toEqual([]);
  });

  it(`names at most ${coverageLimits.maxUntestedWarnings} rows, then how many more`, () => {
    const coverage = coverageOf('decisionTable', table([test('first', { n: 1 }, { out: 0 })], 'first', 30));
    const warnings = untestedWarnings(coverage);
    expect(warnings).toHaveLength(coverageLimits.maxUntestedWarnings + 1);
    expect(warnings.at(-2)).toEqual({ path: 'definition.rules[10]', message: 'row 11 is not reached by any test case' });
    expect(warnings.at(-1)).toEqual({ path: 'definition.tests', message: 'and 19 more rows no test case reaches' });
  });

  it('makes no warning of a rule without test cases', () => {
    const coverage = coverageOf('decisionTable', table([]));
    expect(coverage.reachedBy).toEqual([[], [], [], []]);
    expect(untestedWarnings(coverage)).toEqual([]);
  });
});

describe('test coverage of a simple rule', () => {
  it('names the branch its cases miss: otherwise by its outputs, or by the condition when it has none (it answers null then)', () => {
    const definition = { when: 'total >= 50', then: { fee: 0 }, otherwise: { fee: 5 }, tests: [test('big', { total: 60 }, { fee: 0 })] };
    expect(untestedWarnings(coverageOf('simpleRule', definition))).toEqual([
      { path: 'definition.otherwise', message: 'the otherwise branch is not reached by any test case' },
    ]);
    const bare = { when: 'total >= 50', then: { fee: 0 }, tests: [test('big', { total: 60 }, { fee: 0 })] };
    expect(untestedWarnings(coverageOf('simpleRule', bare))).toEqual([
      { path: 'definition.when', message: 'the otherwise branch is not reached by any test case' },
    ]);
    const small = { ...definition, tests: [test('small', { total: 1 }, { fee: 5 }), test('null', { total: null }, { fee: 5 })] };
    expect(coverageOf('simpleRule', small).reachedBy).toEqual([[], [0, 1]]);
    expect(untestedWarnings(coverageOf('simpleRule', small))).toEqual([
      { path: 'definition.then', message: 'the then branch is not reached by any test case' },
    ]);
  });
});

describe('test coverage of a rule set', () => {
  it('names entries by their place in the definition, though priorities run them in another order', () => {
    const definition = {
      strategy: 'allMatch',
      rules: [
        { id: 'low', when: 'n < 0', then: [{ set: 'negative', value: true }] },
        { id: 'first', priority: 5, when: 'true', then: [{ set: 'seen', value: true }] },
        { id: 'refers', ruleId: 'inner' },
      ],
      tests: [test('small', { n: 1 }, { seen: true })],
    };
    const coverage = coverageOf('ruleSet', definition);
    expect(coverage.units.map((u) => [u.name, u.path])).toEqual([
      ['entry first', 'definition.rules[1]'],
      ['entry low', 'definition.rules[0]'],
      ['entry refers', 'definition.rules[2]'],
    ]);
    expect(untestedWarnings(coverage)).toEqual([
      { path: 'definition.rules[0]', message: 'entry low is not reached by any test case' },
      { path: 'definition.rules[2]', message: 'entry refers is not reached by any test case' },
    ]);
    // An entry that runs another rule is reached when that rule answers.
    const reaching = { ...definition, tests: [test('big', { n: 9 }, { seen: true, big: true })] };
    expect(coverageOf('ruleSet', reaching).reachedBy).toEqual([[0], [], [0]]);
  });

  it('leaves a rule set with references to the save, which loads them; one without is checked on its own', () => {
    const withReference = { strategy: 'allMatch', rules: [{ id: 'refers', ruleId: 'inner' }], tests: [test('t', {}, {})] };
    expect(selfContainedUntestedWarnings(prepared('ruleSet', withReference), withReference)).toEqual([]);
    const inline = { strategy: 'allMatch', rules: [{ id: 'never', when: 'false', then: [{ set: 'x', value: 1 }] }], tests: [test('t', {}, {})] };
    expect(selfContainedUntestedWarnings(prepared('ruleSet', inline), inline)).toEqual([
      { path: 'definition.rules[0]', message: 'entry never is not reached by any test case' },
    ]);
  });
});

describe('the save and the publish', () => {
  it("list the untested rows after the table's analysis, as the console's check of a draft shows them", () => {
    const { issues, warnings } = recordProblems('rule', {
      id: 'fees',
      name: 'Fees',
      type: 'decisionTable',
      definition: table([test('small', { n: 1 }, { out: 0 })]),
    });
    expect(issues).toEqual([]);
    expect(warnings.filter((w) => w.message.endsWith('is not reached by any test case')).map((w) => w.path)).toEqual([
      'definition.rules[1]',
      'definition.rules[2]',
      'definition.rules[3]',
    ]);
  });

  it("keep with a version the draft's warnings, with the test coverage of the publish's own run in place of the save's", () => {
    const analysis = { path: 'definition.rules', message: 'no row covers n = 50' };
    const stale = [
      analysis,
      { path: 'definition.rules[1]', message: 'row 2 is not reached by any test case' },
      { path: 'definition.tests', message: 'and 3 more rows no test case reaches' },
    ];
    const coverage = coverageOf('decisionTable', table([test('small', { n: 1 }, { out: 0 }), test('second', { n: 15 }, { out: 1 })]));
    expect(withTestCoverage(stale, coverage)).toEqual([
      analysis,
      { path: 'definition.rules[2]', message: 'row 3 is not reached by any test case' },
      { path: 'definition.rules[3]', message: 'row 4 is not reached by any test case' },
    ]);
    expect(withTestCoverage(undefined, coverageOf('decisionTable', table([])))).toEqual([]);
  });
});
