/**
 * The directory every request is checked against (workspaces, their
 * branches, API keys): small items read by key, apart from the data they
 * open, and kept warm in a function by ../cached-directory.ts.
 */
import { apiKeyKey, apiKeysOfWorkspace, branchKey, branchPrefix, workspaceKey, workspaceSortKey } from '../keys.ts';
import { tableDefinition } from '../table.ts';
import type { ApiKey, ApiKeyChange, AuditEvent, Branch, BranchProtection, DirectoryStore, Workspace, WorkspaceAccess } from '../types.ts';
import { setAll } from './expressions.ts';
import { pick, projection, TableClient } from './table-client.ts';

const { byName } = tableDefinition.indexes;
const workspaceFields = ['id', 'name', 'defaultBranch', 'createdAt', 'access'] as const;
const branchFields = ['workspaceId', 'name', 'createdAt', 'protection'] as const;
const apiKeyFields = [
  'keyId',
  'workspaceId',
  'label',
  'role',
  'owner',
  'branches',
  'createdAt',
  'expiresAt',
  'revokedAt',
  'vouchedBy',
  'ownerFixedAt',
  'person',
] as const;

export class DynamoDirectoryStore extends TableClient implements DirectoryStore {
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

  async setWorkspaceAccess(workspaceId: string, access: WorkspaceAccess, audit?: AuditEvent) {
    return this.writeIf(
      workspaceId,
      {
        Update: {
          TableName: this.tableName,
          Key: workspaceKey(workspaceId),
          UpdateExpression: 'SET #access = :access',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#access': 'access' },
          ExpressionAttributeValues: { ':access': access },
        },
      },
      audit,
    );
  }

  async getBranch(workspaceId: string, name: string) {
    return (await this.get(branchKey(workspaceId, name), branchFields)) as Branch | undefined;
  }

  async createBranch(branch: Branch) {
    const stored = await this.putIfAbsent({ ...branchKey(branch.workspaceId, branch.name), ...branch });
    return pick(stored, branchFields) as Branch;
  }

  async listBranches(workspaceId: string) {
    return (await this.queryPrefix(workspaceKey(workspaceId).PK, branchPrefix, branchFields)) as unknown as Branch[];
  }

  async setBranchProtection(workspaceId: string, branch: string, protection: BranchProtection | null, audit?: AuditEvent) {
    return this.writeIf(
      workspaceId,
      {
        Update: {
          TableName: this.tableName,
          Key: branchKey(workspaceId, branch),
          UpdateExpression: protection ? 'SET protection = :protection' : 'REMOVE protection',
          ConditionExpression: 'attribute_exists(PK)',
          ...(protection && { ExpressionAttributeValues: { ':protection': protection } }),
        },
      },
      audit,
    );
  }

  async getApiKeyByHash(hash: string) {
    return (await this.get(apiKeyKey(hash), apiKeyFields)) as ApiKey | undefined;
  }

  async createApiKey(hash: string, key: ApiKey, audit?: AuditEvent) {
    await this.write(
      key.workspaceId,
      {
        Put: {
          TableName: this.tableName,
          Item: { ...apiKeyKey(hash), ...key, [byName.partitionKey]: apiKeysOfWorkspace(key.workspaceId), [byName.sortKey]: key.keyId },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      audit,
    );
  }

  async listApiKeys(workspaceId: string) {
    const found = await this.queryAll({
      IndexName: byName.name,
      KeyConditionExpression: `${byName.partitionKey} = :pk`,
      ExpressionAttributeValues: { ':pk': apiKeysOfWorkspace(workspaceId) },
      ProjectionExpression: 'PK, SK',
    });
    // The index projects the summary attributes only (not role, owner, branches): each key is read whole, a workspace holding few.
    const items = await Promise.all(found.map((item) => this.get({ PK: item.PK, SK: item.SK }, apiKeyFields, true)));
    return items.flatMap((item) => (item ? [pick(item, apiKeyFields) as unknown as ApiKey] : []));
  }

  /** The item key of a workspace's key by its id, from the workspace's key index (the item itself is keyed by the secret's hash). */
  private async apiKeyItemKey(workspaceId: string, keyId: string) {
    const [found] = await this.queryAll({
      IndexName: byName.name,
      KeyConditionExpression: `${byName.partitionKey} = :pk AND ${byName.sortKey} = :id`,
      ExpressionAttributeValues: { ':pk': apiKeysOfWorkspace(workspaceId), ':id': keyId },
      ProjectionExpression: 'PK, SK',
    });
    return found && { PK: found.PK, SK: found.SK };
  }

  async getApiKeyById(workspaceId: string, keyId: string) {
    const key = await this.apiKeyItemKey(workspaceId, keyId);
    const stored = key && (await this.get(key, apiKeyFields));
    return stored && (pick(stored, apiKeyFields) as unknown as ApiKey);
  }

  async updateApiKey(workspaceId: string, keyId: string, change: ApiKeyChange, audit?: AuditEvent) {
    const key = await this.apiKeyItemKey(workspaceId, keyId);
    if (!key) return undefined;
    const set = setAll(Object.fromEntries(Object.entries(change).filter(([, value]) => value !== null)));
    // null takes a field away (a key no longer limited to branches, or no longer expiring).
    const removed = Object.keys(change).filter((field) => change[field as keyof ApiKeyChange] === null);
    const names = { ...set.names, ...Object.fromEntries(removed.map((field, i) => [`#r${i}`, field])) };
    const setsAny = Object.keys(set.values).length > 0;
    const written = await this.writeIf(
      workspaceId,
      {
        Update: {
          TableName: this.tableName,
          Key: key,
          UpdateExpression: [setsAny ? set.expression : '', removed.length ? `REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : '']
            .filter(Boolean)
            .join(' '),
          // The key is there (the index found it): an update must not make a bare one of a key deleted since.
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: names,
          ...(setsAny && { ExpressionAttributeValues: set.values }),
        },
      },
      audit,
    );
    if (!written) return undefined;
    const stored = await this.get(key, apiKeyFields, true);
    return stored && (pick(stored, apiKeyFields) as unknown as ApiKey);
  }
}
