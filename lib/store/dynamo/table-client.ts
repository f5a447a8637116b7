import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { AuditEvent } from '../model/audit.ts';
import { DynamoAuditChain, type WriteItem } from './audit.ts';
import { isConditionFailure } from './expressions.ts';

export type Item = Record<string, unknown>;

/** What one BatchWriteItem may hold. */
const batchWriteLimit = 25;

/** A put or a delete inside a BatchWriteItem. */
export type WriteRequest = { PutRequest: { Item: object } } | { DeleteRequest: { Key: object } };

export const pick = <K extends string>(item: Item, fields: readonly K[]) => Object.fromEntries(fields.map((f) => [f, item[f]])) as Record<K, unknown>;

/** `#p0, #p1, ...` with its names, for projections that touch reserved words such as name, status and total. */
export function projection(fields: readonly string[]) {
  const names = Object.fromEntries(fields.map((f, i) => [`#p${i}`, f]));
  return { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names };
}

/** The reads and writes every part of the DynamoDB adapter shares. */
export class TableClient {
  protected readonly chain: DynamoAuditChain;

  constructor(
    protected readonly client: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {
    this.chain = new DynamoAuditChain(client, tableName);
  }

  /** One write of workspace `workspaceId`'s data, with its audit record in the same transaction when `audit` says what to record. */
  protected write(workspaceId: string, write: WriteItem, audit?: AuditEvent): Promise<void> {
    return this.chain.write(write, audit && { workspaceId, event: audit });
  }

  /** `write`, conditional: whether it was made (false when its condition did not hold, and then nothing was recorded either). */
  protected async writeIf(workspaceId: string, write: WriteItem, audit?: AuditEvent): Promise<boolean> {
    try {
      await this.write(workspaceId, write, audit);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  protected async get(key: object, fields?: readonly string[], consistent = false): Promise<Item | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: consistent, ...(fields && projection(fields)) }),
    );
    return Item;
  }

  /** Puts an item unless one with its key exists; returns the stored item either way. */
  protected async putIfAbsent(item: Item & { PK: string; SK: string }): Promise<Item> {
    try {
      await this.client.send(new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
      return item;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.get({ PK: item.PK, SK: item.SK }, undefined, true)) ?? item;
    }
  }

  /** Every item of `partition` whose sort key starts with `prefix`, read as `fields`. */
  protected queryPrefix(partition: string, prefix: string, fields: readonly string[]): Promise<Item[]> {
    return this.queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix },
      ...projection(fields),
    });
  }

  protected queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
    return allPages((ExclusiveStartKey) => this.client.send(new QueryCommand({ ...input, TableName: this.tableName, ExclusiveStartKey })));
  }

  /**
   * Writes `requests` in BatchWriteItems of 25, `parallel` of them at a time,
   * each repeating what DynamoDB leaves unprocessed (throttling) with backoff,
   * up to 10 times (about 13 s) before it fails. Every request must be safe
   * to repeat: a put of the whole item, or a delete.
   */
  protected async batchWrite(requests: readonly WriteRequest[], parallel = 1): Promise<void> {
    const chunks: WriteRequest[][] = [];
    for (let i = 0; i < requests.length; i += batchWriteLimit) chunks.push(requests.slice(i, i + batchWriteLimit));
    for (let i = 0; i < chunks.length; i += parallel) await Promise.all(chunks.slice(i, i + parallel).map((chunk) => this.batchWriteChunk(chunk)));
  }

  private async batchWriteChunk(requests: WriteRequest[]) {
    let pending = requests;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 25 * 2 ** attempt)));
      if (attempt > 10) throw new Error(`DynamoDB left ${pending.length} writes unprocessed after ${attempt} attempts`);
      const { UnprocessedItems } = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
      pending = (UnprocessedItems?.[this.tableName] ?? []) as WriteRequest[];
    }
  }

  /** Every item of the table that `input` keeps: a read of the whole table, for the operator's tools and the local runtime, never a function. */
  protected scanAll(input: Omit<ScanCommandInput, 'TableName'>): Promise<Item[]> {
    return allPages((ExclusiveStartKey) => this.client.send(new ScanCommand({ ...input, TableName: this.tableName, ExclusiveStartKey })));
  }
}

/** DynamoDB answers a Query or Scan a page (at most 1 MB) at a time: reads on from where each page stopped until none is left. */
async function allPages(read: (start: Item | undefined) => Promise<{ Items?: Item[]; LastEvaluatedKey?: Item }>): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await read(start);
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
