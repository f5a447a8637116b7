/**
 * Claims on names unique per workspace: one item per name (lower-cased) in
 * the partition of what bears it, holding the holder's id. Credential claims
 * keep the attribute they have always had (`credentialId`), so claims
 * written before integrations existed still count.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { credentialNameKey, integrationNameKey, type ItemKey } from '../keys.ts';
import type { NameClaim, NameClaimStore, NamedKind } from '../types.ts';
import { isConditionFailure, unlessConditionFails } from './expressions.ts';
import { TableClient, type Item } from './table-client.ts';

const claimItems: Record<NamedKind, { key: (workspaceId: string, name: string) => ItemKey; holder: string }> = {
  credential: { key: credentialNameKey, holder: 'credentialId' },
  integration: { key: integrationNameKey, holder: 'integrationId' },
};

export class DynamoNameClaimStore extends TableClient implements NameClaimStore {
  async claimName(kind: NamedKind, workspaceId: string, name: string, holderId: string, replacing?: string): Promise<NameClaim> {
    const { key: keyOf, holder } = claimItems[kind];
    const key = keyOf(workspaceId, name);
    const claimedAt = new Date().toISOString();
    const claimOf = (item: Item) => ({ holderId: item[holder] as string, claimedAt: item.claimedAt as string });
    if (replacing === undefined) return claimOf(await this.putIfAbsent({ ...key, [holder]: holderId, claimedAt }));
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET #holder = :id, claimedAt = :at',
          ConditionExpression: '#holder = :replacing',
          ExpressionAttributeNames: { '#holder': holder },
          ExpressionAttributeValues: { ':id': holderId, ':at': claimedAt, ':replacing': replacing },
        }),
      );
      return { holderId, claimedAt };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await this.get(key, [holder, 'claimedAt'], true);
      // Released meanwhile: the name is free to claim afresh.
      return current ? claimOf(current) : this.claimName(kind, workspaceId, name, holderId);
    }
  }

  async releaseName(kind: NamedKind, workspaceId: string, name: string, holderId: string) {
    const { key, holder } = claimItems[kind];
    await unlessConditionFails(
      this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: key(workspaceId, name),
          ConditionExpression: '#holder = :id',
          ExpressionAttributeNames: { '#holder': holder },
          ExpressionAttributeValues: { ':id': holderId },
        }),
      ),
    );
  }
}
