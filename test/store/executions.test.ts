/**
 * The store's executions: kept per rule of a branch, listed newest first with
 * exact totals however deep the page, expired ones left out before DynamoDB
 * deletes them, and any JSON kept as it came; a batch's written together, in
 * BatchWriteItems of 25, what DynamoDB leaves unprocessed written again.
 */
import { beforeAll, expect, it } from 'vitest';
import { createStore, type Execution, type RuleScope, type Store } from '../../lib/store/index.ts';
import { startDynamoProxy } from '../helpers/dynamo-proxy.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('executions');
let store: Store;
const scope: RuleScope = { workspaceId: 'w', branch: 'main', ruleId: 'fee' };
const day = 24 * 3600 * 1000;
const now = Date.parse('2027-03-01T12:00:00.000Z');

const execution = (i: number, startedAt: number): Omit<Execution, 'expiresAt'> => ({
  executionId: `exec_${String(i).padStart(4, '0')}`,
  ruleId: scope.ruleId,
  version: 'v1',
  trigger: 'api',
  outcome: i % 4 ? 'succeeded' : 'failed',
  input: { i },
  ...(i % 4 ? { output: { fee: i } } : { error: { code: 'evaluation_failed', message: 'two rows' } }),
  durationMs: 0.25,
  startedAt: new Date(startedAt).toISOString(),
  finishedAt: new Date(startedAt + 1).toISOString(),
});

beforeAll(async () => {
  ({ store } = fixture);
  // 37 within the 30 days, one second apart; 3 older, expired.
  for (let i = 0; i < 40; i++) await store.putExecution(scope, execution(i, i < 3 ? now - 31 * day - i * 1000 : now - 40_000 + i * 1000));
  // Another rule's and another branch's.
  await store.putExecution({ ...scope, ruleId: 'other' }, execution(100, now));
  await store.putExecution({ ...scope, branch: 'staging' }, execution(101, now));
}, 30_000);

const listed = (pageNo: number, pageSize: number) => store.listExecutions(scope, { pageNo, pageSize }, new Date(now).toISOString());

it('keeps what was recorded, with the time it expires', async () => {
  const recorded = await store.putExecution({ ...scope, ruleId: 'kept' }, execution(7, now));
  expect(recorded?.expiresAt).toBe(new Date(now + 30 * day).toISOString());
  const { items } = await store.listExecutions({ ...scope, ruleId: 'kept' }, { pageNo: 1, pageSize: 10 }, new Date(now).toISOString());
  expect(items).toEqual([recorded]);
});

it("lists the rule's unexpired executions newest first, every page with the exact total", async () => {
  const expected = Array.from({ length: 37 }, (_, k) => `exec_${String(39 - k).padStart(4, '0')}`);
  for (const pageSize of [1, 5, 10, 37, 100]) {
    const walked: string[] = [];
    for (let pageNo = 1; pageNo <= Math.ceil(37 / pageSize) + 1; pageNo++) {
      const page = await listed(pageNo, pageSize);
      expect(page.totalCount).toBe(37);
      walked.push(...page.items.map((e) => e.executionId));
    }
    expect(walked, `pageSize ${pageSize}`).toEqual(expected);
  }
});

it("keeps any JSON, numbers beyond DynamoDB's range included", async () => {
  const odd = { ...execution(9, now), input: { big: 1e300, tiny: 5e-324, nested: [[{}]], empty: '' }, output: { list: [null, true, 'x'] } };
  await store.putExecution({ ...scope, ruleId: 'odd' }, odd);
  const [item] = (await store.listExecutions({ ...scope, ruleId: 'odd' }, { pageNo: 1, pageSize: 1 }, new Date(now).toISOString())).items;
  // As JSON text: 5e-324, below a double's normal range, comes back as a Decimal of the same digits.
  expect(JSON.stringify([item!.input, item!.output])).toBe(JSON.stringify([odd.input, odd.output]));
});

it('leaves out what has expired, as time passes', async () => {
  const later = new Date(now + 30 * day - 20_000).toISOString();
  const page = await store.listExecutions(scope, { pageNo: 1, pageSize: 100 }, later);
  // Started at now − 40 s + i s: those with i < 20 started more than 30 days before `later` (i = 20 expires at exactly `later`).
  expect(page.totalCount).toBe(20);
  expect(page.items.at(-1)!.executionId).toBe('exec_0020');
});

it("writes a batch's executions in BatchWriteItems of 25, writing again what DynamoDB leaves unprocessed", async () => {
  const batchScope = { ...scope, ruleId: 'batch' };
  const batch = Array.from({ length: 60 }, (_, i) => ({ ...execution(200 + i, now - 1000 + i), ruleId: batchScope.ruleId }));
  const sizes: number[] = [];
  let throttled = 0;
  // The first request comes back with all of its writes unprocessed, as a throttled table answers.
  const proxy = await startDynamoProxy(fixture.dynamo.endpoint, {
    answer: ({ operation, body }) => {
      if (operation !== 'BatchWriteItem') return undefined;
      const requestItems = (JSON.parse(body) as { RequestItems: Record<string, unknown[]> }).RequestItems;
      sizes.push(Object.values(requestItems)[0]!.length);
      return throttled++ === 0 ? { status: 200, body: { UnprocessedItems: requestItems } } : undefined;
    },
  });
  try {
    await createStore({ ...fixture.config, endpoint: proxy.url }).putExecutions(batchScope, batch);
  } finally {
    await proxy.close();
  }
  expect(sizes.sort((a, b) => a - b)).toEqual([10, 25, 25, 25]);
  const { items, totalCount } = await store.listExecutions(batchScope, { pageNo: 1, pageSize: 100 }, new Date(now).toISOString());
  expect(totalCount).toBe(60);
  expect(items.map((e) => e.executionId)).toEqual(batch.map((e) => e.executionId).reverse());
  expect(items[0]).toEqual({ ...batch.at(-1), expiresAt: new Date(Date.parse(batch.at(-1)!.startedAt) + 30 * day).toISOString() });
});
