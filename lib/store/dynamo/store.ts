import { randomUUID } from 'node:crypto';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EntityKind, VersionInfo } from '../../entities/schema.ts';
import { tableDefinition, type IndexDefinition } from '../table.ts';
import {
  apiKeyKey,
  apiKeysOfWorkspace,
  branchKey,
  branchPrefix,
  counterKey,
  counterPrefix,
  counterSortKey,
  entityKey,
  entityPrefix,
  entityPartition,
  kindPartition,
  nameSortKey,
  timeSortKey,
  versionKey,
  versionPartition,
  workspaceKey,
  workspaceSortKey,
} from '../keys.ts';
import {
  RevisionConflict,
  describeRef,
  type ApiKey,
  type Branch,
  type EntityRef,
  type EntityScope,
  type ListQuery,
  type Page,
  type DirectoryStore,
  type EntityStore,
  type StoredEntity,
  type StoredVersion,
  type Summary,
  type Workspace,
} from '../types.ts';
import { isConditionFailure, setAll, unlessConditionFails } from './expressions.ts';
import { pick, projection, TableClient, type Item } from './table-client.ts';

const { byName, byKindName, byCreated, byUpdated } = tableDefinition.indexes;
const summaryFields = ['id', 'name', 'description', 'type', 'status', 'version', 'tags', 'createdAt', 'updatedAt'] as const;
const recordFields = [...summaryFields, 'definition', 'checksum'] as const;
const storedFields = [...recordFields, 'createdBy', 'updatedBy', 'revision', 'publishedChecksum', 'source', 'warnings'] as const;
const versionFields = [...recordFields, 'warnings', 'prepared'] as const;
/** Stored fields a write may leave out: a working copy written without them must not keep the old ones. */
const clearedWhenAbsent = ['warnings'] as const;
const versionInfoFields = ['version', 'checksum', 'publishedAt', 'publishedBy'] as const;

const totalAttribute = 'total';

export class DynamoStore extends TableClient implements DirectoryStore, EntityStore {
  // Workspaces, branches and API keys

  async getWorkspace(id: string) {
    return (await this.get(workspaceKey(id), workspaceFields)) as Workspace | undefined;
  }

  async listWorkspaces() {
    const items = await this.scanAll({ FilterExpression: 'SK = :sk', ...projection(workspaceFields), ExpressionAttributeValues: { ':sk': workspaceSortKey } });
    return (items as unknown as Workspace[]).sort((a, b) => a.id.localeCompare(b.id));
  }

