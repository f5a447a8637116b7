/**
 * The local runtime's scheduler: it fires the deployed expression at each
 * due time, with the run's event, in the schedule's time zone (Berlin's
 * changes included, at exactly the times the API showed), within start and
 * end, not while disabled, and not after a delete or close. Sequences run on
 * fake time; one test runs on real timers with a clock set just before a
 * minute, and one drives it through the Scheduler endpoint with the real
 * client, as the local runtime would.
 */
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAwsScheduler } from '../../lib/schedules/aws-scheduler.ts';
import { createLocalScheduler, type LocalRunContext, type LocalSchedulerOptions } from '../../lib/local/scheduler.ts';
import { startSchedulerEndpoint } from '../../lib/local/scheduler-endpoint.ts';
import { deploymentOf, parseScheduledRun, type ScheduleDeployment } from '../../lib/schedules/scheduler.ts';
import { parseScheduleBody, scheduleView } from '../../lib/schedules/spec.ts';

const key = { workspaceId: 'demo', branch: 'main', ruleId: 'shipping-cost' };
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

interface Fired {
  event: unknown;
  context: LocalRunContext;
  /** The clock when the handler was called. */
  at: string;
}

function recording(options: Partial<LocalSchedulerOptions> = {}) {
  const fired: Fired[] = [];
  const scheduler = createLocalScheduler({
    onRun: (event, context) => void fired.push({ event, context, at: new Date((options.now ?? Date.now)()).toISOString() }),
    ...options,
  });
  return { scheduler, fired, times: () => fired.map((f) => f.context.scheduledTime) };
}

const deployment = (changes: Partial<ScheduleDeployment> = {}): ScheduleDeployment => ({
  key,
  expression: 'cron(0/15 * * * ? *)',
  timezone: 'UTC',
  enabled: true,
  inputParam: { weight: 2 },
  ...changes,
});

/** The deployment a body gives, as the API would make it at `now`. */
function fromBody(body: unknown, now: number) {
  const result = parseScheduleBody(body, { now });
  if (!result.ok || result.isDelete) throw new Error(`refused: ${JSON.stringify(result)}`);
  return { deployment: deploymentOf(key, result.prepared), shown: scheduleView(result.prepared, now).nextRuns.map((r) => r.utc) };
}

