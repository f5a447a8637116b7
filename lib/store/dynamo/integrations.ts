import { integrationKey, integrationPrefix, integrationsPartition } from '../keys.ts';
import type { AuditEvent, IntegrationStore, StoredIntegration } from '../types.ts';
import { atRevision, atRevisionOrConflict } from './expressions.ts';
import { pick, TableClient } from './table-client.ts';

const fields = [
  'id',
  'workspaceId',
  'name',
  'type',
  'baseUrl',
  'headers',
  'credentialId',
  'timeoutMs',
  'description',
  'createdAt',
  'updatedAt',
  'revision',
] as const;

export class DynamoIntegrationStore extends TableClient implements IntegrationStore {
  async getIntegration(workspaceId: string, id: string) {
    return (await this.get(integrationKey(workspaceId, id), fields, true)) as StoredIntegration | undefined;
  }

  async listIntegrations(workspaceId: string) {
    return (await this.queryPrefix(integrationsPartition(workspaceId), integrationPrefix, fields)) as unknown as StoredIntegration[];
  }

  async putIntegration(integration: StoredIntegration, expectedRevision: number, audit?: AuditEvent) {
    const item = { ...integrationKey(integration.workspaceId, integration.id), ...pick(integration as never, fields) };
    await atRevisionOrConflict(
      `integration ${integration.id}`,
      this.write(integration.workspaceId, { Put: { TableName: this.tableName, Item: item, ...atRevision(expectedRevision) } }, audit),
    );
  }

  async deleteIntegration(workspaceId: string, id: string, expectedRevision: number, audit?: AuditEvent) {
    const key = integrationKey(workspaceId, id);
    await atRevisionOrConflict(
      `integration ${id}`,
      this.write(workspaceId, { Delete: { TableName: this.tableName, Key: key, ...atRevision(expectedRevision) } }, audit),
    );
  }
}
