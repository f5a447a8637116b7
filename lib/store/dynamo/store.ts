import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { EntityKind, EntityRecord, VersionInfo } from '../../entities/schema.ts';
import { tableDefinition, type IndexDefinition } from '../table.ts';
import {
  apiKeyKey,
  apiKeysOfWorkspace,
  branchKey,
  branchPrefix,
  counterKey,
  entityKey,
  entityPartition,
  kindPartition,
  nameSortKey,
  timeSortKey,
  versionKey,
  versionPartition,
  workspaceKey,
} from '../keys.ts';
import {
  RevisionConflict,
  type ApiKey,
  type Branch,
  type EntityRef,
  type EntityScope,
  type ListQuery,
  type Page,
  type Store,
  type StoredEntity,
  type Summary,
  type Workspace,
} from '../types.ts';
import { isConditionFailure, setAll } from './expressions.ts';

type Item = Record<string, unknown>;

const { byName, byKindName, byCreated, byUpdated } = tableDefinition.indexes;
const summaryFields = ['id', 'name', 'description', 'type', 'status', 'version', 'tags', 'createdAt', 'updatedAt'] as const;
const recordFields = [...summaryFields, 'definition', 'checksum'] as const;
const storedFields = [...recordFields, 'createdBy', 'updatedBy', 'revision', 'publishedChecksum'] as const;
const versionInfoFields = ['version', 'checksum', 'publishedAt', 'publishedBy'] as const;

const pick = <K extends string>(item: Item, fields: readonly K[]) =>
  Object.fromEntries(fields.map((f) => [f, item[f]])) as Record<K, unknown>;

/** `#f0, #f1, ...` with its names, for projections that touch reserved words such as name and status. */
function projection(fields: readonly string[]) {
  const names = Object.fromEntries(fields.map((f, i) => [`#p${i}`, f]));
  return { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names };
}

const totalAttribute = 'total';
const kindCountAttribute = (kind: string) => `kind_${kind}`;

