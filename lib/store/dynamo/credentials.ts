import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { credentialKey, credentialNameKey, credentialPrefix, credentialsPartition } from '../keys.ts';
import { RevisionConflict, type CredentialStore, type NameClaim, type StoredCredential } from '../types.ts';
import { isConditionFailure, unlessConditionFails } from './expressions.ts';
import { pick, projection, TableClient } from './table-client.ts';

const publicFields = [
  'id', 'workspaceId', 'name', 'type', 'key', 'placement', 'description', 'valueHint', 'createdAt', 'updatedAt', 'rotatedAt', 'revokedAt', 'revision',
] as const;

const claimFields = ['credentialId', 'claimedAt'] as const;

export class DynamoCredentialStore extends TableClient implements CredentialStore {
  async getCredential(workspaceId: string, id: string, options: { withSecret?: boolean } = {}) {
    const item = await this.get(credentialKey(workspaceId, id), options.withSecret ? [...publicFields, 'secret'] : publicFields, true);
    return item as StoredCredential | undefined;
  }

  async listCredentials(workspaceId: string) {
    const items = await this.queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': credentialsPartition(workspaceId), ':prefix': credentialPrefix },
      ...projection(publicFields),
    });
    return items as unknown as StoredCredential[];
  }

  async putCredential(credential: StoredCredential, expectedRevision: number) {
    const item = { ...credentialKey(credential.workspaceId, credential.id), ...pick(credential as never, [...publicFields, 'secret']) };
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: expectedRevision === 0 ? 'attribute_not_exists(PK)' : 'revision = :expected',
          ...(expectedRevision !== 0 && { ExpressionAttributeValues: { ':expected': expectedRevision } }),
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new RevisionConflict(`credential ${credential.id}`);
      throw error;
    }
  }

  async claimCredentialName(workspaceId: string, name: string, credentialId: string, replacing?: string): Promise<NameClaim> {
    const key = credentialNameKey(workspaceId, name);
    const claim = { credentialId, claimedAt: new Date().toISOString() };
    if (replacing === undefined) return pick(await this.putIfAbsent({ ...key, ...claim }), claimFields) as unknown as NameClaim;
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET credentialId = :id, claimedAt = :at',
          ConditionExpression: 'credentialId = :replacing',
          ExpressionAttributeValues: { ':id': credentialId, ':at': claim.claimedAt, ':replacing': replacing },
        }),
      );
      return claim;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.get(key, claimFields, true)) as unknown as NameClaim;
    }
  }

  async releaseCredentialName(workspaceId: string, name: string, credentialId: string) {
    await unlessConditionFails(
      this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: credentialNameKey(workspaceId, name),
          ConditionExpression: 'credentialId = :id',
          ExpressionAttributeValues: { ':id': credentialId },
        }),
      ),
    );
  }

}
