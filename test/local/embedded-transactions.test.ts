/**
 * TransactWriteItems on the embedded DynamoDB, through the SDK the service
 * uses. Every assertion is one real DynamoDB also holds to, so that code
 * written for it behaves the same here: all or nothing, cancellation reasons
 * in order, idempotent retries, and no request seeing a transaction half done.
 */
import { randomUUID } from 'node:crypto';
import { IdempotentParameterMismatchException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLocalTable, type LocalTable } from '../../lib/local/embedded-dynamo.ts';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import { ensureTable } from '../../lib/store/dynamo/create-table.ts';

let dynamo: LocalTable;
let client: DynamoDBDocumentClient;
let TableName: string;

beforeAll(async () => {
  dynamo = await openLocalTable('transactions');
  const config = { tableName: dynamo.tableName, endpoint: dynamo.endpoint };
  await ensureTable(config);
  client = createDocumentClient(config);
  TableName = config.tableName;
});
afterAll(async () => {
  client?.destroy();
  await dynamo?.close();
});

type Item = Record<string, unknown> & { PK: string; SK: string };
type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

const key = (PK: string, SK: string) => ({ PK, SK });
const put = (item: Item) => client.send(new PutCommand({ TableName, Item: item }));
const get = async (PK: string, SK: string) => (await client.send(new GetCommand({ TableName, Key: key(PK, SK), ConsistentRead: true }))).Item;
const transact = (TransactItems: TransactItems, ClientRequestToken?: string) => client.send(new TransactWriteCommand({ TransactItems, ClientRequestToken }));
const items = async (PK: string) =>
  (await client.send(new QueryCommand({ TableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PK }, ConsistentRead: true })))
    .Items;

/** The error a call failed with (it must fail). */
async function failure(call: Promise<unknown>): Promise<Error> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  if (!outcome) throw new Error('The call succeeded.');
  return outcome;
}

async function cancellation(call: Promise<unknown>): Promise<TransactionCanceledException> {
  const error = await failure(call);
  expect(error).toBeInstanceOf(TransactionCanceledException);
  return error as TransactionCanceledException;
}

it('applies a Put, an Update, a Delete and a ConditionCheck together', async () => {
  await put({ PK: 'all', SK: 'updated', n: 1 });
  await put({ PK: 'all', SK: 'deleted' });
  await put({ PK: 'all', SK: 'checked', state: 'open' });
  await transact([
    { Put: { TableName, Item: { PK: 'all', SK: 'put', n: 7 }, ConditionExpression: 'attribute_not_exists(PK)' } },
    {
      Update: {
        TableName,
        Key: key('all', 'updated'),
        UpdateExpression: 'SET n = n + :one',
        ConditionExpression: 'n = :n',
        ExpressionAttributeValues: { ':one': 1, ':n': 1 },
      },
    },
    { Delete: { TableName, Key: key('all', 'deleted'), ConditionExpression: 'attribute_exists(PK)' } },
    {
      ConditionCheck: {
        TableName,
        Key: key('all', 'checked'),
        ConditionExpression: '#s = :open',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':open': 'open' },
      },
    },
    // A check that an item is absent leaves it absent.
    { ConditionCheck: { TableName, Key: key('all', 'absent'), ConditionExpression: 'attribute_not_exists(PK)' } },
  ]);
  expect(await items('all')).toEqual([
    { PK: 'all', SK: 'checked', state: 'open' },
    { PK: 'all', SK: 'put', n: 7 },
    { PK: 'all', SK: 'updated', n: 2 },
  ]);
});

