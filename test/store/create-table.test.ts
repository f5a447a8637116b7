/** The table is made once and handed over only when it takes writes: a new table is CREATING at first, and a write then is refused. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLocalTable, type LocalTable } from '../../lib/local/embedded-dynamo.ts';
import { ensureTable } from '../../lib/store/dynamo/create-table.ts';
import { createStore } from '../../lib/store/index.ts';
import { startDynamoProxy } from '../helpers/dynamo-proxy.ts';

let dynamo: LocalTable;
beforeAll(async () => {
  dynamo = await openLocalTable('create-table');
});
afterAll(() => dynamo?.close());

it('waits until a new table is active, and makes it only once', async () => {
  const seen = { creates: 0, describesAfterCreate: 0 };
  // The first three descriptions after the create say what a slow DynamoDB says: still being made.
  const proxy = await startDynamoProxy(dynamo.endpoint, {
    answer: ({ operation }) => {
      if (operation === 'CreateTable') seen.creates++;
      if (operation !== 'DescribeTable' || seen.creates === 0) return undefined;
      return ++seen.describesAfterCreate <= 3 ? { status: 200, body: { Table: { TableName: dynamo.tableName, TableStatus: 'CREATING' } } } : undefined;
    },
  });
  try {
    const config = { tableName: dynamo.tableName, endpoint: proxy.url };
    await ensureTable(config);
    expect(seen).toEqual({ creates: 1, describesAfterCreate: 4 });
    await createStore(config).createWorkspace({ id: 'w', name: 'W', defaultBranch: 'main', createdAt: new Date().toISOString() });
    await ensureTable(config);
    expect(seen.creates).toBe(1);
  } finally {
    await proxy.close();
  }
});
