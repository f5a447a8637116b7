/**
 * The Git remote's records: the workspace's remote configuration, and each
 * branch's sync record (the pull or push it runs, one at a time, and the
 * remote's commit it last synced with), kept on the branch's item.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { branchKey, remoteKey } from '../keys.ts';
import type { AuditEvent, RemoteConfig, RemoteStore } from '../types.ts';
import { isConditionFailure, unlessConditionFails } from './expressions.ts';
import { TableClient } from './table-client.ts';

/** Where pulls recorded the commit they pulled before pushes shared the record: read when no `syncedCommit` is there, removed by the next write of one. */
const legacyPulledCommit = 'pulledCommit';

export class DynamoRemoteStore extends TableClient implements RemoteStore {
  async getRemote(workspaceId: string) {
    return (await this.get(remoteKey(workspaceId), ['url', 'credentialId', 'format', 'updatedAt'], true)) as RemoteConfig | undefined;
  }

  async putRemote(workspaceId: string, remote: RemoteConfig, audit?: AuditEvent) {
    await this.write(workspaceId, { Put: { TableName: this.tableName, Item: { ...remoteKey(workspaceId), ...remote } } }, audit);
  }

  async getBranchSync(workspaceId: string, branch: string) {
    const item = await this.get(branchKey(workspaceId, branch), ['activeTaskId', 'syncedCommit', legacyPulledCommit], true);
    if (!item) return undefined;
    const syncedCommit = (item.syncedCommit ?? item[legacyPulledCommit]) as string | undefined;
    return { ...(item.activeTaskId !== undefined && { activeTaskId: item.activeTaskId as string }), ...(syncedCommit && { syncedCommit }) };
  }

  async claimBranchSync(workspaceId: string, branch: string, taskId: string, expected: string | undefined, audit?: AuditEvent) {
    try {
      await this.write(
        workspaceId,
        {
          Update: {
            TableName: this.tableName,
            Key: branchKey(workspaceId, branch),
            UpdateExpression: 'SET activeTaskId = :taskId',
            ConditionExpression: `attribute_exists(PK) AND ${expected === undefined ? 'attribute_not_exists(activeTaskId)' : 'activeTaskId = :expected'}`,
            ExpressionAttributeValues: { ':taskId': taskId, ...(expected !== undefined && { ':expected': expected }) },
          },
        },
        audit,
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async releaseBranchSync(workspaceId: string, branch: string, taskId: string, syncedCommit?: string) {
    await unlessConditionFails(
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: branchKey(workspaceId, branch),
          UpdateExpression: `REMOVE activeTaskId${syncedCommit ? `, ${legacyPulledCommit} SET syncedCommit = :commit` : ''}`,
          ConditionExpression: 'activeTaskId = :taskId',
          ExpressionAttributeValues: { ':taskId': taskId, ...(syncedCommit && { ':commit': syncedCommit }) },
        }),
      ),
    );
  }
}