it('changes nothing, index included, when the second of three conditions fails, and gives a reason per item in order', async () => {
  const indexed = (n: number) => ({ GSI1PK: 'rollback', GSI1SK: `k${n}` });
  await put({ PK: 'rollback', SK: 'updated', v: 1, ...indexed(1) });
  await put({ PK: 'rollback', SK: 'deleted', v: 1, ...indexed(2) });
  const before = await items('rollback');
  const byIndex = async () =>
    (
      await client.send(
        new QueryCommand({ TableName, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': 'rollback' } }),
      )
    ).Items?.map((item) => item.SK);
  // The index is eventually consistent on DynamoDB: it is read once it shows both items.
  await expect.poll(byIndex, { timeout: 5_000 }).toEqual(['updated', 'deleted']);

  const error = await cancellation(
    transact([
      { Put: { TableName, Item: { PK: 'rollback', SK: 'new', ...indexed(0) } } },
      {
        Update: {
          TableName,
          Key: key('rollback', 'updated'),
          UpdateExpression: 'SET GSI1SK = :k',
          ConditionExpression: 'v = :two',
          ExpressionAttributeValues: { ':k': 'k9', ':two': 2 },
        },
      },
      { Delete: { TableName, Key: key('rollback', 'deleted') } },
    ]),
  );
  expect(error.CancellationReasons).toEqual([
    { Code: 'None' },
    { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
    { Code: 'None' },
  ]);
  expect(error.message).toBe('Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, None]');
  expect(await items('rollback')).toEqual(before);
  expect(await byIndex()).toEqual(['updated', 'deleted']);
});

it('reports every failed condition, and the item as it is where ReturnValuesOnConditionCheckFailure asks for it', async () => {
  await put({ PK: 'reasons', SK: 'a', v: 1 });
  await put({ PK: 'reasons', SK: 'b', v: 1 });
  const failed = { ConditionExpression: 'v = :two', ExpressionAttributeValues: { ':two': 2 } };
  const error = await cancellation(
    transact([
      { ConditionCheck: { TableName, Key: key('reasons', 'a'), ...failed, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
      { Delete: { TableName, Key: key('reasons', 'b'), ...failed } },
      { Put: { TableName, Item: { PK: 'reasons', SK: 'c' }, ConditionExpression: 'attribute_exists(PK)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
      { Update: { TableName, Key: key('reasons', 'd'), UpdateExpression: 'SET v = :one', ExpressionAttributeValues: { ':one': 1 } } },
    ]),
  );
  const conditionFailed = { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' };
  // The item comes as DynamoDB sends it: the document client converts results, not errors.
  expect(error.CancellationReasons).toEqual([
    { ...conditionFailed, Item: { PK: { S: 'reasons' }, SK: { S: 'a' }, v: { N: '1' } } },
    conditionFailed,
    conditionFailed,
    { Code: 'None' },
  ]);
  expect(await items('reasons')).toEqual([
    { PK: 'reasons', SK: 'a', v: 1 },
    { PK: 'reasons', SK: 'b', v: 1 },
  ]);
});

it('refuses two operations on one item, an empty key, and more than 100 items, before applying any', async () => {
  const duplicate = await failure(
    transact([
      { Put: { TableName, Item: { PK: 'refused', SK: 'a' } } },
      { ConditionCheck: { TableName, Key: key('refused', 'a'), ConditionExpression: 'attribute_not_exists(PK)' } },
    ]),
  );
  expect(duplicate.name).toBe('ValidationException');
  expect(duplicate.message).toMatch(/multiple operations on one item/);

  const emptyKey = await failure(transact([{ Put: { TableName, Item: { PK: 'refused', SK: 'a' } } }, { Delete: { TableName, Key: key('refused', '') } }]));
  expect(emptyKey.name).toBe('ValidationException');

  const many = (count: number): TransactItems =>
    Array.from({ length: count }, (_, i) => ({ Put: { TableName, Item: { PK: `refused-${count}`, SK: `${i}` } } }));
  expect((await failure(transact(many(101)))).name).toBe('ValidationException');
  expect(await items('refused-101')).toEqual([]);
  expect(await items('refused')).toEqual([]);
  await transact(many(100));
  expect(await items('refused-100')).toHaveLength(100);
});

it('applies a transaction once however often it is sent with the same token, and refuses the token for another', async () => {
  const token = randomUUID();
  const once: TransactItems = [
    { Update: { TableName, Key: key('token', 'counter'), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
    { Put: { TableName, Item: { PK: 'token', SK: 'created' }, ConditionExpression: 'attribute_not_exists(PK)' } },
  ];
  await transact(once, token);
  // The repeat answers success although its Put's condition no longer holds: it is not applied again.
  await transact(once, token);
  expect(await get('token', 'counter')).toEqual({ PK: 'token', SK: 'counter', n: 1 });

  const other: TransactItems = [
    { Update: { TableName, Key: key('token', 'counter'), UpdateExpression: 'ADD n :two', ExpressionAttributeValues: { ':two': 2 } } },
  ];
  expect(await failure(transact(other, token))).toBeInstanceOf(IdempotentParameterMismatchException);
  expect(await get('token', 'counter')).toEqual({ PK: 'token', SK: 'counter', n: 1 });
  // Without a token of its own choosing the SDK sends a new one each call: each applies.
  await transact(other);
  await transact(other);
  expect(await get('token', 'counter')).toEqual({ PK: 'token', SK: 'counter', n: 5 });
});

it('loses no transaction and applies none half when 20 move one counter at once', async () => {
  const writers = 20;
  await put({ PK: 'race', SK: 'counter', n: 0 });
  const deadline = Date.now() + 10_000;
  const write = async (writer: number) => {
    for (let attempt = 0; attempt < 200 && Date.now() < deadline; attempt++) {
      const { n } = (await get('race', 'counter')) as { n: number };
      try {
        await transact([
          {
            Update: {
              TableName,
              Key: key('race', 'counter'),
              UpdateExpression: 'SET n = :next',
              ConditionExpression: 'n = :n',
              ExpressionAttributeValues: { ':n': n, ':next': n + 1 },
            },
          },
          { Put: { TableName, Item: { PK: 'race', SK: `appended-${writer}`, seq: n + 1 }, ConditionExpression: 'attribute_not_exists(PK)' } },
        ]);
        return;
      } catch (error) {
        // Another writer moved the counter first (on DynamoDB, or was moving it: TransactionConflict): read it again.
        if (!(error instanceof TransactionCanceledException)) throw error;
      }
    }
    throw new Error(`Writer ${writer} never got its transaction through.`);
  };
  await Promise.all(Array.from({ length: writers }, (_, writer) => write(writer)));
  const stored = (await items('race')) as Item[];
  const appended = stored.filter((item) => item.SK.startsWith('appended-'));
  expect(stored.find((item) => item.SK === 'counter')?.n).toBe(writers);
  expect(appended.map((item) => item.seq).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: writers }, (_, i) => i + 1));
}, 30_000);

it('never shows a read the write of a transaction that was cancelled', async () => {
  await put({ PK: 'isolated', SK: 'read', v: 'committed' });
  await put({ PK: 'isolated', SK: 'guard' });
  let reading = true;
  const seen = new Set<unknown>();
  const reads = (async () => {
    for (let i = 0; reading && i < 5_000; i++) seen.add((await get('isolated', 'read'))?.v);
  })();
  for (let round = 0; round < 100; round++)
    await cancellation(
      transact([
        { Put: { TableName, Item: { PK: 'isolated', SK: 'read', v: `cancelled-${round}` } } },
        { ConditionCheck: { TableName, Key: key('isolated', 'guard'), ConditionExpression: 'attribute_not_exists(PK)' } },
      ]),
    );
  reading = false;
  await reads;
  expect([...seen]).toEqual(['committed']);
}, 30_000);

// Two GetItems may see a transaction land between them (and on DynamoDB, one item's part of it land before the other's):
// only a transactional read sees both items at one point.
it('never shows a transactional read one of two items a transaction writes together without the other', async () => {
  await put({ PK: 'pair', SK: 'a', v: 0 });
  await put({ PK: 'pair', SK: 'b', v: 0 });
  let writing = true;
  const mismatches: unknown[] = [];
  let pairsRead = 0;
  const reads = (async () => {
    for (let i = 0; writing && i < 5_000; i++) {
      try {
        const { Responses } = await client.send(
          new TransactGetCommand({ TransactItems: [{ Get: { TableName, Key: key('pair', 'a') } }, { Get: { TableName, Key: key('pair', 'b') } }] }),
        );
        const [a, b] = (Responses ?? []).map((response) => response.Item?.v);
        pairsRead++;
        if (a !== b) mismatches.push([a, b]);
      } catch (error) {
        // On DynamoDB a read that meets a transaction in flight is cancelled (TransactionConflict), and read again.
        if (!(error instanceof TransactionCanceledException)) throw error;
      }
    }
  })();
  for (let v = 1; v <= 100; v++)
    await transact(
      ['a', 'b'].map((SK) => ({
        Update: {
          TableName,
          Key: key('pair', SK),
          UpdateExpression: 'SET v = :v',
          ConditionExpression: 'v = :previous',
          ExpressionAttributeValues: { ':v': v, ':previous': v - 1 },
        },
      })),
    );
  writing = false;
  await reads;
  expect(mismatches).toEqual([]);
  expect(pairsRead).toBeGreaterThan(0);
  expect([await get('pair', 'a'), await get('pair', 'b')].map((item) => item?.v)).toEqual([100, 100]);
}, 30_000);

it('cancels on an item its data or key makes invalid, with a ValidationError reason, and applies nothing', async () => {
  await put({ PK: 'invalid', SK: 'text', n: 'not a number' });
  const error = await cancellation(
    transact([
      { Put: { TableName, Item: { PK: 'invalid', SK: 'new' } } },
      { Update: { TableName, Key: key('invalid', 'text'), UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': 1 } } },
      { Delete: { TableName, Key: { PK: 'invalid', SK: 5 } } },
    ]),
  );
  expect(error.CancellationReasons?.map((reason) => reason.Code)).toEqual(['None', 'ValidationError', 'ValidationError']);
  expect(error.CancellationReasons?.[2]?.Message).toBe('The provided key element does not match the schema');
  expect(await items('invalid')).toEqual([{ PK: 'invalid', SK: 'text', n: 'not a number' }]);
});
