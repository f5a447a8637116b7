import { credentialKey, credentialPrefix, credentialsPartition } from '../keys.ts';
import type { AuditEvent, CredentialStore, StoredCredential } from '../types.ts';
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

  async putCredential(credential: StoredCredential, expectedRevision: number, audit?: AuditEvent) {
    const item = { ...credentialKey(credential.workspaceId, credential.id), ...pick(credential as never, [...publicFields, 'secret']) };
    await atRevisionOrConflict(
      `credential ${credential.id}`,
      this.write(credential.workspaceId, { Put: { TableName: this.tableName, Item: item, ...atRevision(expectedRevision) } }, audit),
    );
  }

  async bindCredentialHosts(workspaceId: string, id: string, allowedHosts: string[], expectedRevision: number, audit?: AuditEvent) {
    await atRevisionOrConflict(
      `credential ${id}`,
      this.write(
        workspaceId,
        {
          Update: {
            TableName: this.tableName,
            Key: credentialKey(workspaceId, id),
            UpdateExpression: 'SET allowedHosts = :hosts, revision = :next',
            ConditionExpression: 'revision = :expected AND attribute_not_exists(allowedHosts)',
            ExpressionAttributeValues: { ':hosts': allowedHosts, ':next': expectedRevision + 1, ':expected': expectedRevision },
          },
        },
        audit,
      ),
    );
  }
}