function useFakeTime(iso: string) {
  vi.useFakeTimers({ now: Date.parse(iso), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('firing', () => {
  it('calls the handler at each due time with the event Lambda would get', async () => {
    useFakeTime('2026-03-20T10:07:00Z');
    const { scheduler, fired, times } = recording();
    await scheduler.putSchedule(deployment());
    await vi.advanceTimersByTimeAsync(hour);
    expect(times()).toEqual(['2026-03-20T10:15:00Z', '2026-03-20T10:30:00Z', '2026-03-20T10:45:00Z', '2026-03-20T11:00:00Z']);
    expect(fired.map((f) => f.at)).toEqual(['2026-03-20T10:15:00.000Z', '2026-03-20T10:30:00.000Z', '2026-03-20T10:45:00.000Z', '2026-03-20T11:00:00.000Z']);
    expect(fired[0]!.event).toEqual({ ...key, scheduledTime: '2026-03-20T10:15:00Z', inputParam: { weight: 2 } });
    expect(parseScheduledRun(fired[0]!.event)).toEqual({ ...key, scheduledTime: '2026-03-20T10:15:00Z', inputParam: { weight: 2 } });
    expect(fired[0]!.context.scheduleArn).toBe('arn:aws:scheduler:local:000000000000:schedule/rules.demo/shipping-cost__main');
    expect(scheduler.nextRun('rules.demo', 'shipping-cost__main')).toBe(Date.parse('2026-03-20T11:15:00Z'));
    scheduler.close();
  });

  it('fires at the times the API showed, across the spring change in Europe/Berlin (02:30 skipped on 29 March)', async () => {
    const start = '2026-03-27T12:00:00Z';
    useFakeTime(start);
    const { deployment: spring, shown } = fromBody({ unit: 'day', spec: { hour: '2', minute: '30' }, timezone: 'Europe/Berlin' }, Date.parse(start));
    const { scheduler, times } = recording();
    await scheduler.putSchedule(spring);
    await vi.advanceTimersByTimeAsync(4 * day);
    expect(times()).toEqual(['2026-03-28T01:30:00Z', '2026-03-30T00:30:00Z', '2026-03-31T00:30:00Z']);
    expect(times()).toEqual(shown);
    scheduler.close();
  });

  it('fires the repeated autumn times once, at the first (summer-time) occurrence', async () => {
    const start = '2026-10-24T23:45:00Z';
    useFakeTime(start);
    const { deployment: autumn, shown } = fromBody({ unit: 'minute', spec: { minute: '*/30' }, timezone: 'Europe/Berlin' }, Date.parse(start));
    const { scheduler, times } = recording();
    await scheduler.putSchedule(autumn);
    await vi.advanceTimersByTimeAsync(3 * hour);
    // 02:00 and 02:30 summer time (00:00, 00:30 UTC), then 03:00 winter time: the second 02:00 and 02:30 (01:00, 01:30 UTC) do not run.
    expect(times()).toEqual(['2026-10-25T00:00:00Z', '2026-10-25T00:30:00Z', '2026-10-25T02:00:00Z', '2026-10-25T02:30:00Z']);
    expect(times().slice(0, 3)).toEqual(shown);
    scheduler.close();
  });

  it('runs from the start date and stops before the end date', async () => {
    useFakeTime('2026-03-20T10:00:00Z');
    const { scheduler, times } = recording();
    await scheduler.putSchedule(deployment({ expression: 'cron(0 * * * ? *)', startAt: '2026-03-20T14:00:00+02:00', endAt: '2026-03-20T15:00:00Z' }));
    await vi.advanceTimersByTimeAsync(day);
    expect(times()).toEqual(['2026-03-20T12:00:00Z', '2026-03-20T13:00:00Z', '2026-03-20T14:00:00Z']);
    expect(scheduler.nextRun('rules.demo', 'shipping-cost__main')).toBeUndefined();
    scheduler.close();
  });

  it('waits past the longest timer for a run years ahead (29 February)', async () => {
    useFakeTime('2026-03-01T00:00:00Z');
    const { scheduler, times } = recording();
    await scheduler.putSchedule(deployment({ expression: 'cron(0 0 29 2 ? *)' }));
    await vi.advanceTimersByTimeAsync(Date.parse('2028-03-01T00:00:00Z') - Date.now());
    expect(times()).toEqual(['2028-02-29T00:00:00Z']);
    scheduler.close();
  });

  it('replaces a schedule put again, without firing the old one', async () => {
    useFakeTime('2026-03-20T10:07:00Z');
    const { scheduler, times } = recording();
    await scheduler.putSchedule(deployment());
    await scheduler.putSchedule(deployment({ expression: 'cron(20 * * * ? *)' }));
    await vi.advanceTimersByTimeAsync(hour);
    expect(times()).toEqual(['2026-03-20T10:20:00Z']);
    scheduler.close();
  });

  it('logs a handler that fails and goes on firing', async () => {
    useFakeTime('2026-03-20T10:07:00Z');
    const errors: [unknown, LocalRunContext][] = [];
    let calls = 0;
    const scheduler = createLocalScheduler({
      onRun: async () => {
        calls++;
        throw new Error('rule failed');
      },
      onError: (error, context) => errors.push([error, context]),
    });
    await scheduler.putSchedule(deployment());
    await vi.advanceTimersByTimeAsync(31 * minute);
    await scheduler.idle();
    expect(calls).toBe(2);
    expect(errors.map(([error, context]) => [(error as Error).message, context.scheduledTime])).toEqual([
      ['rule failed', '2026-03-20T10:15:00Z'],
      ['rule failed', '2026-03-20T10:30:00Z'],
    ]);
    scheduler.close();
  });
});

describe('enable, disable, delete', () => {
  it('a disabled schedule is kept and does not fire; enabled again, it fires', async () => {
    useFakeTime('2026-03-20T10:07:00Z');
    const { scheduler, times } = recording();
    await scheduler.putSchedule(deployment({ enabled: false }));
    await vi.advanceTimersByTimeAsync(hour);
    expect(times()).toEqual([]);
    expect(await scheduler.getSchedule(key)).toMatchObject({ enabled: false, expression: 'cron(0/15 * * * ? *)' });
    await scheduler.putSchedule(deployment({ enabled: true }));
    await vi.advanceTimersByTimeAsync(20 * minute);
    expect(times()).toEqual(['2026-03-20T11:15:00Z']);
    await scheduler.putSchedule(deployment({ enabled: false }));
    await vi.advanceTimersByTimeAsync(hour);
    expect(times()).toEqual(['2026-03-20T11:15:00Z']);
    scheduler.close();
  });

  it('a deleted schedule does not fire; deleting again is not an error; created again, it fires', async () => {
    useFakeTime('2026-03-20T10:07:00Z');
    const { scheduler, times } = recording();
    await scheduler.putSchedule(deployment());
    expect(await scheduler.deleteSchedule(key)).toBe(true);
    expect(await scheduler.deleteSchedule(key)).toBe(false);
    expect(await scheduler.getSchedule(key)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(hour);
    expect(times()).toEqual([]);
    await scheduler.putSchedule(deployment());
    await vi.advanceTimersByTimeAsync(10 * minute);
    expect(times()).toEqual(['2026-03-20T11:15:00Z']);
    scheduler.close();
  });

  it('holds what it was given, as the AWS scheduler reads it back', async () => {
    useFakeTime('2026-03-20T10:07:00Z');
    const { scheduler } = recording();
    await scheduler.putSchedule(deployment({ timezone: 'Europe/Berlin', startAt: '2026-04-01T00:00:00+02:00', endAt: '2027-01-01T00:00:00Z' }));
    expect(await scheduler.getSchedule(key)).toEqual({
      groupName: 'rules.demo',
      name: 'shipping-cost__main',
      expression: 'cron(0/15 * * * ? *)',
      timezone: 'Europe/Berlin',
      startAt: '2026-03-31T22:00:00.000Z',
      endAt: '2027-01-01T00:00:00.000Z',
      enabled: true,
      input: JSON.stringify({ ...key, scheduledTime: '<aws.scheduler.scheduled-time>', inputParam: { weight: 2 } }),
    });
    scheduler.close();
  });

  it('fires nothing after close', async () => {
    useFakeTime('2026-03-20T10:07:00Z');
    const { scheduler, times } = recording();
    await scheduler.putSchedule(deployment());
    scheduler.close();
    await scheduler.putSchedule(deployment({ expression: 'cron(* * * * ? *)' }));
    await vi.advanceTimersByTimeAsync(hour);
    expect(times()).toEqual([]);
  });

  it('refuses an expression outside the forms this service writes', async () => {
    const { scheduler } = recording();
    await expect(scheduler.putSchedule(deployment({ expression: 'rate(5 minutes)' }))).rejects.toThrow(/is not cron\(/);
    scheduler.close();
  });
});

/** A clock `ms` before a minute, so an every-minute schedule is due that soon in real time. */
function clockBeforeMinute(ms: number) {
  const boundary = (Math.floor(Date.now() / minute) + 2) * minute;
  const skew = boundary - ms - Date.now();
  return { now: () => Date.now() + skew, boundary };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('on real timers', () => {
  it('fires at the minute', async () => {
    const clock = clockBeforeMinute(300);
    const { scheduler, fired } = recording({ now: clock.now });
    await scheduler.putSchedule(deployment({ expression: 'cron(* * * * ? *)' }));
    await until(() => fired.length === 1, 'the run');
    scheduler.close();
    expect(fired[0]!.context.scheduledTime).toBe(new Date(clock.boundary).toISOString().replace('.000Z', 'Z'));
    expect(Date.parse(fired[0]!.at)).toBeGreaterThanOrEqual(clock.boundary);
  });

  it('runs what the real Scheduler client deployed through the local endpoint', async () => {
    const clock = clockBeforeMinute(1500);
    const { scheduler: local, fired } = recording({ now: clock.now });
    const endpoint = await startSchedulerEndpoint({ scheduler: local, now: clock.now });
    const client = new SchedulerClient({ endpoint: endpoint.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      const aws = createAwsScheduler({
        client,
        now: clock.now,
        target: {
          functionArn: 'arn:aws:lambda:local:000000000000:function:scheduled-run',
          roleArn: 'arn:aws:iam::000000000000:role/scheduler',
          deadLetterArn: 'arn:aws:sqs:local:000000000000:dlq',
        },
      });
      await aws.putSchedule(deployment({ expression: 'cron(* * * * ? *)', inputParam: { region: 'eu' } }));
      await until(() => fired.length === 1, 'the run');
      expect(fired[0]!.event).toEqual({ ...key, scheduledTime: new Date(clock.boundary).toISOString().replace('.000Z', 'Z'), inputParam: { region: 'eu' } });

      await aws.putSchedule(deployment({ expression: 'cron(* * * * ? *)', enabled: false }));
      expect(local.nextRun('rules.demo', 'shipping-cost__main')).toBeUndefined();
      await aws.putSchedule(deployment({ expression: 'cron(* * * * ? *)' }));
      expect(local.nextRun('rules.demo', 'shipping-cost__main')).toBe(clock.boundary + minute);
      await aws.deleteSchedule(key);
      expect(local.nextRun('rules.demo', 'shipping-cost__main')).toBeUndefined();
      expect(endpoint.requests.map((r) => r.operation)).toEqual([
        'CreateSchedule',
        'CreateScheduleGroup',
        'CreateSchedule',
        'CreateSchedule',
        'UpdateSchedule',
        'CreateSchedule',
        'UpdateSchedule',
        'DeleteSchedule',
      ]);
    } finally {
      local.close();
      client.destroy();
      await endpoint.close();
    }
  });
});
