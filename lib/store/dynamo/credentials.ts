import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { credentialKey, credentialPrefix, credentialsPartition } from '../keys.ts';
import type { CredentialStore, StoredCredential } from '../types.ts';
import { atRevision, atRevisionOrConflict } from './expressions.ts';
import { pick, TableClient } from './table-client.ts';

const publicFields = [
  'id',
  'workspaceId',
  'name',
  'type',
  'key',
  'placement',
  'description',
  'allowedHosts',
  'valueHint',
  'createdAt',
  'updatedAt',
  'rotatedAt',
  'revokedAt',
  'revision',
] as const;

export class DynamoCredentialStore extends TableClient implements CredentialStore {
  async getCredential(workspaceId: string, id: string, options: { withSecret?: boolean } = {}) {
    const item = await this.get(credentialKey(workspaceId, id), options.withSecret ? [...publicFields, 'secret'] : publicFields, true);
    return item as StoredCredential | undefined;
  }

  async listCredentials(workspaceId: string) {
    return (await this.queryPrefix(credentialsPartition(workspaceId), credentialPrefix, publicFields)) as unknown as StoredCredential[];
  }

  async putCredential(credential: StoredCredential, expectedRevision: number) {
    const item = { ...credentialKey(credential.workspaceId, credential.id), ...pick(credential as never, [...publicFields, 'secret']) };
    await atRevisionOrConflict(
      `credential ${credential.id}`,
      this.client.send(new PutCommand({ TableName: this.tableName, Item: item, ...atRevision(expectedRevision) })),
    );
  }

  async bindCredentialHosts(workspaceId: string, id: string, allowedHosts: string[], expectedRevision: number) {
    await atRevisionOrConflict(
      `credential ${id}`,
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: credentialKey(workspaceId, id),
          UpdateExpression: 'SET allowedHosts = :hosts, revision = :next',
          ConditionExpression: 'revision = :expected AND attribute_not_exists(allowedHosts)',
          ExpressionAttributeValues: { ':hosts': allowedHosts, ':next': expectedRevision + 1, ':expected': expectedRevision },
        }),
      ),
    );
  }
}
