/**
 * Rule and workflow executions: one item each in the rule's (or workflow's) execution partition, sorted by
 * start time, kept for a fixed time by the table's time to live. Reads leave
 * out what has expired but is not deleted yet (DynamoDB deletes within days,
 * not at once), by key, so no filter reads it. A scheduled run is keyed by
 * its scheduled time instead of its start, so that a second delivery of the
 * same run finds the first one's key taken. Counting, skipping to a deep
 * page and cutting a replay's window into ranges read the compact index
 * entries (keys and the version only), never the recorded input and output.
 * A batch's executions are written together, in BatchWriteItems (each a put
 * of a new key, safe to repeat).
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { executionKey, executionPartition } from '../keys.ts';
import { tableDefinition } from '../table.ts';
import { unlessConditionFails } from './expressions.ts';
import {
  executionRetentionDays,
  type Execution,
  type ExecutionRange,
  type ExecutionScope,
  type ExecutionStore,
  type Page,
  type RecordedInput,
  type RuleScope,
} from '../types.ts';
import { TableClient, type Item } from './table-client.ts';
import { parseJson } from '../../decimal/json.ts';

const retentionMs = executionRetentionDays * 24 * 3600 * 1000;
/** Sort keys start with the key time: what started before this had expired at `now`. */
const expiryCutoff = (now: string) => new Date(Date.parse(now) - retentionMs).toISOString();

const { byName: countIndex } = tableDefinition.indexes;

const plainFields = [
  'executionId',
  'ruleId',
  'workflowId',
  'version',
  'trigger',
  'scheduledTime',
  'outcome',
  'outputOmitted',
  'error',
  'durationMs',
  'startedAt',
  'finishedAt',
  'expiresAt',
] as const;

/** The time that orders an execution in its partition: when it was due (a scheduled run), else when it started; ISO 8601 with milliseconds either way. */
const keyTime = (execution: Execution) => (execution.scheduledTime ? new Date(execution.scheduledTime).toISOString() : execution.startedAt);

/** Input and output are kept as JSON text: any JSON a caller sent stores as it came (DynamoDB numbers have a narrower range). */
function toItem(scope: ExecutionScope, execution: Execution): Item {
  const key = executionKey(scope, keyTime(execution), execution.executionId);
  return {
    ...key,
    [countIndex.partitionKey]: key.PK,
    [countIndex.sortKey]: key.SK,
    ...Object.fromEntries(plainFields.map((field) => [field, execution[field]])),
    inputJson: JSON.stringify(execution.input ?? null),
    ...(execution.output !== undefined && { outputJson: JSON.stringify(execution.output) }),
    ...(execution.steps !== undefined && { stepsJson: JSON.stringify(execution.steps) }),
    [tableDefinition.timeToLiveAttribute]: Math.floor(Date.parse(execution.expiresAt) / 1000),
  };
}

function fromItem(item: Item): Execution {
  const execution = Object.fromEntries(plainFields.filter((field) => item[field] !== undefined).map((field) => [field, item[field]])) as unknown as Execution;
  execution.input = parseJson(item.inputJson as string);
  if (typeof item.outputJson === 'string') execution.output = parseJson(item.outputJson);
  if (typeof item.stepsJson === 'string') execution.steps = parseJson(item.stepsJson) as Execution['steps'];
  return execution;
}

/** An execution with the time it is kept until. */
const expiring = (recorded: Omit<Execution, 'expiresAt'>): Execution => ({
  ...recorded,
  expiresAt: new Date(Date.parse(recorded.startedAt) + retentionMs).toISOString(),
});

/** BatchWriteItems of a batch's executions sent at once: 1,000 executions are 40 of them. */
const parallelBatchWrites = 4;

export class DynamoExecutionStore extends TableClient implements ExecutionStore {
  async putExecution(scope: ExecutionScope, recorded: Omit<Execution, 'expiresAt'>, options: { once?: boolean } = {}) {
    const execution = expiring(recorded);
    const put = new PutCommand({
      TableName: this.tableName,
      Item: toItem(scope, execution),
      ...(options.once && { ConditionExpression: 'attribute_not_exists(PK)' }),
    });
    return (await unlessConditionFails(this.client.send(put))) && execution;
  }

  async putExecutions(scope: ExecutionScope, executions: Omit<Execution, 'expiresAt'>[]) {
    await this.batchWrite(
      executions.map((recorded) => ({ PutRequest: { Item: toItem(scope, expiring(recorded)) } })),
      parallelBatchWrites,
    );
  }