  async createWorkspace(workspace: Workspace) {
    const stored = await this.putIfAbsent({ ...workspaceKey(workspace.id), ...workspace });
    return pick(stored, workspaceFields) as Workspace;
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

  async getEntityHead(ref: EntityRef) {
    const item = await this.get(entityKey(ref), ['version', 'createdAt'], true);
    return item && { version: String(item.version ?? ''), createdAt: String(item.createdAt) };
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

  async putEntity(ref: EntityRef, entity: StoredEntity, expectedRevision: number, kind: EntityKind) {
    const set = setAll(entityAttributes(ref, entity, kind));
    const cleared = clearedWhenAbsent.filter((field) => entity[field] === undefined);
    let stored: Item | undefined;
    try {
      ({ Attributes: stored } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entityKey(ref),
          UpdateExpression: `${set.expression}${cleared.length ? ` REMOVE ${cleared.join(', ')}` : ''}`,
          ConditionExpression: expectedRevision === 0 ? 'attribute_not_exists(PK)' : '#rev = :expected',
          ExpressionAttributeNames: { ...set.names, ...(expectedRevision !== 0 && { '#rev': 'revision' }) },
          ExpressionAttributeValues: { ...set.values, ...(expectedRevision !== 0 && { ':expected': expectedRevision }) },
          ReturnValues: 'ALL_NEW',
        }),
      ));
    } catch (error) {
      if (isConditionFailure(error)) throw new RevisionConflict(describeRef(ref));
      throw error;
    }
    await this.settleCount(ref, stored);
  }

  /**
   * Brings the branch's counters (one for the type, one per kind) in line with
   * one entity's kind, without transactions (the embedded DynamoDB has none).
   * The entity item serialises the change: a writer first puts a new claim's
   * token on the counters it moves (`due`), then claims the move from
   * `countedAs` to the entity's current kind on the entity, then applies the
   * counter deltas, each conditional on the token still being due on that
   * counter and taking it off, then completes the claim. A claim left by a
   * writer that stopped, or held by a concurrent one, is taken over with the
   * same token, so no delta applies twice and no move is lost: a token is due
   * on a counter once, before anyone can know it, so a takeover that acts on a
   * claim after it completed finds nothing due. The loop ends once the
   * entity is counted as what it is and no claim is open (an open delete
   * claim ends with the entity deleted).
   */
  private async settleCount(ref: EntityRef, written: Item | undefined) {
    let state = written;
    for (let round = 0; state && (state.countClaim || state.countedAs !== state.type); round++) {
      if (round > 20) throw new Error(`counters of ${ref.entityType} ${ref.id} did not settle`);
      const claim = await this.claimCount(ref, state, { to: state.type as string });
      if (claim) await this.completeClaim(ref, claim);
      state = await this.get(entityKey(ref), countFields, true);
    }
  }

  async deleteEntity(ref: EntityRef) {
    let state = await this.get(entityKey(ref), countFields, true);
    const existed = state !== undefined;
    // The same claim as a move, to nowhere: the counters drop once, then the item goes.
    for (let round = 0; state; round++) {
      if (round > 20) throw new Error(`${ref.entityType} ${ref.id} could not be deleted: its counters did not settle`);
      const claim = await this.claimCount(ref, state, { to: state.type as string, delete: true });
      if (claim) await this.completeClaim(ref, claim);
      state = await this.get(entityKey(ref), countFields, true);
    }
    return existed;
  }

  async deleteVersions(ref: EntityRef) {
    const keys = await this.queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': versionPartition(ref) },
      ProjectionExpression: 'PK, SK',
    });
    for (let i = 0; i < keys.length; i += batchWriteLimit)
      await this.batchWrite(keys.slice(i, i + batchWriteLimit).map((Key) => ({ DeleteRequest: { Key } })));
  }

  /** The claim open on the entity, else a new one for `intent` if no other writer claims first (then undefined: read again). */
  private async claimCount(ref: EntityRef, state: Item, intent: Pick<CountClaim, 'to' | 'delete'>): Promise<CountClaim | undefined> {
    const open = state.countClaim as CountClaim | undefined;
    if (open) return open;
    const claim: CountClaim = { id: randomUUID(), ...intent, ...(state.countedAs !== undefined && { from: state.countedAs as string }) };
    await this.markDue(ref, claim, 'ADD');
    const claimed = await unlessConditionFails(
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entityKey(ref),
          UpdateExpression: 'SET countClaim = :claim',
          // attribute_exists(PK): an entity deleted since it was read is not made again as a bare claim.
          ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(countClaim) AND ${claim.from === undefined ? 'attribute_not_exists(countedAs)' : 'countedAs = :from'}`,
          ExpressionAttributeValues: { ':claim': claim, ...(claim.from !== undefined && { ':from': claim.from }) },
        }),
      ),
    );
    if (claimed) return claim;
    // A try whose answer was lost may have made the claim; else no other writer knew it, and its tokens can come off.
    const now = await this.get(entityKey(ref), ['countClaim'], true);
    if ((now?.countClaim as CountClaim | undefined)?.id === claim.id) return claim;
    await this.markDue(ref, claim, 'DELETE');
    return undefined;
  }

  /** Puts a claim's token on the counters it moves (ADD), or takes it off them when the claim was not made (DELETE). */
  private async markDue(ref: EntityRef, claim: CountClaim, action: 'ADD' | 'DELETE') {
    const partition = entityPartition(ref.workspaceId, ref.branch, ref.entityType);
    for (const [counterKind] of claimDeltas(claim))
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: counterKey(partition, counterKind),
          UpdateExpression: `${action} due :token`,
          ExpressionAttributeValues: { ':token': new Set([claimToken(ref, claim)]) },
        }),
      );
  }

  private async completeClaim(ref: EntityRef, claim: CountClaim) {
    const partition = entityPartition(ref.workspaceId, ref.branch, ref.entityType);
    const token = claimToken(ref, claim);
    for (const [counterKind, delta] of claimDeltas(claim)) {
      const set = setAll(counterIndexKeys(partition, counterKind));
      // A token no longer due was applied already, by this claim's first writer or another takeover.
      await unlessConditionFails(
        this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: counterKey(partition, counterKind),
            UpdateExpression: `${set.expression} ADD #total :delta DELETE due :token`,
            ConditionExpression: 'contains(due, :tokenValue)',
            ExpressionAttributeNames: { ...set.names, '#total': totalAttribute },
            ExpressionAttributeValues: { ...set.values, ':delta': delta, ':token': new Set([token]), ':tokenValue': token },
          }),
        ),
      );
    }
    const completion = { TableName: this.tableName, Key: entityKey(ref), ConditionExpression: 'countClaim.id = :claimId' };
    await unlessConditionFails(
      this.client.send(
        claim.delete
          ? new DeleteCommand({ ...completion, ExpressionAttributeValues: { ':claimId': claim.id } })
          : new UpdateCommand({
              ...completion,
              UpdateExpression: 'SET countedAs = :to REMOVE countClaim',
              ExpressionAttributeValues: { ':to': claim.to, ':claimId': claim.id },
            }),
      ),
    );
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
    for (let i = 0; i < requests.length; i += batchWriteLimit) await this.batchWrite(requests.slice(i, i + batchWriteLimit));
    await this.recount(scope);
  }

  async listEntityStates(scope: EntityScope) {
    const items = await this.queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': entityPartition(scope.workspaceId, scope.branch, scope.entityType), ':prefix': entityPrefix },
      ...projection(storedFields),
    });
    return items as unknown as StoredEntity[];
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
    const partition = entityPartition(scope.workspaceId, scope.branch, scope.entityType);
    const [entities, counters] = await Promise.all([
      this.queryAll({
        IndexName: byName.name,
        KeyConditionExpression: `${byName.partitionKey} = :pk AND ${byName.sortKey} > :counter`,
        ExpressionAttributeValues: { ':pk': partition, ':counter': counterSortKey },
        ...projection(['type']),
      }),
      this.queryAll({
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': partition, ':prefix': counterPrefix },
        ProjectionExpression: 'SK',
      }),
    ]);
    const totals = new Map<string | undefined, number>([[undefined, entities.length]]);
    // Kinds no longer present must read 0, not their old count.
    for (const { SK } of counters) if (SK !== counterPrefix) totals.set((SK as string).slice(counterPrefix.length + 1), 0);
    for (const { type } of entities) totals.set(type as string, (totals.get(type as string) ?? 0) + 1);
    for (const [kind, total] of totals)
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...counterKey(partition, kind), ...counterIndexKeys(partition, kind), [totalAttribute]: total },
        }),
      );
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
    for (let toSkip = offset; toSkip > 0; ) {
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

/** Index keys that put a counter at the head of its index partitions: the kind index for a kind's, the others for the type's. */
function counterIndexKeys(partition: string, kind: string | undefined): Item {
  if (kind !== undefined) return { [byKindName.partitionKey]: kindPartition(partition, kind), [byKindName.sortKey]: counterSortKey };
  return Object.fromEntries(
    [byName, byCreated, byUpdated].flatMap((index) => [
      [index.partitionKey, partition],
      [index.sortKey, counterSortKey],
    ]),
  );
}

const batchWriteLimit = 25;

/** A move of an entity between counters, claimed on the entity while it is applied. */
export interface CountClaim {
  id: string;
  /** The kind it was counted as; absent when it was not counted yet. */
  from?: string;
  to: string;
  /** The move is off every counter, and the entity is deleted when it completes. */
  delete?: boolean;
}

/** The counters a claim moves (undefined: the type's) and by how much. */
export function claimDeltas(claim: CountClaim): [string | undefined, number][] {
  if (claim.delete) return claim.from === undefined ? [] : [[undefined, -1], [claim.from, -1]];
  return claim.from === undefined ? [[undefined, 1], [claim.to, 1]] : [[claim.from, -1], [claim.to, 1]];
}

/** Marks a claim's delta as due on a counter; unique to the claim. */
export const claimToken = (ref: EntityRef, claim: CountClaim) => `${ref.id}:${claim.id}`;

/** What a writer reads of an entity to settle its counters. */
const countFields = ['type', 'countedAs', 'countClaim'];

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

const workspaceFields = ['id', 'name', 'defaultBranch', 'createdAt'] as const;
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