export class DynamoStore implements Store {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async get(key: object, fields?: readonly string[], consistent = false): Promise<Item | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: consistent, ...(fields && projection(fields)) }),
    );
    return Item;
  }

  /** Puts an item unless one with its key exists; returns the stored item either way. */
  private async putIfAbsent(item: Item & { PK: string; SK: string }): Promise<Item> {
    try {
      await this.client.send(new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
      return item;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.get({ PK: item.PK, SK: item.SK }, undefined, true)) ?? item;
    }
  }

  private async queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
    const items: Item[] = [];
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await this.client.send(new QueryCommand({ ...input, TableName: this.tableName, ExclusiveStartKey }));
      items.push(...(page.Items ?? []));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return items;
  }

  // Workspaces, branches and API keys

  async getWorkspace(id: string) {
    return (await this.get(workspaceKey(id), ['id', 'name', 'defaultBranch', 'createdAt'])) as Workspace | undefined;
  }

  async createWorkspace(workspace: Workspace) {
    const stored = await this.putIfAbsent({ ...workspaceKey(workspace.id), ...workspace });
    return pick(stored, ['id', 'name', 'defaultBranch', 'createdAt']) as Workspace;
  }

  async getBranch(workspaceId: string, name: string) {
    return (await this.get(branchKey(workspaceId, name), ['workspaceId', 'name', 'createdAt'])) as Branch | undefined;
  }

  async createBranch(branch: Branch) {
    const stored = await this.putIfAbsent({ ...branchKey(branch.workspaceId, branch.name), ...branch });
    return pick(stored, ['workspaceId', 'name', 'createdAt']) as Branch;
  }

  async listBranches(workspaceId: string) {
    const items = await this.queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': workspaceKey(workspaceId).PK, ':prefix': branchPrefix },
      ...projection(['workspaceId', 'name', 'createdAt']),
    });
    return items as unknown as Branch[];
  }

  async getApiKeyByHash(hash: string) {
    return (await this.get(apiKeyKey(hash), apiKeyFields)) as ApiKey | undefined;
  }

  async createApiKey(hash: string, key: ApiKey) {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...apiKeyKey(hash), ...key, [byName.partitionKey]: apiKeysOfWorkspace(key.workspaceId), [byName.sortKey]: key.keyId },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async listApiKeys(workspaceId: string) {
    const items = await this.queryAll({
      IndexName: byName.name,
      KeyConditionExpression: `${byName.partitionKey} = :pk`,
      ExpressionAttributeValues: { ':pk': apiKeysOfWorkspace(workspaceId) },
    });
    return items.map((item) => pick(item, apiKeyFields) as unknown as ApiKey);
  }

  async updateApiKey(workspaceId: string, keyId: string, change: Partial<Pick<ApiKey, 'revokedAt' | 'expiresAt'>>) {
    const [found] = await this.queryAll({
      IndexName: byName.name,
      KeyConditionExpression: `${byName.partitionKey} = :pk AND ${byName.sortKey} = :id`,
      ExpressionAttributeValues: { ':pk': apiKeysOfWorkspace(workspaceId), ':id': keyId },
      ProjectionExpression: 'PK, SK',
    });
    if (!found) return undefined;
    const set = setAll(change);
    const { Attributes } = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { PK: found.PK, SK: found.SK },
        UpdateExpression: set.expression,
        ExpressionAttributeNames: set.names,
        ExpressionAttributeValues: set.values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes && (pick(Attributes, apiKeyFields) as unknown as ApiKey);
  }

  // Entities

  async getEntity(ref: EntityRef) {
    const item = await this.get(entityKey(ref), [...storedFields, 'countedAs'], true);
    return item && ({ ...pick(item, storedFields), countedAs: item.countedAs } as unknown as StoredEntity);
  }

  async getVersion(ref: EntityRef, version: string) {
    const item = await this.get(versionKey(ref, version), recordFields);
    return item as EntityRecord | undefined;
  }

  async listVersions(ref: EntityRef) {
    const items = await this.queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': versionPartition(ref) },
      ...projection(versionInfoFields),
    });
    return items as unknown as VersionInfo[];
  }

  async putVersion(ref: EntityRef, record: EntityRecord, info: VersionInfo) {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...versionKey(ref, info.version), ...record, ...info },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async putEntity(ref: EntityRef, entity: StoredEntity, expectedRevision: number, kind: EntityKind) {
    const set = setAll(entityAttributes(ref, entity, kind));
    let stored: Item | undefined;
    try {
      ({ Attributes: stored } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entityKey(ref),
          UpdateExpression: set.expression,
          ConditionExpression: expectedRevision === 0 ? 'attribute_not_exists(PK)' : '#rev = :expected',
          ExpressionAttributeNames: { ...set.names, ...(expectedRevision !== 0 && { '#rev': 'revision' }) },
          ExpressionAttributeValues: { ...set.values, ...(expectedRevision !== 0 && { ':expected': expectedRevision }) },
          ReturnValues: 'ALL_NEW',
        }),
      ));
    } catch (error) {
      if (isConditionFailure(error)) throw new RevisionConflict(ref);
      throw error;
    }
    await this.settleCount(ref, stored?.countedAs as string | undefined, kind);
  }

  /**
   * Brings the branch's counters in line with one entity without transactions
   * (the embedded DynamoDB has none), in retry-safe steps:
   * 1. apply the delta to the counter and mark the entity pending there, unless it is marked already;
   * 2. record on the entity the kind it is now counted as;
   * 3. clear the pending mark.
   * A writer that stops between steps leaves the entity's countedAs stale, so
   * its retry (the domain treats such an entity as unwritten) repeats the
   * steps, and step 1's condition keeps the delta from applying twice.
   */
  private async settleCount(ref: EntityRef, countedAs: string | undefined, kind: EntityKind) {
    if (countedAs === kind) return;
    const counter = counterKey(ref.workspaceId, ref.branch, ref.entityType);
    const pending = new Set([ref.id]);
    const names: Record<string, string> = { '#total': totalAttribute, '#new': kindCountAttribute(kind) };
    const values: Record<string, unknown> = { ':one': 1, ':pending': pending, ':id': ref.id };
    let add = '#new :one, pending :pending';
    if (countedAs === undefined) add += ', #total :one';
    else {
      names['#old'] = kindCountAttribute(countedAs);
      values[':minusOne'] = -1;
      add += ', #old :minusOne';
    }
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: counter,
          UpdateExpression: `ADD ${add}`,
          ConditionExpression: 'attribute_not_exists(pending) OR NOT contains(pending, :id)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    await this.client.send(
      new UpdateCommand({ TableName: this.tableName, Key: entityKey(ref), UpdateExpression: 'SET countedAs = :kind', ExpressionAttributeValues: { ':kind': kind } }),
    );
    await this.client.send(
      new UpdateCommand({ TableName: this.tableName, Key: counter, UpdateExpression: 'DELETE pending :pending', ExpressionAttributeValues: { ':pending': pending } }),
    );
  }

  async writeEntities(scope: EntityScope, entities: { entity: StoredEntity; kind: EntityKind }[]) {
    const requests = entities.map(({ entity, kind }) => {
      const ref = { ...scope, id: entity.id };
      return { PutRequest: { Item: { ...entityKey(ref), ...entityAttributes(ref, entity, kind), countedAs: kind } } };
    });
    for (let i = 0; i < requests.length; i += batchWriteLimit) await this.batchWrite(requests.slice(i, i + batchWriteLimit));
    await this.recount(scope);
  }

  /** One BatchWriteItem, repeating what DynamoDB leaves unprocessed (throttling) with backoff. */
  private async batchWrite(requests: object[]) {
    let pending = requests;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 25 * 2 ** attempt)));
      if (attempt > 10) throw new Error(`DynamoDB left ${pending.length} writes unprocessed after ${attempt} attempts`);
      const { UnprocessedItems } = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending as never } }));
      pending = UnprocessedItems?.[this.tableName] ?? [];
    }
  }

  async recount(scope: EntityScope) {
    const items = await this.queryAll({
      IndexName: byName.name,
      KeyConditionExpression: `${byName.partitionKey} = :pk`,
      ExpressionAttributeValues: { ':pk': entityPartition(scope.workspaceId, scope.branch, scope.entityType) },
      ...projection(['type']),
    });
    const counter: Item = { ...counterKey(scope.workspaceId, scope.branch, scope.entityType), [totalAttribute]: items.length };
    for (const { type } of items) counter[kindCountAttribute(type as string)] = ((counter[kindCountAttribute(type as string)] as number) ?? 0) + 1;
    // Replaced whole, so that a kind no longer present reads 0 rather than its old count.
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: counter }));
  }

  async listEntities(query: ListQuery): Promise<Page<Summary>> {
    const partition = entityPartition(query.workspaceId, query.branch, query.entityType);
    const useKindIndex = query.sortBy === 'name' && query.kind !== undefined;
    const index = useKindIndex ? byKindName : query.sortBy === 'name' ? byName : query.sortBy === 'createdAt' ? byCreated : byUpdated;
    const base = {
      IndexName: index.name,
      KeyConditionExpression: `${index.partitionKey} = :pk`,
      ExpressionAttributeValues: { ':pk': useKindIndex ? kindPartition(partition, query.kind!) : partition } as Item,
      ScanIndexForward: query.sortDir === 'asc',
    };
    const offset = (query.pageNo - 1) * query.pageSize;
    const filter = listFilter(query, useKindIndex);
    if (!filter) {
      const [totalCount, items] = await Promise.all([this.count(query), this.pageAt(base, index, offset, query.pageSize)]);
      return { totalCount, items };
    }
    // A filter needs the true total, so read the whole (compact) index partition once.
    const summary = projection(summaryFields);
    const matches = await this.queryAll({
      ...base,
      ...summary,
      FilterExpression: filter.expression,
      ExpressionAttributeNames: { ...summary.ExpressionAttributeNames, ...filter.names },
      ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ...filter.values },
    });
    return { totalCount: matches.length, items: matches.slice(offset, offset + query.pageSize).map(toSummary) };
  }

  private async count(query: ListQuery): Promise<number> {
    const attribute = query.kind === undefined ? totalAttribute : kindCountAttribute(query.kind);
    const item = await this.get(counterKey(query.workspaceId, query.branch, query.entityType), [attribute]);
    return Number(item?.[attribute] ?? 0);
  }

  /** One page of an unfiltered index partition: skips `offset` entries reading keys only, then reads the page. */
  private async pageAt(base: Omit<QueryCommandInput, 'TableName'>, index: IndexDefinition, offset: number, pageSize: number) {
    let ExclusiveStartKey: Item | undefined;
    for (let toSkip = offset; toSkip > 0; ) {
      const page = await this.client.send(
        new QueryCommand({ ...base, TableName: this.tableName, ExclusiveStartKey, Limit: toSkip, ProjectionExpression: index.sortKey }),
      );
      toSkip -= page.Count ?? 0;
      ExclusiveStartKey = page.LastEvaluatedKey;
      if (!ExclusiveStartKey) return [];
    }
    const items: Summary[] = [];
    const summary = projection(summaryFields);
    do {
      const page = await this.client.send(
        new QueryCommand({ ...base, ...summary, TableName: this.tableName, ExclusiveStartKey, Limit: pageSize - items.length }),
      );
      items.push(...(page.Items ?? []).map(toSummary));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey && items.length < pageSize);
    return items;
  }
}

