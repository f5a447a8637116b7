/**
 * The store's executions: kept per rule of a branch, listed newest first with
 * exact totals however deep the page, expired ones left out before DynamoDB
 * deletes them, and any JSON kept as it came.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Execution, RuleScope, Store } from '../../lib/store/index.ts';
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
