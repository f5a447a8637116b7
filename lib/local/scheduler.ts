/**
 * Rule schedules in the local runtime: the same schedules as on AWS, fired
 * in-process. It reads the expression Scheduler would be sent (not the
 * body it came from), so it runs what was deployed, on the same cron and
 * daylight-saving semantics (lib/schedules/cron.ts and zone.ts), within the start and end
 * dates, and not while disabled. Each due time calls the handler with the
 * event the Lambda function would get: the target input with Scheduler's
 * context attributes filled in.
 *
 * Unlike Scheduler: a handler that fails is logged, not retried; runs more
 * than a minute overdue (the process was suspended) are skipped, not
 * replayed. Schedules live in memory.
 */
import { parseSchedulerExpression, runTimes, type CronPlan } from '../schedules/cron.ts';
import {
  checkGroupPrefix,
  defaultGroupPrefix,
  scheduleGroupName,
  scheduleInput,
  scheduleName,
  type DeployedSchedule,
  type RuleScheduler,
  type ScheduleKey,
} from '../schedules/scheduler.ts';
import { formatUtc } from '../schedules/zone.ts';

/** One schedule as the Scheduler API carries it. */
export interface LocalScheduleEntry {
  groupName: string;
  name: string;
  expression: string;
  timezone: string;
  /** Epoch ms. */
  startDate?: number;
  endDate?: number;
  enabled: boolean;
  /** The target input, with context attributes such as <aws.scheduler.scheduled-time>. */
  input: string;
}

export interface LocalRunContext {
  scheduleArn: string;
  /** ISO 8601 UTC to the second. */
  scheduledTime: string;
}

export interface LocalSchedulerOptions {
  /** What the target is: called with the run's event (the input parsed as JSON, or the text when it is not JSON). */
  onRun: (event: unknown, context: LocalRunContext) => unknown;
  /** Called when onRun throws or rejects. Default: console.error. */
  onError?: (error: unknown, context: LocalRunContext) => void;
  groupPrefix?: string;
  /** Epoch ms now. Default Date.now (fake timers replace it in tests). */
  now?: () => number;
  region?: string;
  accountId?: string;
}

export interface LocalScheduler extends RuleScheduler {
  /** Installs or replaces a schedule as Scheduler would hold it (what the local Scheduler endpoint forwards). */
  apply(entry: LocalScheduleEntry): void;
  /** Whether there was one. */
  remove(groupName: string, name: string): boolean;
  /** The next due time of a schedule (epoch ms), if it will fire again. */
  nextRun(groupName: string, name: string): number | undefined;
  /** Resolves when no run's handler is still going. */
  idle(): Promise<void>;
  /** Stops every timer; schedules stay, but nothing fires. */
  close(): void;
}

/** setTimeout's longest delay; a later run re-arms when it ends. */
const maxDelayMs = 2 ** 31 - 1;
const overdueMs = 60_000;

interface Installed {
  entry: LocalScheduleEntry;
  plan: CronPlan;
  due?: number;
  timer?: NodeJS.Timeout;
}

