/**
 * Rules and workflows: the working copy of each (one item, with the index
 * keys that list it by name, kind, creation and update), its published
 * versions (one partition per entity), and the lists read from the indexes,
 * whose totals come from the counters at the head of each index partition.
 * Every write that changes what is counted goes through ./entity-counters.ts.
 */
import { BatchGetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EntityKind } from '../../vocabulary/kinds.ts';
import type { VersionInfo } from '../../vocabulary/records.ts';
import {
  counterKey,
  counterSortKey,
  entityKey,
  entityPartition,
  entityPrefix,
  kindPartition,
  nameSortKey,
  timeSortKey,
  versionKey,
  versionPartition,
} from '../keys.ts';
import { RevisionConflict } from '../revision-retry.ts';
import { tableDefinition, type IndexDefinition } from '../table.ts';
import {
  describeRef,
  type AuditEvent,
  type EntityRef,
  type EntityScope,
  type EntityStore,
  type ListQuery,
  type Page,
  type Rollout,
  type StoredEntity,
  type StoredVersion,
  type Summary,
} from '../types.ts';
import { EntityCounters, totalAttribute } from './entity-counters.ts';
import { isConditionFailure, setAll, unlessConditionFails } from './expressions.ts';
import { pick, projection, TableClient, type Item } from './table-client.ts';

const { byName, byKindName, byCreated, byUpdated } = tableDefinition.indexes;
const summaryFields = ['id', 'name', 'description', 'type', 'status', 'version', 'tags', 'createdAt', 'updatedAt'] as const;
const recordFields = [...summaryFields, 'definition', 'checksum'] as const;
const storedFields = [...recordFields, 'createdBy', 'updatedBy', 'revision', 'publishedChecksum', 'source', 'warnings', 'candidate', 'rollout'] as const;
const versionFields = [...recordFields, 'warnings', 'prepared'] as const;
/** Stored fields a write may leave out: a working copy written without them must not keep the old ones. */
const clearedWhenAbsent = ['warnings', 'candidate', 'rollout'] as const;
/** What running a rule's latest version (or its rollout's candidate) reads of its working copy. */
const headFields = ['version', 'createdAt', 'rollout'] as const;
const versionInfoFields = ['version', 'checksum', 'publishedAt', 'publishedBy'] as const;

export class DynamoEntityStore extends TableClient implements EntityStore {
  private readonly counters = new EntityCounters(this.client, this.tableName);

  async getEntity(ref: EntityRef) {
    const item = await this.get(entityKey(ref), [...storedFields, 'countedAs'], true);
    return item && ({ ...pick(item, storedFields), countedAs: item.countedAs } as unknown as StoredEntity);
  }

  async getEntityHead(ref: EntityRef) {
    const item = await this.get(entityKey(ref), headFields, true);
    return (
      item && {
        version: String(item.version ?? ''),
        createdAt: String(item.createdAt),
        ...(item.rollout !== undefined && { rollout: item.rollout as Rollout }),
      }
    );
  }