const batchWriteLimit = 25;

/** Every attribute of an entity's working-copy item but its key and count bookkeeping. */
function entityAttributes(ref: EntityRef, entity: StoredEntity, kind: EntityKind): Item {
  const partition = entityPartition(ref.workspaceId, ref.branch, ref.entityType);
  return {
    ...pick(entity as unknown as Item, storedFields),
    entityType: ref.entityType,
    nameKey: entity.name.toLowerCase(),
    [byName.partitionKey]: partition,
    [byName.sortKey]: nameSortKey(entity.name, entity.id),
    [byKindName.partitionKey]: kindPartition(partition, kind),
    [byKindName.sortKey]: nameSortKey(entity.name, entity.id),
    [byCreated.partitionKey]: partition,
    [byCreated.sortKey]: timeSortKey(entity.createdAt, entity.id),
    [byUpdated.partitionKey]: partition,
    [byUpdated.sortKey]: timeSortKey(entity.updatedAt, entity.id),
  };
}

const apiKeyFields = ['keyId', 'workspaceId', 'label', 'createdAt', 'expiresAt', 'revokedAt'] as const;

const toSummary = (item: Item) => pick(item, summaryFields) as unknown as Summary;

function listFilter(query: ListQuery, kindInKey: boolean) {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Item = {};
  if (query.name) {
    clauses.push('contains(#fName, :fName)');
    names['#fName'] = 'nameKey';
    values[':fName'] = query.name.toLowerCase();
  }
  if (query.kind !== undefined && !kindInKey) {
    clauses.push('#fKind = :fKind');
    names['#fKind'] = 'type';
    values[':fKind'] = query.kind;
  }
  if (query.status) {
    clauses.push('#fStatus = :fStatus');
    names['#fStatus'] = 'status';
    values[':fStatus'] = query.status;
  }
  return clauses.length ? { expression: clauses.join(' AND '), names, values } : undefined;
}

