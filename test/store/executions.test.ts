/**
 * The store's executions: kept per rule of a branch, listed newest first with
 * exact totals however deep the page, expired ones left out before DynamoDB
 * deletes them, and any JSON kept as it came; a batch's written together, in
 * BatchWriteItems of 25, what DynamoDB leaves unprocessed written again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Execution, type ExecutionRange, type RuleScope, type Store } from '../../lib/store/index.ts';
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

describe("a replay's reads", () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const idsOf = async (range: ExecutionRange) => {
    const ids: string[] = [];
    let after: string | undefined;
    do {
      const page = await store.readExecutionRange(scope, range, after);
      ids.push(...page.items.map((e) => e.executionId));
      after = page.next;
    } while (after);
    return ids;
  };
  // The 37 unexpired: exec_0003 to exec_0039, one second apart, the last at now − 1 s.
  const kept = Array.from({ length: 37 }, (_, k) => `exec_${String(k + 3).padStart(4, '0')}`);

  it('cuts the newest `limit` of a window into ranges of keys, oldest first, which read back every execution once, in order', async () => {
    for (const [limit, rangeSize] of [
      [100, 10],
      [100, 37],
      [100, 1],
      [20, 7],
      [1, 5],
    ] as const) {
      const ranges = await store.splitExecutions(scope, { from: iso(now - 31 * day), to: iso(now) }, { limit, rangeSize }, iso(now));
      const expected = kept.slice(-Math.min(limit, kept.length));
      expect(ranges.map((r) => r.count)).toEqual(
        Array.from({ length: Math.ceil(expected.length / rangeSize) }, (_, i) => Math.min(rangeSize, expected.length - i * rangeSize)).reverse(),
      );
      const read: string[] = [];
      for (const range of ranges) read.push(...(await idsOf(range)));
      expect(read, `limit ${limit}, ranges of ${rangeSize}`).toEqual(expected);
    }
  });

  it('holds a window from its start, inclusive, to its end, exclusive, and leaves out what expired', async () => {
    // exec_i started at now − 40 s + i s.
    const at = (i: number) => iso(now - 40_000 + i * 1000);
    const ranges = await store.splitExecutions(scope, { from: at(10), to: at(15) }, { limit: 100, rangeSize: 100 }, iso(now));
    expect(await idsOf(ranges[0]!)).toEqual(['exec_0010', 'exec_0011', 'exec_0012', 'exec_0013', 'exec_0014']);
    // Thirty days on, those that started before now − 20 s have expired.
    const later = await store.splitExecutions(scope, { from: at(0), to: iso(now) }, { limit: 100, rangeSize: 100 }, iso(now + 30 * day - 20_000));
    expect(later.map((r) => r.count)).toEqual([20]);
    expect(await store.splitExecutions(scope, { from: at(15), to: at(15) }, { limit: 100, rangeSize: 100 }, iso(now))).toEqual([]);
    expect(await store.splitExecutions({ ...scope, ruleId: 'none' }, { from: at(0), to: iso(now) }, { limit: 100, rangeSize: 100 }, iso(now))).toEqual([]);
  });

  it('reads a range larger than a page (1 MB) a page at a time', async () => {
    const large = { ...scope, ruleId: 'large' };
    const text = 'p'.repeat(15_000);
    for (let i = 0; i < 80; i++) await store.putExecution(large, { ...execution(i, now - 100_000 + i * 10), input: { i, text } });
    const [range] = await store.splitExecutions(large, { from: iso(now - day), to: iso(now) }, { limit: 100, rangeSize: 100 }, iso(now));
    const first = await store.readExecutionRange(large, range!);
    expect(first.next).toBeDefined();
    expect(first.items.length).toBeLessThan(80);
    const second = await store.readExecutionRange(large, range!, first.next);
    expect([...first.items, ...second.items].map((e) => (e.input as { i: number }).i)).toEqual(Array.from({ length: 80 }, (_, i) => i));
    expect(second.next).toBeUndefined();
  });

  it('reads the params as recorded, and when each execution started', async () => {
    const [range] = await store.splitExecutions(scope, { from: iso(now - 40_000 + 5000), to: iso(now - 40_000 + 6000) }, { limit: 1, rangeSize: 1 }, iso(now));
    expect((await store.readExecutionRange(scope, range!)).items).toEqual([{ executionId: 'exec_0005', startedAt: iso(now - 35_000), input: { i: 5 } }]);
  });
});
