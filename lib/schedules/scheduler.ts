/**
 * What the rules API asks of a scheduler, whichever runs the schedules:
 * EventBridge Scheduler when deployed (aws-scheduler.ts), an in-process one
 * in the local runtime (local-scheduler.ts). One schedule per rule and
 * branch, in one schedule group per workspace; every run invokes the
 * scheduled-run function with the same event (ScheduledRun).
 *
 * Names. Scheduler takes 1-64 characters of [0-9a-zA-Z-_.] for schedule and
 * group names; ids and branch names may hold others ("feature/x") and be
 * longer. A name is derived from the ids alone, deterministically:
 *
 * - an id is escaped: letters, digits, "." and "-" stay, every other
 *   character becomes "_" and two hex digits per UTF-8 byte ("/" is "_2F");
 * - group: `<prefix>.<workspace>`, schedule: `<rule>__<branch>` ("__" never
 *   occurs in an escaped id, since "_" is always followed by a hex digit);
 * - when that is longer than 64, the name is a readable cut of the ids and
 *   the first 32 hex digits (128 bits) of the SHA-256 of the ids as JSON:
 *   group `<prefix>_<workspace cut>_<hash>` (a "_" right after the prefix),
 *   schedule `<rule cut>.<branch cut>.<hash>` (no "_" at all).
 *
 * The escaped forms are one-to-one, and the two forms of each name cannot
 * meet, so two different id sets get two different names unless 128 bits
 * of SHA-256 collide.
 */
import { createHash } from 'node:crypto';
import type { PreparedSchedule } from './spec.ts';
import { parseJson } from '../decimal/json.ts';

export interface ScheduleKey {
  workspaceId: string;
  branch: string;
  ruleId: string;
}

/** What one rule's schedule on one branch asks of the scheduler. */
export interface ScheduleDeployment {
  key: ScheduleKey;
  /** EventBridge Scheduler's cron: cron(0 9 ? * MON-FRI *). */
  expression: string;
  /** IANA name the expression is read in. */
  timezone: string;
  /** ISO 8601: no run before it. */
  startAt?: string;
  /** ISO 8601: every run before it. */
  endAt?: string;
  /** false: kept, but it does not fire (Scheduler's State DISABLED). */
  enabled: boolean;
  inputParam: Record<string, unknown>;
}

export const deploymentOf = (key: ScheduleKey, { schedule, expression }: PreparedSchedule): ScheduleDeployment => ({
  key,
  expression,
  timezone: schedule.timezone,
  ...(schedule.startAt && { startAt: schedule.startAt }),
  ...(schedule.endAt && { endAt: schedule.endAt }),
  enabled: schedule.isEnabled,
  inputParam: schedule.inputParam,
});

/** What every deployed schedule invokes, and how Scheduler retries and gives up. */
export interface ScheduleTarget {
  /** The scheduled-run Lambda function. */
  functionArn: string;
  /** The role Scheduler assumes to invoke it (lambda:InvokeFunction on functionArn, sqs:SendMessage on the dead-letter queue). */
  roleArn: string;
  /** The SQS queue that gets a run no attempt delivered. */
  deadLetterArn: string;
  /** Retries of a failed invocation: 0 to 185. Default 3. */
  maximumRetryAttempts?: number;
  /** How long a run keeps being retried, in seconds: 60 to 86 400. Default 3600. */
  maximumEventAgeSeconds?: number;
}

/** A schedule as the scheduler holds it. */
export interface DeployedSchedule {
  groupName: string;
  name: string;
  expression: string;
  timezone: string;
  /** ISO 8601 in UTC, when the scheduler has one. */
  startAt?: string;
  endAt?: string;
  enabled: boolean;
  /** The event of every run, before <aws.scheduler.scheduled-time> is replaced. */
  input: string;
  /** Where runs go (the AWS scheduler). */
  target?: Required<ScheduleTarget>;
}

export interface RuleScheduler {
  /** Creates the workspace's schedule group if it does not exist (putSchedule does it when needed). */
  ensureGroup(workspaceId: string): Promise<void>;
  /** Creates the schedule, or replaces it whole. */
  putSchedule(deployment: ScheduleDeployment): Promise<void>;
  /** Whether there was one to delete: deleting none is not an error. */
  deleteSchedule(key: ScheduleKey): Promise<boolean>;
  getSchedule(key: ScheduleKey): Promise<DeployedSchedule | undefined>;
}