  async getEntityHeads(refs: EntityRef[]) {
    if (refs.length > 100) throw new Error(`at most 100 entity heads in one read, not ${refs.length}`);
    const found = new Map<string, Item>();
    let keys = refs.map(entityKey);
    // Keys DynamoDB did not get to (throttling, size) are asked again, a bounded number of times.
    for (let attempt = 0; keys.length && attempt < 5; attempt++) {
      const { Responses, UnprocessedKeys } = await this.client.send(
        new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true, ...projection(['PK', 'SK', 'version', 'createdAt']) } } }),
      );
      for (const item of Responses?.[this.tableName] ?? []) found.set(`${item.PK}\u0000${item.SK}`, item);
      keys = (UnprocessedKeys?.[this.tableName]?.Keys ?? []) as typeof keys;
    }
    if (keys.length) throw new Error(`DynamoDB left ${keys.length} entity heads unread after 5 tries`);
    return refs.map((ref) => {
      const { PK, SK } = entityKey(ref);
      const item = found.get(`${PK}\u0000${SK}`);
      return item && { version: String(item.version ?? ''), createdAt: String(item.createdAt) };
    });
  }

  async getVersion(ref: EntityRef, version: string) {
    const item = await this.get(versionKey(ref, version), versionFields);
    return item as StoredVersion | undefined;
  }

  async listVersions(ref: EntityRef) {
    const items = await this.queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': versionPartition(ref) },
      ...projection(versionInfoFields),
    });
    return items as unknown as VersionInfo[];
  }

  async putVersion(ref: EntityRef, record: StoredVersion, info: VersionInfo) {
    const written = await unlessConditionFails(
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...versionKey(ref, info.version), ...record, ...info },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
    return written !== undefined;
  }

  async putEntity(ref: EntityRef, entity: StoredEntity, expectedRevision: number, kind: EntityKind, audit?: AuditEvent) {
    const set = setAll(entityAttributes(ref, entity, kind));
    const cleared = Object.fromEntries(clearedWhenAbsent.filter((field) => entity[field] === undefined).map((field, i) => [`#x${i}`, field]));
    const removals = Object.keys(cleared);
    const update = {
      TableName: this.tableName,
      Key: entityKey(ref),
      UpdateExpression: `${set.expression}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
      ConditionExpression: expectedRevision === 0 ? 'attribute_not_exists(PK)' : '#rev = :expected',
      ExpressionAttributeNames: { ...set.names, ...cleared, ...(expectedRevision !== 0 && { '#rev': 'revision' }) },
      ExpressionAttributeValues: { ...set.values, ...(expectedRevision !== 0 && { ':expected': expectedRevision }) },
    };
    let stored: Item | undefined;
    try {
      if (audit) {
        // A transaction answers no attributes: the counters read what was written.
        await this.write(ref.workspaceId, { Update: update }, audit);
        stored = await this.get(entityKey(ref), ['type', 'countedAs', 'countClaim'], true);
      } else ({ Attributes: stored } = await this.client.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' })));
    } catch (error) {
      if (isConditionFailure(error)) throw new RevisionConflict(describeRef(ref));
      throw error;
    }
    await this.counters.settleCount(ref, stored);
  }

  async deleteEntity(ref: EntityRef, audit?: AuditEvent) {
    return this.counters.deleteCounted(ref, audit);
  }

  async deleteVersions(ref: EntityRef) {
    const keys = await this.queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': versionPartition(ref) },
      ProjectionExpression: 'PK, SK',
    });
    await this.batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })));
  }

  async writeEntities(scope: EntityScope, entities: { entity: StoredEntity; kind: EntityKind }[], deletions: string[] = []) {
    const requests = [
      ...entities.map(({ entity, kind }) => {
        const ref = { ...scope, id: entity.id };
        return { PutRequest: { Item: { ...entityKey(ref), ...entityAttributes(ref, entity, kind), countedAs: kind } } };
      }),
      ...deletions.map((id) => ({ DeleteRequest: { Key: entityKey({ ...scope, id }) } })),
    ];
    if (requests.length === 0) return;
    await this.batchWrite(requests);
    await this.recount(scope);
  }

  async recount(scope: EntityScope) {
    await this.counters.recount(scope);
  }

  async listEntityStates(scope: EntityScope) {
    return (await this.queryPrefix(
      entityPartition(scope.workspaceId, scope.branch, scope.entityType),
      entityPrefix,
      storedFields,
    )) as unknown as StoredEntity[];
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
    if (!filter) return this.pageAt(query, base, index, offset);
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

  /**
   * One page of an unfiltered index partition: skips `offset` entities reading
   * keys only, then reads the page. Ascending, the partition's counter comes
   * first and gives the total in the same requests; descending, it comes last,
   * so it is read beside the page.
   */
  private async pageAt(query: ListQuery, base: Omit<QueryCommandInput, 'TableName'>, index: IndexDefinition, offset: number): Promise<Page<Summary>> {
    const partition = entityPartition(query.workspaceId, query.branch, query.entityType);
    const counterRead = query.sortDir === 'desc' ? this.get(counterKey(partition, query.kind), [totalAttribute]) : undefined;
    let totalCount = 0;
    let counterAhead = counterRead === undefined;
    /** Takes the counter out of a batch of index items, noting its total. */
    const entitiesOf = (items: Item[] = []) =>
      items.filter((item) => {
        if (item[index.sortKey] !== counterSortKey) return true;
        totalCount = Number(item[totalAttribute] ?? 0);
        counterAhead = false;
        return false;
      });
    let ExclusiveStartKey: Item | undefined;
    for (let toSkip = offset; toSkip > 0;) {
      const page = await this.client.send(
        new QueryCommand({
          ...base,
          TableName: this.tableName,
          ExclusiveStartKey,
          Limit: toSkip + (counterAhead ? 1 : 0),
          ...projection([index.sortKey, totalAttribute]),
        }),
      );
      toSkip -= entitiesOf(page.Items).length;
      ExclusiveStartKey = page.LastEvaluatedKey;
      if (!ExclusiveStartKey) break;
    }
    const items: Summary[] = [];
    const fields = projection([...summaryFields, index.sortKey, totalAttribute]);
    while (offset === 0 || ExclusiveStartKey) {
      const page = await this.client.send(
        new QueryCommand({
          ...base,
          ...fields,
          TableName: this.tableName,
          ExclusiveStartKey,
          Limit: query.pageSize - items.length + (counterAhead ? 1 : 0),
        }),
      );
      items.push(...entitiesOf(page.Items).map(toSummary));
      ExclusiveStartKey = page.LastEvaluatedKey;
      if (!ExclusiveStartKey || items.length >= query.pageSize) break;
    }
    if (counterRead) totalCount = Number((await counterRead)?.[totalAttribute] ?? 0);
    return { totalCount, items: items.slice(0, query.pageSize) };
  }
}

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
