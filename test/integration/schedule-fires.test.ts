/**
 * A schedule saved through the API fires in the local runtime and its run
 * is recorded, end to end: the save function sends it with the real
 * Scheduler client to the runtime's Scheduler endpoint, the local scheduler
 * fires it at its due time, and the scheduled-run function records the run.
 * The scheduler's clock is set 1.5 s before a minute when the schedule is
 * saved, so the every-minute schedule fires within seconds, not a minute.
 */
import { describe, expect, it } from 'vitest';
import type { Execution } from '../../lib/store/types.ts';
import { expectSuccess } from '../helpers/envelope.ts';
import { parcelFee, rulesClient } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';

const minute = 60_000;
/** What the scheduler's clock is ahead of the real one. */
let skew = 0;
const t = useRuntime({ schedulerNow: () => Date.now() + skew });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a schedule through the local runtime', () => {
  it('fires at its due time, and its run is recorded with the due time, the params and the answer', async () => {
    const rules = rulesClient(t.api);
    await rules.published(parcelFee('fires'));
    const due = (Math.floor(Date.now() / minute) + 2) * minute;
    skew = due - 1500 - Date.now();
    const saved = await t.api<{ nextRuns: { utc: string }[] }>('/dev/v1/rule/fires/schedule', {
      method: 'POST',
      body: JSON.stringify({ unit: 'minute', inputParam: { weightKg: 1 } }),
    });
    expectSuccess(saved);
    const scheduledTime = new Date(due).toISOString().replace('.000Z', 'Z');
    expect(t.runtime.scheduler.local.nextRun('rules.demo', 'fires__main')).toBe(due);

    const executions = await until(
      async () => (await rules.executions('fires')).body.data as Execution[],
      (items) => items.length > 0,
      'the scheduled run',
    );
    expect(executions).toEqual([
      expect.objectContaining({ trigger: 'schedule', scheduledTime, version: 'v1', outcome: 'succeeded', input: { weightKg: 1 }, output: { fee: 4.9 } }),
    ]);
    await t.runtime.scheduler.local.idle();
  }, 20_000);
});
