/**
 * The fixed vocabulary of entities. Kept free of zod so that the API
 * functions, which need these names but not the record schemas, stay small.
 */
export const entityTypes = ['rule', 'workflow'] as const;
export type EntityType = (typeof entityTypes)[number];

export const ruleKinds = ['decisionTable', 'ruleSet', 'simpleRule'] as const;
export type RuleKind = (typeof ruleKinds)[number];
export const isRuleKind = (kind: string): kind is RuleKind => (ruleKinds as readonly string[]).includes(kind);
/** Workflows have one kind; `type` still names it so that both entity types share a shape. */
export const workflowKind = 'workflow';
export type EntityKind = RuleKind | typeof workflowKind;

export const entityTypeOf = (kind: EntityKind): EntityType => (kind === workflowKind ? 'workflow' : 'rule');

export const entityStatuses = ['draft', 'published'] as const;
export type EntityStatus = (typeof entityStatuses)[number];

export const versionLabelPattern = /^v[1-9][0-9]{0,8}$/;

/** What an entity id may be (the record schema's `id`): also checked on path ids before any read, so a key never exceeds DynamoDB's bounds. */
export const entityIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
