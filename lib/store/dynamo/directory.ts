/**
 * The directory every request is checked against (workspaces, their
 * branches, API keys): small items read by key, apart from the data they
 * open, and kept warm in a function by ../cached-directory.ts.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { apiKeyKey, apiKeysOfWorkspace, branchKey, branchPrefix, workspaceKey, workspaceSortKey } from '../keys.ts';
import { tableDefinition } from '../table.ts';
import type { ApiKey, Branch, DirectoryStore, Workspace } from '../types.ts';
import { setAll } from './expressions.ts';
import { pick, projection, TableClient } from './table-client.ts';

const { byName } = tableDefinition.indexes;
const workspaceFields = ['id', 'name', 'defaultBranch', 'createdAt'] as const;
const branchFields = ['workspaceId', 'name', 'createdAt'] as const;
const apiKeyFields = ['keyId', 'workspaceId', 'label', 'createdAt', 'expiresAt', 'revokedAt'] as const;

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
}
