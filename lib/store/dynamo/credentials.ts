import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { credentialKey, credentialNameKey, credentialPrefix, credentialsPartition } from '../keys.ts';
import { RevisionConflict, type CredentialStore, type StoredCredential } from '../types.ts';
import { isConditionFailure } from './expressions.ts';
import { pick, projection, TableClient } from './table-client.ts';

const publicFields = [
  'id', 'workspaceId', 'name', 'type', 'key', 'placement', 'description', 'valueHint', 'createdAt', 'updatedAt', 'rotatedAt', 'revokedAt', 'revision',
] as const;

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

  async claimCredentialName(workspaceId: string, name: string, credentialId: string, replacing?: string) {
    const key = credentialNameKey(workspaceId, name);
    if (replacing === undefined) return (await this.putIfAbsent({ ...key, credentialId })).credentialId as string;
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET credentialId = :id',
          ConditionExpression: 'credentialId = :replacing',
          ExpressionAttributeValues: { ':id': credentialId, ':replacing': replacing },
        }),
      );
      return credentialId;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.get(key, ['credentialId'], true))?.credentialId as string;
    }
  }

  async releaseCredentialName(workspaceId: string, name: string, credentialId: string) {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: credentialNameKey(workspaceId, name),
          ConditionExpression: 'credentialId = :id',
          ExpressionAttributeValues: { ':id': credentialId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
