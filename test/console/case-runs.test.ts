/** Which test-case results hold after a save: those whose case and the rule's logic are unchanged. */
import { describe, expect, it } from 'vitest';
import { logicOf, noRuns, outcomeOf, runsOf } from '../../lib/console/web/rules/case-runs.ts';

const cases = [
  { name: 'big', params: { amount: 150 }, expected: { tier: 'gold' } },
  { name: 'small', params: { amount: 10 }, expected: { tier: 'silver' } },
];
const table = { hitPolicy: 'first', rules: [{ when: ['>= 100'], then: ['"gold"'] }], tests: cases };
const rule = (definition: Record<string, unknown>) => ({ type: 'decisionTable', definition });

describe('case runs', () => {
  const logic = logicOf(rule(table));
  const runs = runsOf(
    cases,
    [
      { passed: true, actual: { tier: 'gold' } },
      { passed: false, actual: { tier: 'basic' } },
    ],
    logic,
  );

  it("keeps every result across a save that changes only the cases' list, names or order, whatever the order of keys", () => {
    const saved = logicOf(rule({ tests: [...cases].reverse(), rules: table.rules, hitPolicy: 'first' }));
    expect(saved).toBe(logic);
    expect(outcomeOf(runs, { ...cases[1]!, name: 'renamed' }, saved)).toEqual({ passed: false, actual: { tier: 'basic' } });
    expect(outcomeOf(runs, { expected: { tier: 'gold' }, params: { amount: 150 }, name: 'big' }, saved)?.passed).toBe(true);
  });

  it('shows a changed case, a new one, or any case on changed logic as not run', () => {
    expect(outcomeOf(runs, { ...cases[1]!, expected: { tier: 'basic' } }, logic)).toBeUndefined();
    expect(outcomeOf(runs, { name: 'new', params: { amount: 1 }, expected: {} }, logic)).toBeUndefined();
    const changed = logicOf(rule({ ...table, rules: [{ when: ['>= 90'], then: ['"gold"'] }] }));
    expect(outcomeOf(runs, cases[0]!, changed)).toBeUndefined();
    expect(logicOf({ type: 'ruleSet', definition: table })).not.toBe(logic);
    expect(outcomeOf(noRuns, cases[0]!, logic)).toBeUndefined();
  });
});
