/**
 * One run of a rule's schedule, as the scheduled-run function gets it from
 * EventBridge Scheduler (or the local scheduler): the rule's latest
 * published version, loaded and compiled as execute does (./load.ts through
 * `publishedVersion`), evaluated on the schedule's inputParam as of the
 * run's due time, recorded whatever came of it, and counted for the
 * version's coverage (lib/tallies/coverage-counts.ts).
 *
 * Scheduler delivers at least once and retries a run whose invocation
 * throws. So the record is keyed by the scheduled time (the execution id is
 * derived from it, and the write is conditional): a second delivery of the
 * same run records nothing new. And a run the rule cannot make (deleted,
 * never published, failing to load or to evaluate) is recorded as failed
 * with its reason and ends normally, since retrying cannot change that; only
 * a failure to read or write the store is thrown, for Scheduler's bounded
 * retries and then its dead-letter queue.
 */
import { createHash } from 'node:crypto';
import { EngineError } from '../engine/errors.ts';
import { entityIdPattern } from '../vocabulary/kinds.ts';
import { ApiError } from '../vocabulary/errors.ts';
import { logger } from '../logging/logger.ts';
import { parseScheduledRun, type ScheduledRun } from './scheduler.ts';
import { countExecution } from '../tallies/coverage-counts.ts';
import type { EntityRef, EntityStore, ExecutionStore, RuleScope, TallyStore } from '../store/types.ts';
import { isValidBranchName } from '../vocabulary/branch-name.ts';
import { workspaceIdPattern } from '../workspaces/admin.ts';
import { evaluateTimed, publishedVersion, type Evaluation } from '../rules/execute.ts';
import { recordExecution, type RunFailure } from '../rules/executions.ts';
import type { RunnableRule } from '../rules/load.ts';

/** Scheduler's form of a due time, to the second: 2026-03-30T00:30:00Z. */
const scheduledTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** Why an event cannot be a run of one of this service's schedules (it names no rule that a key could hold), or undefined. */
export function scheduledRunProblem(run: ScheduledRun): string | undefined {
  if (!workspaceIdPattern.test(run.workspaceId)) return 'workspaceId is not a workspace id';
  if (!isValidBranchName(run.branch)) return 'branch is not a branch name';
  if (!entityIdPattern.test(run.ruleId)) return 'ruleId is not a rule id';
  if (!scheduledTimePattern.test(run.scheduledTime) || !Number.isFinite(Date.parse(run.scheduledTime))) return 'scheduledTime is not an ISO 8601 time in UTC';
  return undefined;
}

/** The same for every delivery of one run: the rule's scope and the due time. */
export const scheduledExecutionId = (scope: RuleScope, scheduledTime: string) =>
  `exec_${createHash('sha256')
    .update(JSON.stringify([scope.workspaceId, scope.branch, scope.ruleId, new Date(scheduledTime).toISOString()]))
    .digest('hex')
    .slice(0, 20)}`;

export interface ScheduledRunResult {
  executionId: string;
  outcome: 'succeeded' | 'failed';
  /** False when an earlier delivery of the run had recorded it already. */
  recorded: boolean;
  error?: RunFailure;
}

/** A failure of the rule that is no fact of its state (a bug, or a stored version that cannot be read): logged, and recorded as internal. */
function unexpected(run: ScheduledRun, error: unknown, stage: 'loaded' | 'ran') {
  logger.error('scheduled run: the rule failed unexpectedly', { ruleId: run.ruleId, scheduledTime: run.scheduledTime, error: error as Error });
  return { error: { code: 'internal_error', message: `The rule failed unexpectedly while it ${stage}; the service logs have the details.` }, durationMs: 0 };
}

/**
 * Evaluates as of the due time, so that every delivery of the run gives the
 * same answer. Evaluating does no I/O, so an unexpected failure (a bug)
 * would fail every retry alike: it is recorded too, and logged.
 */
function evaluate(rule: RunnableRule, run: ScheduledRun): Evaluation | { error: RunFailure; durationMs: number } {
  try {
    return evaluateTimed(rule, run.inputParam, new Date(run.scheduledTime));
  } catch (error) {
    return unexpected(run, error, 'ran');
  }
}

/**
 * The store, remembering what its calls throw: loading a rule fails either
 * in the store, which a retry may cure, or in the rule as stored, which
 * every retry would meet alike.
 */
function watched<S extends object>(store: S) {
  const failures = new WeakSet<object>();
  const proxy = new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).catch((error: unknown) => {
          if (typeof error === 'object' && error !== null) failures.add(error);
          throw error;
        });
    },
  });
  return { store: proxy, failed: (error: unknown) => typeof error === 'object' && error !== null && failures.has(error) };
}

/** Runs and records one scheduled run; throws only when the store fails. */
export async function runScheduledRule(
  store: EntityStore & ExecutionStore & TallyStore,
  run: ScheduledRun,
  now: () => Date = () => new Date(),
): Promise<ScheduledRunResult> {
  const scope: RuleScope = { workspaceId: run.workspaceId, branch: run.branch, ruleId: run.ruleId };
  const ref: EntityRef = { workspaceId: run.workspaceId, branch: run.branch, entityType: 'rule', id: run.ruleId };
  const executionId = scheduledExecutionId(scope, run.scheduledTime);
  const startedAt = now();
  let version = '';
  let rule: RunnableRule | undefined;
  let result: Evaluation | { error: RunFailure; durationMs: number };
  const reading = watched(store);
  try {
    rule = await publishedVersion(reading.store, ref);
    version = rule.version;
    result = evaluate(rule, run);
  } catch (error) {
    if (reading.failed(error)) throw error;
    // The rule's own state (gone, never published, references that do not resolve): a fact to record, not to retry.
    result =
      error instanceof ApiError || error instanceof EngineError
        ? { error: { code: error.code, message: error.message }, durationMs: 0 }
        : unexpected(run, error, 'loaded');
  }
  const recorded = await recordExecution(
    store,
    scope,
    { executionId, version, trigger: 'schedule', scheduledTime: run.scheduledTime, input: run.inputParam, startedAt, durationMs: result.durationMs },
    result,
    { once: true },
  );
  // Once, as recorded: a second delivery of the run counts nothing either.
  if (rule && recorded) countExecution(store, scope, rule, result, startedAt);
  const failure = 'error' in result ? { code: result.error.code, message: result.error.message } : undefined;
  return { executionId, outcome: failure ? 'failed' : 'succeeded', recorded: recorded !== undefined, ...(failure && { error: failure }) };
}

/**
 * The scheduled-run function's work: the event checked, then the run. An
 * event that is not a run of one of this service's schedules names no rule
 * to record it for: it is answered with the problem (the function logs it),
 * and not thrown, since no retry could make it one.
 */
export async function handleScheduledRun(store: EntityStore & ExecutionStore & TallyStore, event: unknown): Promise<ScheduledRunResult | { problem: string }> {
  let run: ScheduledRun;
  try {
    run = parseScheduledRun(event);
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const problem = scheduledRunProblem(run);
  return problem ? { problem } : runScheduledRule(store, run);
}