/** The event each run of a schedule invokes the scheduled-run function with. */
export interface ScheduledRun {
  workspaceId: string;
  branch: string;
  ruleId: string;
  /** When the run was due, ISO 8601 in UTC to the second (2026-03-30T00:30:00Z): Scheduler's, not the invocation's. */
  scheduledTime: string;
  inputParam: Record<string, unknown>;
}

/** The context attribute Scheduler replaces with the run's due time in the target's input. */
export const scheduledTimePlaceholder = '<aws.scheduler.scheduled-time>';

/**
 * The target input of a schedule: a ScheduledRun whose scheduledTime
 * Scheduler fills in. Lambda reads the event with JSON.parse, which would
 * round a number of more digits than a double holds: inputParam holding one
 * travels as JSON text, which `parseScheduledRun` reads exactly.
 */
export function scheduleInput(key: ScheduleKey, inputParam: Record<string, unknown>): string {
  const params = JSON.stringify(inputParam);
  const exact = JSON.stringify(JSON.parse(params)) !== params;
  return JSON.stringify({
    workspaceId: key.workspaceId,
    branch: key.branch,
    ruleId: key.ruleId,
    scheduledTime: scheduledTimePlaceholder,
    inputParam: exact ? params : inputParam,
  });
}

/** The scheduled-run function's event, checked; a JSON string is parsed first, and so is inputParam given as JSON text (see `scheduleInput`). */
export function parseScheduledRun(event: unknown): ScheduledRun {
  const value = typeof event === 'string' ? (parseJson(event) as unknown) : event;
  const run = value as (Omit<Partial<ScheduledRun>, 'inputParam'> & { inputParam?: unknown }) | null;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const inputParam = typeof run?.inputParam === 'string' ? jsonText(run.inputParam) : run?.inputParam;
  if (
    !isObject(run) ||
    typeof run.workspaceId !== 'string' ||
    typeof run.branch !== 'string' ||
    typeof run.ruleId !== 'string' ||
    typeof run.scheduledTime !== 'string' ||
    !isObject(inputParam)
  )
    throw new Error('not a scheduled run: expected {workspaceId, branch, ruleId, scheduledTime, inputParam}');
  return { workspaceId: run.workspaceId, branch: run.branch, ruleId: run.ruleId, scheduledTime: run.scheduledTime, inputParam };
}

function jsonText(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

/** What a group name starts with, to tell one deployment's groups from another's (and scope IAM to them). */
export const defaultGroupPrefix = 'rules';
const prefixPattern = /^[0-9A-Za-z-]{1,20}$/;
const maxNameLength = 64;

export function checkGroupPrefix(prefix: string): string {
  if (!prefixPattern.test(prefix)) throw new Error(`schedule group prefix "${prefix}" must be 1-20 letters, digits or "-"`);
  return prefix;
}

/** The group prefix of a deployment (a stack) by its name: the name when it is one, else a readable cut of it and 8 hex digits of its hash. */
export const groupPrefixFor = (deploymentName: string): string =>
  prefixPattern.test(deploymentName) ? deploymentName : `${cut(deploymentName, 11)}-${hash(deploymentName).slice(0, 8)}`;

const escapeId = (id: string) =>
  id.replace(/[^0-9A-Za-z.-]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => `_${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
const cut = (id: string, length: number) => id.replace(/[^0-9A-Za-z-]/g, '-').slice(0, length);
const hash = (...ids: string[]) => createHash('sha256').update(JSON.stringify(ids)).digest('hex').slice(0, 32);

/** The workspace's schedule group. */
export function scheduleGroupName(workspaceId: string, prefix = defaultGroupPrefix): string {
  checkGroupPrefix(prefix);
  const direct = `${prefix}.${escapeId(workspaceId)}`;
  if (direct.length <= maxNameLength) return direct;
  return `${prefix}_${cut(workspaceId, maxNameLength - prefix.length - 2 - 32)}_${hash(workspaceId)}`;
}

/** The rule's schedule on the branch, within its workspace's group. */
export function scheduleName(key: Pick<ScheduleKey, 'branch' | 'ruleId'>): string {
  const direct = `${escapeId(key.ruleId)}__${escapeId(key.branch)}`;
  if (direct.length <= maxNameLength) return direct;
  return `${cut(key.ruleId, 20)}.${cut(key.branch, 8)}.${hash(key.ruleId, key.branch)}`;
}
