/** The demo workspace's rules are real: each checks clean and passes its own test cases, and together they show every kind and hit policy. */
import { describe, expect, it } from 'vitest';
import { checkRule, runTestCases } from '../../lib/engine/authoring.ts';
import { compileRule, type CompiledRule } from '../../lib/engine/index.ts';
import { hitPolicies } from '../../lib/engine/definitions.ts';
import { entityInputSchema, ruleKinds, type EntityInput } from '../../lib/entities/schema.ts';
import { demoRules, remoteOnlyRules } from '../../lib/local/demo-entities.ts';

type Rule = Exclude<EntityInput, { type: 'workflow' }>;
const rules = [...demoRules, ...remoteOnlyRules].map((r) => entityInputSchema.parse(r) as Rule);

/** Compiles every demo rule, references resolved to the other demo rules. */
function compileAll(): Map<string, CompiledRule> {
  const compiled = new Map<string, CompiledRule>();
  const compile = (rule: Rule): CompiledRule => {
    const known = compiled.get(rule.id);
    if (known) return known;
    const { prepared, problems } = checkRule({ kind: rule.type, definition: rule.definition } as never);
    expect(problems, rule.id).toEqual([]);
    const result = compileRule(prepared, (id) => compile(rules.find((r) => r.id === id)!));
    compiled.set(rule.id, result);
    return result;
  };
  rules.forEach(compile);
  return compiled;
}

describe('the demo rules', () => {
  const compiled = compileAll();

  it.each(rules.map((r) => [r.id, r] as const))('%s passes its test cases', (_id, rule) => {
    const cases = rule.definition.tests ?? [];
    expect(cases.length).toBeGreaterThan(0);
    expect(runTestCases(compiled.get(rule.id)!, cases)).toEqual([]);
  });

  it('show every rule kind and every hit policy', () => {
    expect(new Set(rules.map((r) => r.type))).toEqual(new Set(ruleKinds));
    const policies = new Set(rules.flatMap((r) => (r.type === 'decisionTable' ? [r.definition.hitPolicy] : [])));
    expect(policies).toEqual(new Set(hitPolicies));
  });
});
