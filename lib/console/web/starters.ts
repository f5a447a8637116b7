/** What a new rule or workflow starts as: the smallest definition of its kind that saves, for the editor to grow. */
export const ruleKinds = ['decisionTable', 'ruleSet', 'simpleRule'] as const;
export type EntityKind = (typeof ruleKinds)[number] | 'workflow';

export const kindLabels: Record<EntityKind, string> = {
  decisionTable: 'Decision table',
  ruleSet: 'Rule set',
  simpleRule: 'Simple rule',
  workflow: 'Workflow',
};

export function starterDefinition(kind: EntityKind): Record<string, unknown> {
  switch (kind) {
    case 'decisionTable':
      return {
        hitPolicy: 'first',
        inputs: [{ id: 'amount', expression: 'amount', type: 'number' }],
        outputs: [{ id: 'result', name: 'result', type: 'string' }],
        rules: [{ when: ['-'], then: ['"ok"'] }],
      };
    case 'ruleSet':
      return { strategy: 'firstMatch', rules: [{ id: 'first', when: 'true', then: [{ set: 'result', value: 'ok' }] }] };
    case 'simpleRule':
      return { when: 'true', then: { result: 'ok' } };
    case 'workflow':
      return { start: 'done', steps: [{ id: 'done', kind: 'end', output: { result: '"ok"' } }] };
  }
}