export function createLocalScheduler(options: LocalSchedulerOptions): LocalScheduler {
  const now = options.now ?? Date.now;
  const prefix = checkGroupPrefix(options.groupPrefix ?? defaultGroupPrefix);
  const arnPrefix = `arn:aws:scheduler:${options.region ?? 'local'}:${options.accountId ?? '000000000000'}:schedule`;
  const onError = options.onError ?? ((error, context) => console.error(`scheduled run of ${context.scheduleArn} at ${context.scheduledTime} failed`, error));
  const schedules = new Map<string, Installed>();
  const running = new Set<Promise<unknown>>();
  let closed = false;
  const id = (groupName: string, name: string) => `${groupName}/${name}`;

  const fire = (installed: Installed, due: number) => {
    const context = { scheduleArn: `${arnPrefix}/${id(installed.entry.groupName, installed.entry.name)}`, scheduledTime: formatUtc(due) };
    const text = installed.entry.input
      .replaceAll('<aws.scheduler.scheduled-time>', context.scheduledTime)
      .replaceAll('<aws.scheduler.schedule-arn>', context.scheduleArn)
      .replaceAll('<aws.scheduler.execution-id>', `local-${due}-${Math.random().toString(16).slice(2, 10)}`)
      .replaceAll('<aws.scheduler.attempt-number>', '1');
    let event: unknown = text;
    try {
      event = JSON.parse(text);
    } catch {
      // Scheduler passes text that is not JSON as it is.
    }
    const run = (async () => options.onRun(event, context))().catch((error: unknown) => onError(error, context));
    running.add(run);
    void run.finally(() => running.delete(run));
  };

  const arm = (installed: Installed, after: number) => {
    clearTimeout(installed.timer);
    installed.timer = undefined;
    installed.due = undefined;
    if (closed || !installed.entry.enabled) return;
    const due = runTimes(installed.plan, Math.max(after, now() - overdueMs), 1)[0];
    if (due === undefined) return;
    installed.due = due;
    const wake = () => {
      const late = now() - due;
      if (late < 0) {
        installed.timer = setTimeout(wake, Math.min(-late, maxDelayMs));
        return;
      }
      fire(installed, due);
      arm(installed, due);
    };
    installed.timer = setTimeout(wake, Math.min(Math.max(due - now(), 0), maxDelayMs));
  };

  const apply = (entry: LocalScheduleEntry) => {
    const parsed = parseSchedulerExpression(entry.expression);
    if ('problem' in parsed) throw new Error(`schedule ${id(entry.groupName, entry.name)}: ${parsed.problem}`);
    const plan: CronPlan = {
      fields: parsed.fields,
      timezone: entry.timezone,
      ...(entry.startDate !== undefined && { startAt: entry.startDate }),
      ...(entry.endDate !== undefined && { endAt: entry.endDate }),
    };
    const key = id(entry.groupName, entry.name);
    clearTimeout(schedules.get(key)?.timer);
    const installed: Installed = { entry: { ...entry }, plan };
    schedules.set(key, installed);
    arm(installed, now());
  };

  const remove = (groupName: string, name: string) => {
    const installed = schedules.get(id(groupName, name));
    if (!installed) return false;
    clearTimeout(installed.timer);
    schedules.delete(id(groupName, name));
    return true;
  };

  const names = (key: ScheduleKey) => ({ groupName: scheduleGroupName(key.workspaceId, prefix), name: scheduleName(key) });

  return {
    apply,
    remove,
    nextRun: (groupName, name) => schedules.get(id(groupName, name))?.due,

    /** Groups are only names here: nothing to create. */
    async ensureGroup() {},

    async putSchedule(deployment) {
      const { groupName, name } = names(deployment.key);
      apply({
        groupName,
        name,
        expression: deployment.expression,
        timezone: deployment.timezone,
        ...(deployment.startAt !== undefined && { startDate: Date.parse(deployment.startAt) }),
        ...(deployment.endAt !== undefined && { endDate: Date.parse(deployment.endAt) }),
        enabled: deployment.enabled,
        input: scheduleInput(deployment.key, deployment.inputParam),
      });
    },

    async deleteSchedule(key) {
      const { groupName, name } = names(key);
      return remove(groupName, name);
    },

    async getSchedule(key): Promise<DeployedSchedule | undefined> {
      const { groupName, name } = names(key);
      const entry = schedules.get(id(groupName, name))?.entry;
      if (!entry) return undefined;
      return {
        groupName,
        name,
        expression: entry.expression,
        timezone: entry.timezone,
        ...(entry.startDate !== undefined && { startAt: new Date(entry.startDate).toISOString() }),
        ...(entry.endDate !== undefined && { endAt: new Date(entry.endDate).toISOString() }),
        enabled: entry.enabled,
        input: entry.input,
      };
    },

    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },

    close() {
      closed = true;
      for (const installed of schedules.values()) {
        clearTimeout(installed.timer);
        installed.timer = undefined;
        installed.due = undefined;
      }
    },
  };
}
