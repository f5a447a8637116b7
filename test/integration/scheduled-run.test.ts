/**
 * The scheduled-run function (the target of every schedule), called as
 * Scheduler calls it, on the local runtime's table: a run is recorded with
 * trigger schedule, its scheduled time and its outcome; a second delivery
 * of the same run records nothing new; a rule deleted, never published or
 * failing to evaluate is recorded as failed with the reason and the
 * function returns normally; an event that is no run is dropped, not
 * thrown; only a store failure is thrown (for Scheduler's bounded retries).
 */
import type { Handler } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../lib/local/proxy-event.ts';
import { handlerOf } from '../../lib/local/server.ts';
import { runScheduledRule } from '../../lib/schedules/scheduled-run.ts';
import type { Execution, Store } from '../../lib/store/types.ts';
import { overlappingByDate, parcelFee, rulesClient } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
let rules: ReturnType<typeof rulesClient>;
let handler: Handler;
const fn = { handler: 'run-scheduled-rule' };

beforeAll(async () => {
  rules = rulesClient(t.api);
  handler = await handlerOf(fn);
});

/** A due time within the executions' 30 days: `minutesAgo` whole minutes before now. */
const dueAt = (minutesAgo: number) => new Date((Math.floor(Date.now() / 60_000) - minutesAgo) * 60_000).toISOString().replace('.000Z', 'Z');
const event = (ruleId: string, scheduledTime: string, inputParam: Record<string, unknown> = { weightKg: 3 }) => ({
  workspaceId: 'demo',
  branch: 'main',
  ruleId,
  scheduledTime,
  inputParam,
});
const deliver = (payload: unknown) => handler(payload, lambdaContext(fn), () => undefined) as Promise<Record<string, unknown>>;
/** A rule's executions, straight from the store (the API lists those of rules that exist only). */
const recorded = async (ruleId: string): Promise<Execution[]> =>
  (await t.runtime.store.listExecutions({ workspaceId: 'demo', branch: 'main', ruleId }, { pageNo: 1, pageSize: 100 }, new Date().toISOString())).items;

describe('a run', () => {
  it('runs the latest published version on inputParam and records it: trigger schedule, scheduled time, outcome', async () => {
    await rules.published(parcelFee('run-ok', { settings: {} }));
    const scheduledTime = dueAt(2);
    const result = await deliver(event('run-ok', scheduledTime));
    expect(result).toEqual({ executionId: expect.stringMatching(/^exec_[0-9a-f]{20}$/), outcome: 'succeeded', recorded: true });
    const [execution, ...others] = await recorded('run-ok');
    expect(others).toEqual([]);
    expect(execution).toEqual({
      executionId: result.executionId,
      ruleId: 'run-ok',
      version: 'v1',
      trigger: 'schedule',
      scheduledTime,
      outcome: 'succeeded',
      input: { weightKg: 3 },
      output: { fee: 8.9 },
      durationMs: expect.any(Number),
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    // Listed by the API with the rule's other executions (recorded whatever the rule's settings.recordExecutions).
    expect((await rules.executions('run-ok')).body.data).toEqual([execution]);
  });

  it('records nothing new for a second delivery of the same run', async () => {
    await rules.published(parcelFee('run-twice'));
    const scheduledTime = dueAt(3);
    const first = await deliver(event('run-twice', scheduledTime));
    const before = await recorded('run-twice');
    const second = await deliver(event('run-twice', scheduledTime));
    expect(second).toEqual({ ...first, recorded: false });
    expect(await recorded('run-twice')).toEqual(before);
    // The next due time is another run.
    expect(await deliver(event('run-twice', dueAt(2)))).toMatchObject({ recorded: true });
    expect(await recorded('run-twice')).toHaveLength(2);
  });
});

describe('a run the rule cannot make is recorded as failed, and the function returns normally', () => {
  it('a rule deleted since the schedule was saved', async () => {
    await rules.published(parcelFee('run-deleted'));
    await rules.remove('run-deleted');
    await expect(deliver(event('run-deleted', dueAt(1)))).resolves.toMatchObject({ outcome: 'failed', recorded: true, error: { code: 'entity_not_found' } });
    expect(await recorded('run-deleted')).toEqual([
      expect.objectContaining({
        trigger: 'schedule',
        version: '',
        outcome: 'failed',
        error: { code: 'entity_not_found', message: 'No rule "run-deleted" on this branch.' },
      }),
    ]);
  });

  it('a rule with no published version', async () => {
    await rules.create(parcelFee('run-draft'));
    await expect(deliver(event('run-draft', dueAt(1)))).resolves.toMatchObject({ outcome: 'failed', error: { code: 'rule_not_published' } });
    expect(await recorded('run-draft')).toEqual([
      expect.objectContaining({ version: '', outcome: 'failed', error: expect.objectContaining({ code: 'rule_not_published' }) }),
    ]);
  });

  it('inputParam that no longer fits the inputs of the latest version', async () => {
    await rules.published(parcelFee('run-params'));
    await expect(deliver(event('run-params', dueAt(1), { weightKg: 'heavy' }))).resolves.toMatchObject({
      outcome: 'failed',
      error: { code: 'invalid_params' },
    });
    expect(await recorded('run-params')).toEqual([
      expect.objectContaining({ version: 'v1', outcome: 'failed', input: { weightKg: 'heavy' }, error: expect.objectContaining({ code: 'invalid_params' }) }),
    ]);
  });

  it('a rule that cannot answer (two rows match under unique)', async () => {
    await rules.published(overlappingByDate('run-overlap'));
    await expect(deliver(event('run-overlap', dueAt(1), { day: '2025-07-01' }))).resolves.toMatchObject({
      outcome: 'failed',
      error: { code: 'evaluation_failed' },
    });
    expect((await recorded('run-overlap'))[0]).toMatchObject({
      outcome: 'failed',
      error: { code: 'evaluation_failed', message: expect.stringMatching(/row 1 \(winter\) and row 2 \(summer\)/) },
    });
  });

  it('drops an event that is not a run of a schedule, recording nothing', async () => {
    await expect(deliver({ hello: 'world' })).resolves.toEqual({ problem: expect.stringMatching(/^not a scheduled run/) });
    await expect(deliver('not json')).resolves.toEqual({ problem: expect.any(String) });
    await expect(deliver({ ...event('run-ok', dueAt(1)), ruleId: 'no/such id' })).resolves.toEqual({ problem: 'ruleId is not a rule id' });
    await expect(deliver({ ...event('run-ok', dueAt(1)), scheduledTime: 'yesterday' })).resolves.toEqual({
      problem: 'scheduledTime is not an ISO 8601 time in UTC',
    });
  });
});

describe('a store failure', () => {
  const failingStore = (failing: 'getEntityHead' | 'putExecution') =>
    new Proxy(t.runtime.store, {
      get: (store, name: keyof Store) =>
        name === failing
          ? () => Promise.reject(Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' }))
          : store[name],
    });

  it('is thrown, reading the rule or recording the run, so that Scheduler retries the run', async () => {
    await rules.published(parcelFee('run-store-down'));
    const run = event('run-store-down', dueAt(1));
    await expect(runScheduledRule(failingStore('getEntityHead'), run)).rejects.toThrow('Throughput exceeds');
    await expect(runScheduledRule(failingStore('putExecution'), run)).rejects.toThrow('Throughput exceeds');
    expect(await recorded('run-store-down')).toEqual([]);
    // The retry, once the store answers, records the run.
    expect(await runScheduledRule(t.runtime.store, run)).toMatchObject({ outcome: 'succeeded', recorded: true });
  });
});
