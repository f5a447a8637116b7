/**
 * Change requests: one partition per entity and branch, one item per
 * request. Every change of a request is conditional on it being open (and,
 * for a publish, on the checksum it proposed), so an approval never lands on
 * a closed request and a request is closed once. Approvals are a map by
 * owner, set only if that owner has none: concurrent approvals by different
 * people all count, by the same person once.
 */
import { changeRequestKey, changeRequestPartition } from '../keys.ts';
import type { Approval, AuditEvent, ChangeRequest, ChangeRequestStore, EntityRef } from '../types.ts';
import { TableClient } from './table-client.ts';

const fields = [
  'id',
  'workspaceId',
  'branch',
  'entityType',
  'entityId',
  'checksum',
  'description',
  'baseVersion',
  'baseChecksum',
  'newestVersion',
  'author',
  'createdAt',
  'state',
  'approvals',
  'rejection',
  'publishedVersion',
  'closedAt',
  'diff',
  'diffTruncated',
  'tests',
  'replayTaskId',
] as const;

const asRequest = (item: Record<string, unknown>) =>
  Object.fromEntries(fields.filter((f) => item[f] !== undefined).map((f) => [f, item[f]])) as unknown as ChangeRequest;

export class DynamoChangeRequestStore extends TableClient implements ChangeRequestStore {
  async getChangeRequest(ref: EntityRef, id: string) {
    const item = await this.get(changeRequestKey(ref, id), undefined, true);
    return item && asRequest(item);
  }

  async listChangeRequests(ref: EntityRef) {
    const items = await this.queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': changeRequestPartition(ref) } });
    return items.map(asRequest).sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  async createChangeRequest(ref: EntityRef, request: ChangeRequest, audit?: AuditEvent) {
    return this.writeIf(
      ref.workspaceId,
      { Put: { TableName: this.tableName, Item: { ...changeRequestKey(ref, request.id), ...request }, ConditionExpression: 'attribute_not_exists(PK)' } },
      audit,
    );
  }

  async approveChangeRequest(ref: EntityRef, id: string, approval: Approval, audit?: AuditEvent) {
    return this.writeIf(
      ref.workspaceId,
      {
        Update: {
          TableName: this.tableName,
          Key: changeRequestKey(ref, id),
          UpdateExpression: 'SET approvals.#owner = :approval',
          ConditionExpression: '#state = :open AND attribute_not_exists(approvals.#owner)',
          ExpressionAttributeNames: { '#owner': approval.owner, '#state': 'state' },
          ExpressionAttributeValues: { ':approval': approval, ':open': 'open' },
        },
      },
      audit,
    );
  }

  async closeChangeRequest(
    ref: EntityRef,
    id: string,
    close: Pick<ChangeRequest, 'state' | 'closedAt' | 'rejection' | 'publishedVersion'>,
    audit?: AuditEvent,
  ) {
    const set = Object.entries(close).filter(([, value]) => value !== undefined);
    return this.writeIf(
      ref.workspaceId,
      {
        Update: {
          TableName: this.tableName,
          Key: changeRequestKey(ref, id),
          UpdateExpression: `SET ${set.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ConditionExpression: '#state = :open',
          ExpressionAttributeNames: { ...Object.fromEntries(set.map(([field], i) => [`#f${i}`, field])), '#state': 'state' },
          ExpressionAttributeValues: { ...Object.fromEntries(set.map(([, value], i) => [`:v${i}`, value])), ':open': 'open' },
        },
      },
      audit,
    );
  }
}
