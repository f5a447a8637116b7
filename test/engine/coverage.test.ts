/** A rule's hits: which rows, entries or branches gave an evaluation's answer, by the indexes of `coverageUnits`. */
import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule } from '../../lib/engine/compile.ts';
import { coverageUnits } from '../../lib/engine/coverage.ts';
import type { RuleDefinition } from '../../lib/engine/definitions.ts';
import { prepareRule } from '../../lib/engine/prepare.ts';

const prepared = (rule: RuleDefinition) => {
  const { prepared, problems } = prepareRule(rule);
  expect(problems).toEqual([]);
  return prepared;
};

describe('hits', () => {
  const table = prepared({
    kind: 'decisionTable',
    definition: {
      hitPolicy: 'collect',
      inputs: [{ id: 'n', expression: 'n', type: 'number' }],
      outputs: [{ id: 'out', name: 'out', type: 'number' }],
      rules: [
        { id: 'small', when: ['< 10'], then: [1] },
        { when: ['>= 5'], then: [2] },
        { when: ['> 100'], then: [3] },
      ],
    },
  });

  it("name a decision table's rows, and give every row a collect answers with", () => {
    expect(coverageUnits(table)).toEqual([
      { index: 0, kind: 'row', name: 'row 1', id: 'small' },
      { index: 1, kind: 'row', name: 'row 2' },
      { index: 2, kind: 'row', name: 'row 3' },
    ]);
    expect(evaluateRule(compileRule(table), { n: 7 }, { hits: true }).hits).toEqual([0, 1]);
    expect(evaluateRule(compileRule(table), { n: 7 }).hits).toBeUndefined();
  });

  it("give a simple rule's branch: then when the condition holds, otherwise when it is false or null", () => {
    const rule = compileRule(prepared({ kind: 'simpleRule', definition: { when: 'n > 1', then: { x: 1 } } }));
    expect(evaluateRule(rule, { n: 2 }, { hits: true }).hits).toEqual([0]);
    expect(evaluateRule(rule, { n: 0 }, { hits: true }).hits).toEqual([1]);
    expect(evaluateRule(rule, { n: null }, { hits: true }).hits).toEqual([1]);
  });

  it("give a rule set's matched entries, not the rows of the rules it runs", () => {
    const inner = compileRule(table);
    const set = prepared({
      kind: 'ruleSet',
      definition: {
        strategy: 'allMatch',
        rules: [
          { id: 'table', ruleId: 'inner' },
          { id: 'big', when: 'n > 50', then: [{ set: 'big', value: true }] },
          { id: 'always', when: 'true', then: [{ set: 'seen', value: true }] },
        ],
      },
    });
    expect(coverageUnits(set).map((u) => u.name)).toEqual(['entry table', 'entry big', 'entry always']);
    const rule = compileRule(set, () => inner);
    expect(evaluateRule(rule, { n: 1000 }, { hits: true }).hits).toEqual([0, 1, 2]);
    expect(evaluateRule(rule, { n: 1 }, { hits: true }).hits).toEqual([0, 2]);
  });
});
