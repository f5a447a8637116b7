/** The line that explains a decision table's hit policy: one for every policy and aggregation the engine has. */
import { describe, expect, it } from 'vitest';
import { aggregations, hitPolicies } from '../../lib/engine/definitions.ts';
import { aggregationWords, hitPolicyLine, hitPolicyWords } from '../../lib/console/web/rules/hit-policy-words.ts';

describe('hit policy words', () => {
  it('explains every hit policy and aggregation the engine has, with an example, and nothing else', () => {
    expect(Object.keys(hitPolicyWords).sort()).toEqual([...hitPolicies].sort());
    expect(Object.keys(aggregationWords).sort()).toEqual([...aggregations].sort());
    for (const line of [...Object.values(hitPolicyWords), ...Object.values(aggregationWords)]) expect(line).toMatch(/^[A-Z][^\n]*\. Example: .+\.$/);
  });

  it("says the chosen policy's line, and under collect its aggregation's", () => {
    expect(hitPolicyLine('first')).toBe('First: the first matching row, top to bottom, answers. Example: put exceptions above the general rows.');
    expect(hitPolicyLine('collect')).toBe(hitPolicyWords.collect);
    expect(hitPolicyLine('collect', 'count')).toBe(aggregationWords.count);
    // An aggregation is read under collect only, as the engine reads it.
    expect(hitPolicyLine('ruleOrder', 'sum')).toBe(hitPolicyWords.ruleOrder);
  });
});
