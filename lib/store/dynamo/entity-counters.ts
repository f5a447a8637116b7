/**
 * The entity-counter protocol: a branch's counters (one for the type, one per
 * kind) follow each entity's kind without transactions, which the embedded
 * DynamoDB lacks, through a claim kept on the entity item (../README.md,
 * "Writes without transactions"). Apart from ./entities.ts, which reads and
 * writes entities and goes through this for every change of what is counted.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { counterKey, counterPrefix, counterSortKey, entityKey, entityPartition, kindPartition } from '../keys.ts';
import { tableDefinition } from '../table.ts';
import type { AuditEvent, EntityRef, EntityScope } from '../types.ts';
import { setAll, unlessConditionFails } from './expressions.ts';
import { projection, TableClient, type Item } from './table-client.ts';

const { byName, byKindName, byCreated, byUpdated } = tableDefinition.indexes;

/** The attribute of a counter item that holds its count. */
export const totalAttribute = 'total';

/** What a writer reads of an entity to settle its counters. */
const countFields = ['type', 'countedAs', 'countClaim'];

export class EntityCounters extends TableClient {
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
  async settleCount(ref: EntityRef, written: Item | undefined) {
    let state = written;
    for (let round = 0; state && (state.countClaim || state.countedAs !== state.type); round++) {
      if (round > 20) throw new Error(`counters of ${ref.entityType} ${ref.id} did not settle`);
      const claim = await this.claimCount(ref, state, { to: state.type as string });
      if (claim) await this.completeClaim(ref, claim);
      state = await this.get(entityKey(ref), countFields, true);
    }
  }

  /**
   * Deletes an entity's item once it is off its counters; false when there
   * was none. An `audit` record goes with the claim that decides the delete:
   * once that is made, whoever writes the entity next finishes the delete.
   */
  async deleteCounted(ref: EntityRef, audit?: AuditEvent) {
    let state = await this.get(entityKey(ref), countFields, true);
    const existed = state !== undefined;
    // The same claim as a move, to nowhere: the counters drop once, then the item goes.
    for (let round = 0; state; round++) {
      if (round > 20) throw new Error(`${ref.entityType} ${ref.id} could not be deleted: its counters did not settle`);
      const claim = await this.claimCount(ref, state, { to: state.type as string, delete: true }, audit);
      if (claim) await this.completeClaim(ref, claim);
      state = await this.get(entityKey(ref), countFields, true);
    }
    return existed;
  }

  /** The claim open on the entity, else a new one for `intent` if no other writer claims first (then undefined: read again). */
  private async claimCount(ref: EntityRef, state: Item, intent: Pick<CountClaim, 'to' | 'delete'>, audit?: AuditEvent): Promise<CountClaim | undefined> {
    const open = state.countClaim as CountClaim | undefined;
    if (open) return open;
    const claim: CountClaim = { id: randomUUID(), ...intent, ...(state.countedAs !== undefined && { from: state.countedAs as string }) };
    await this.markDue(ref, claim, 'ADD');
    const claimed = await this.writeIf(
      ref.workspaceId,
      {
        Update: {
          TableName: this.tableName,
          Key: entityKey(ref),
          UpdateExpression: 'SET countClaim = :claim',
          // attribute_exists(PK): an entity deleted since it was read is not made again as a bare claim.
          ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(countClaim) AND ${claim.from === undefined ? 'attribute_not_exists(countedAs)' : 'countedAs = :from'}`,
          ExpressionAttributeValues: { ':claim': claim, ...(claim.from !== undefined && { ':from': claim.from }) },
        },
      },
      audit,
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

  async recount(scope: EntityScope) {
    const partition = entityPartition(scope.workspaceId, scope.branch, scope.entityType);
    const [entities, counters] = await Promise.all([
      this.queryAll({
        IndexName: byName.name,
        KeyConditionExpression: `${byName.partitionKey} = :pk AND ${byName.sortKey} > :counter`,
        ExpressionAttributeValues: { ':pk': partition, ':counter': counterSortKey },
        ...projection(['type']),
      }),
      this.queryPrefix(partition, counterPrefix, ['SK']),
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
  if (claim.delete)
    return claim.from === undefined
      ? []
      : [
          [undefined, -1],
          [claim.from, -1],
        ];
  return claim.from === undefined
    ? [
        [undefined, 1],
        [claim.to, 1],
      ]
    : [
        [claim.from, -1],
        [claim.to, 1],
      ];
}

/** Marks a claim's delta as due on a counter; unique to the claim. */
export const claimToken = (ref: EntityRef, claim: CountClaim) => `${ref.id}:${claim.id}`;
