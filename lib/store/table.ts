/**
 * The one definition of the service's DynamoDB table. The CDK stack, the local
 * runtime and the tests all build their table from it, so an index exists in
 * every environment or in none. The item layout and access patterns are in
 * `./README.md`.
 */

export interface IndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /** Attributes copied into the index beside the keys: summaries, never bodies. */
  readonly projectedAttributes: readonly string[];
}

/** Attributes that list and summary reads need; everything else stays in the base table. */
const summaryAttributes = [
  'id',
  'name',
  'nameKey',
  'description',
  'type',
  'status',
  'version',
  'tags',
  'createdAt',
  'updatedAt',
  'keyId',
  'workspaceId',
  'label',
  'expiresAt',
  'revokedAt',
  // Counters sit at the head of the entity index partitions (see keys.ts).
  'total',
] as const;

const index = (n: number): IndexDefinition => ({
  name: `GSI${n}`,
  partitionKey: `GSI${n}PK`,
  sortKey: `GSI${n}SK`,
  projectedAttributes: summaryAttributes,
});

export const tableDefinition = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds; DynamoDB deletes items past it: finished tasks, rule executions. */
  timeToLiveAttribute: 'ttl',
  indexes: {
    /** Entities of a branch and type, by case-insensitive name then id; API keys of a workspace; a rule's executions by start time, for counting. */
    byName: index(1),
    /** Entities of a branch, type and kind, by name then id. */
    byKindName: index(2),
    /** Entities of a branch and type by creation time. */
    byCreated: index(3),
    /** Entities of a branch and type by last update. */
    byUpdated: index(4),
  },
} as const;

export type IndexName = keyof typeof tableDefinition.indexes;

export const allIndexes: readonly IndexDefinition[] = Object.values(tableDefinition.indexes);