  async listExecutions(scope: ExecutionScope, { pageNo, pageSize }: { pageNo: number; pageSize: number }, now: string): Promise<Page<Execution>> {
    const partition = executionPartition(scope);
    const cutoff = expiryCutoff(now);
    const offset = (pageNo - 1) * pageSize;
    const [totalCount, startAfter] = await Promise.all([this.count(partition, cutoff), offset > 0 ? this.keyAt(partition, cutoff, offset) : undefined]);
    if (offset > 0 && !startAfter) return { totalCount, items: [] };
    const items: Execution[] = [];
    let ExclusiveStartKey = startAfter;
    // A page may need more than one request: a response holds at most 1 MB, and recorded params and answers take room.
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk AND SK > :cutoff',
          ExpressionAttributeValues: { ':pk': partition, ':cutoff': cutoff },
          ScanIndexForward: false,
          Limit: pageSize - items.length,
          ExclusiveStartKey,
        }),
      );
      items.push(...(page.Items ?? []).map(fromItem));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey && items.length < pageSize);
    return { totalCount, items };
  }

  async splitExecutions(scope: RuleScope, window: { from: string; to: string }, bounds: { limit: number; rangeSize: number }, now: string) {
    const cutoff = expiryCutoff(now);
    // A key is `<time>\u0001<id>`, so BETWEEN two times holds those at `from` and none at `to`.
    const from = window.from > cutoff ? window.from : cutoff;
    const ranges: ExecutionRange[] = [];
    if (from >= window.to) return ranges;
    let seen = 0;
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: countIndex.name,
          KeyConditionExpression: `${countIndex.partitionKey} = :pk AND ${countIndex.sortKey} BETWEEN :from AND :to`,
          ExpressionAttributeValues: { ':pk': executionPartition(scope), ':from': from, ':to': window.to },
          ScanIndexForward: false,
          ProjectionExpression: 'SK',
          Limit: bounds.limit - seen,
          ExclusiveStartKey,
        }),
      );
      // Newest first: a range's last key is met first, its first key `rangeSize` keys later (or at the end).
      for (const { SK } of page.Items ?? []) {
        const key = SK as string;
        if (seen % bounds.rangeSize === 0) ranges.push({ first: key, last: key, count: 0 });
        const range = ranges.at(-1)!;
        range.first = key;
        range.count++;
        seen++;
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey && seen < bounds.limit);
    return ranges.reverse();
  }

  async readExecutionRange(scope: RuleScope, range: ExecutionRange, after?: string) {
    const partition = executionPartition(scope);
    const page = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :first AND :last',
        ExpressionAttributeValues: { ':pk': partition, ':first': range.first, ':last': range.last },
        ProjectionExpression: 'SK, executionId, startedAt, inputJson',
        ...(after && { ExclusiveStartKey: { PK: partition, SK: after } }),
      }),
    );
    const items: RecordedInput[] = (page.Items ?? []).map((item) => ({
      executionId: item.executionId as string,
      startedAt: item.startedAt as string,
      input: parseJson(item.inputJson as string),
    }));
    return { items, ...(page.LastEvaluatedKey && { next: page.LastEvaluatedKey.SK as string }) };
  }

  private indexQuery(partition: string, cutoff: string) {
    return {
      TableName: this.tableName,
      IndexName: countIndex.name,
      KeyConditionExpression: `${countIndex.partitionKey} = :pk AND ${countIndex.sortKey} > :cutoff`,
      ExpressionAttributeValues: { ':pk': partition, ':cutoff': cutoff },
      ScanIndexForward: false,
    };
  }

  private async count(partition: string, cutoff: string): Promise<number> {
    let total = 0;
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await this.client.send(new QueryCommand({ ...this.indexQuery(partition, cutoff), Select: 'COUNT', ExclusiveStartKey }));
      total += page.Count ?? 0;
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return total;
  }

  /** The table key of the `offset`-th newest execution, from which the page starts; undefined past the end. */
  private async keyAt(partition: string, cutoff: string, offset: number): Promise<Item | undefined> {
    let skipped = 0;
    let last: Item | undefined;
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({ ...this.indexQuery(partition, cutoff), ProjectionExpression: 'PK, SK', Limit: offset - skipped, ExclusiveStartKey }),
      );
      skipped += page.Items?.length ?? 0;
      last = page.Items?.at(-1) ?? last;
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey && skipped < offset);
    return skipped === offset && last ? { PK: last.PK, SK: last.SK } : undefined;
  }
}
