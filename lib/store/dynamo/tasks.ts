import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { openTasksPartition, taskKey, taskPartKey, taskPartPrefix } from '../keys.ts';
import { tableDefinition } from '../table.ts';
import { isOpenTask, type AuditEvent, type Task, type TaskState, type TaskStore } from '../types.ts';
import { isConditionFailure, setAll, unlessConditionFails } from './expressions.ts';
import { pick, TableClient, type Item } from './table-client.ts';

const taskFields = [
  'kind',
  'taskId',
  'workspaceId',
  'branch',
  'taskState',
  'createdAt',
  'startedAt',
  'finishedAt',
  'commit',
  'summary',
  'error',
  'leaseUntil',
  'runId',
  'dueAt',
  'applyingCommit',
  'applyingSummary',
  'workflowRun',
  'push',
  'replay',
  'shards',
  'requestedBy',
  'requestId',
] as const;
/**
 * Tasks written before a task recorded its kind say it by the field of their
 * kind's data (a workflow run's, a push's, a replay's); one with none is a
 * pull, the first kind there was. Their records stay as they are.
 */
const kindOfUnmarked = (item: Item) => (item.workflowRun ? 'workflowRun' : item.push ? 'push' : item.replay ? 'replay' : 'pull');

/** The task an item holds, with its kind. */
const taskOf = (item: Item) => ({ ...pick(item, taskFields), kind: item.kind ?? kindOfUnmarked(item) }) as unknown as Task;

const { byName: openIndex } = tableDefinition.indexes;
/** Finished tasks, and what their shards found, are deleted by DynamoDB's time to live this long after they were made. */
const taskRetentionSeconds = 30 * 24 * 3600;
const expiresFrom = (timestamp: string) => Math.floor(Date.parse(timestamp) / 1000) + taskRetentionSeconds;
/** A pending task whose message never arrived is given up after this long. */
const pendingDeadlineMs = 60 * 60 * 1000;

/**
 * Open tasks sit in a sparse index partition, sorted by when they must be done
 * (a pending task's deadline, an in-progress task's lease), so the sweeper
 * reads only the overdue ones; finished tasks leave it.
 */
function openIndexKeys(task: Pick<Task, 'taskState' | 'createdAt' | 'dueAt'>): Item {
  if (!isOpenTask(task)) return {};
  const due = task.dueAt ?? new Date(Date.parse(task.createdAt) + pendingDeadlineMs).toISOString();
  return { [openIndex.partitionKey]: openTasksPartition, [openIndex.sortKey]: due };
}

export class DynamoTaskStore extends TableClient implements TaskStore {
  async getTask(taskId: string) {
    const item = await this.get(taskKey(taskId), taskFields, true);
    return item && taskOf(item);
  }

  async createTask(task: Task) {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...taskKey(task.taskId),
          ...task,
          ...openIndexKeys(task),
          [tableDefinition.timeToLiveAttribute]: expiresFrom(task.createdAt),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async transitionTask(
    taskId: string,
    from: TaskState[],
    change: Partial<Task>,
    options: { runId?: string; leaseExpiredBefore?: string } = {},
    audit?: AuditEvent,
  ) {
    const current = await this.getTask(taskId);
    if (!current) return undefined;
    const next = { ...current, ...change };
    const set = setAll({ ...change, ...openIndexKeys(next) });
    // Ended by this change; a change to a task that has ended already fails its condition, and must not remove what it sets.
    const finished = change.taskState !== undefined && !isOpenTask(next);
    const conditions = [`#state IN (${from.map((_, i) => `:from${i}`).join(', ')})`];
    const values: Item = { ...set.values, ...Object.fromEntries(from.map((state, i) => [`:from${i}`, state])) };
    if (options.runId) {
      conditions.push('runId = :runId');
      values[':runId'] = options.runId;
    }
    if (options.leaseExpiredBefore) {
      conditions.push('(attribute_not_exists(leaseUntil) OR leaseUntil < :expiry)');
      values[':expiry'] = options.leaseExpiredBefore;
    }
    const update = {
      TableName: this.tableName,
      Key: taskKey(taskId),
      UpdateExpression: `${set.expression}${finished ? ` REMOVE ${openIndex.partitionKey}, ${openIndex.sortKey}, leaseUntil, dueAt` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: { ...set.names, '#state': 'taskState' },
      ExpressionAttributeValues: values,
    };
    try {
      if (audit) {
        // A transaction answers no attributes: the task is read back.
        await this.write(current.workspaceId, { Update: update }, audit);
        return this.getTask(taskId);
      }
      const { Attributes } = await this.client.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
      return Attributes && taskOf(Attributes);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async listOverdueTasks(now: string) {
    const items = await this.queryAll({
      IndexName: openIndex.name,
      KeyConditionExpression: `${openIndex.partitionKey} = :open AND ${openIndex.sortKey} < :now`,
      ExpressionAttributeValues: { ':open': openTasksPartition, ':now': now },
      ProjectionExpression: 'PK',
    });
    return items.map((item) => (item.PK as string).slice('TASK:'.length));
  }

  async putTaskPart(taskId: string, shard: number, resultJson: string) {
    const put = new PutCommand({
      TableName: this.tableName,
      Item: { ...taskPartKey(taskId, shard), resultJson, [tableDefinition.timeToLiveAttribute]: expiresFrom(new Date().toISOString()) },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    return (await unlessConditionFails(this.client.send(put))) !== undefined;
  }

  async *readTaskParts(taskId: string) {
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': taskKey(taskId).PK, ':prefix': taskPartPrefix },
          ProjectionExpression: 'resultJson',
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) yield item.resultJson as string;
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }

  async markShardDone(taskId: string, shard: number, at: string) {
    const { Attributes } =
      (await unlessConditionFails(
        this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: taskKey(taskId),
            UpdateExpression: 'SET #shards.#done.#shard = :at',
            // The task's shards are recorded before any shard's message is sent.
            ConditionExpression: '#state = :running AND attribute_exists(#shards.#done)',
            ExpressionAttributeNames: { '#shards': 'shards', '#done': 'done', '#shard': String(shard), '#state': 'taskState' },
            ExpressionAttributeValues: { ':at': at, ':running': 'in-progress' },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      )) ?? {};
    return Attributes && taskOf(Attributes);
  }
}
