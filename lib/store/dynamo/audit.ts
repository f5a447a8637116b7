/**
 * The audit log's chain in DynamoDB. A record is appended in one
 * TransactWriteItems with the head of its workspace's chain (on condition
 * that the head is still the one the record was sealed to) and, for a write,
 * the write itself (on its own condition): the write and its record exist
 * together or not at all, and no two records take the same place. When
 * another append moved the head first, the record is sealed again to the new
 * head and the transaction tried again; when the write's own condition
 * failed, the caller sees the ConditionalCheckFailedException the plain write
 * would have raised.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { sealRecord } from '../audit-chain.ts';
import { auditHeadKey, auditPartition, auditRecordKey, auditRecordPrefix, auditRecordSortKey } from '../keys.ts';
import { auditRetentionDays, type AuditEvent, type AuditHead, type AuditRecord } from '../model/audit.ts';

type Item = Record<string, unknown>;

/** One item of a TransactWriteItems: a Put, Update, Delete or ConditionCheck. */
export type WriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Appends racing for one workspace's head take turns; each waits a little longer, at random, before it tries again. */
const appendAttempts = 40;
const backoffMs = (attempt: number) => Math.random() * Math.min(200, 5 * 2 ** Math.min(attempt, 6));

const recordFields = [
  'workspaceId',
  'seq',
  'at',
  'prevHash',
  'prevAt',
  'hash',
  'actor',
  'operation',
  'target',
  'requestId',
  'outcome',
  'checksumBefore',
  'checksumAfter',
  'detail',
] as const;

/** What a write's record needs beside the write: the workspace whose chain it joins, and the event. */
export interface Audited {
  workspaceId: string;
  event: AuditEvent;
}

export class DynamoAuditChain {
  private readonly retentionSeconds = auditRetentionDays() * 86_400;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getAuditHead(workspaceId: string): Promise<AuditHead | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: auditHeadKey(workspaceId), ConsistentRead: true }));
    return Item && { seq: Number(Item.seq), hash: String(Item.hash), at: String(Item.at) };
  }

  /** Makes one write: on its own when nothing is to be recorded, else in one transaction with its record. */
  async write(write: WriteItem, audited?: Audited): Promise<void> {
    if (audited) {
      await this.append(audited.workspaceId, audited.event, write);
      return;
    }
    if (write.Put) await this.client.send(new PutCommand(write.Put));
    else if (write.Update) await this.client.send(new UpdateCommand(write.Update));
    else if (write.Delete) await this.client.send(new DeleteCommand(write.Delete));
    else throw new Error('a write is a Put, an Update or a Delete');
  }

  /** Appends `event` to its workspace's chain, with `write` when it is the record of a write; returns the record stored. */
  async append(workspaceId: string, event: AuditEvent, write?: WriteItem): Promise<AuditRecord> {
    for (let attempt = 1; ; attempt++) {
      const head = await this.getAuditHead(workspaceId);
      const record = sealRecord(workspaceId, event, head);
      const headKey = auditHeadKey(workspaceId);
      const items: WriteItem[] = [
        ...(write ? [write] : []),
        {
          Put: {
            TableName: this.tableName,
            Item: { ...auditRecordKey(workspaceId, record.seq), ...record, ttl: Math.floor(Date.parse(record.at) / 1000) + this.retentionSeconds },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: { ...headKey, seq: record.seq, hash: record.hash, at: record.at },
            ...(head
              ? { ConditionExpression: '#seq = :seq', ExpressionAttributeNames: { '#seq': 'seq' }, ExpressionAttributeValues: { ':seq': head.seq } }
              : { ConditionExpression: 'attribute_not_exists(PK)' }),
          },
        },
      ];
      try {
        await this.client.send(new TransactWriteCommand({ TransactItems: items }));
        return record;
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (!reasons) throw error;
        if (write && reasons[0]?.Code === 'ConditionalCheckFailed')
          throw new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
        if (attempt >= appendAttempts) throw new Error(`the audit log of workspace ${workspaceId} stayed busy through ${appendAttempts} attempts to append`);
        await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
      }
    }
  }

  /** Up to `limit` records in order of sequence from `after` (exclusive; 0: the start), or back from `before` (exclusive; undefined: the newest). */
  async readAudit(workspaceId: string, range: { after?: number; before?: number; limit: number }): Promise<AuditRecord[]> {
    const descending = range.after === undefined;
    const low = descending ? `${auditRecordPrefix}` : auditRecordSortKey(range.after! + 1);
    const high = descending && range.before !== undefined ? auditRecordSortKey(Math.max(range.before - 1, 0)) : `${auditRecordPrefix}\uffff`;
    const records: AuditRecord[] = [];
    let start: Item | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
          ExpressionAttributeValues: { ':pk': auditPartition(workspaceId), ':low': low, ':high': high },
          ScanIndexForward: !descending,
          ConsistentRead: true,
          Limit: range.limit - records.length,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) records.push(asRecord(item));
      start = page.LastEvaluatedKey;
    } while (start && records.length < range.limit);
    return records;
  }
}

const asRecord = (item: Item) => Object.fromEntries(recordFields.filter((f) => item[f] !== undefined).map((f) => [f, item[f]])) as unknown as AuditRecord;

/** The reasons of a cancelled transaction, one per item in order; undefined for any other error. */
function cancellationReasons(error: unknown): { Code?: string }[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  return (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
}
