/**
 * The record of a rule's runs: what an execution keeps (its input, answer or
 * error, version, duration, trigger, times) and the paged list of them. The
 * store keeps each for a fixed time (its README says how long).
 */
import { randomBytes } from 'node:crypto';
import { errors } from '../http/errors.ts';
import { ruleScopeOf, type EntityRef, type EntityStore, type Execution, type ExecutionStore, type RuleScope } from '../store/types.ts';

/** An answer larger than this is not kept with the execution (the caller got it whole): a page of executions must fit in a response. */
export const maxRecordedOutputBytes = 16 * 1024;

export const newExecutionId = () => `exec_${randomBytes(10).toString('hex')}`;

export interface Run {
  executionId: string;
  /** The version that ran; '' when none could (a scheduled run of a rule deleted or never published). */
  version: string;
  trigger: Execution['trigger'];
  /** A scheduled run's due time. */
  scheduledTime?: string;
  input: unknown;
  startedAt: Date;
  durationMs: number;
}

/** Why a run failed, by a stable code: an engine error, or the domain error that kept the rule from running. */
export interface RunFailure {
  code: string;
  message: string;
}

/**
 * Records a run that answered, or failed. With `once`, a run already
 * recorded under the same key is left as it is, and undefined is returned.
 */
export async function recordExecution(store: ExecutionStore, scope: RuleScope, run: Run, result: { output: unknown } | { error: RunFailure }, options: { once?: boolean } = {}) {
  const finishedAt = new Date(run.startedAt.getTime() + Math.ceil(run.durationMs)).toISOString();
  const common = {
    executionId: run.executionId,
    ruleId: scope.ruleId,
    version: run.version,
    trigger: run.trigger,
    ...(run.scheduledTime && { scheduledTime: run.scheduledTime }),
    input: run.input,
    durationMs: run.durationMs,
    startedAt: run.startedAt.toISOString(),
    finishedAt,
  };
  if ('error' in result) return store.putExecution(scope, { ...common, outcome: 'failed', error: { code: result.error.code, message: result.error.message } }, options);
  const small = Buffer.byteLength(JSON.stringify(result.output) ?? '') <= maxRecordedOutputBytes;
  return store.putExecution(scope, { ...common, outcome: 'succeeded', ...(small ? { output: result.output } : { outputOmitted: true }) }, options);
}

/** One page of a rule's executions, newest first; the rule must exist on the branch. */
export async function listExecutions(store: EntityStore & ExecutionStore, ref: EntityRef, page: { pageNo: number; pageSize: number }) {
  const [rule, { items, totalCount }] = await Promise.all([store.getEntity(ref), store.listExecutions(ruleScopeOf(ref), page, new Date().toISOString())]);
  if (!rule) throw errors.entityNotFound(ref.entityType, ref.id);
  return { data: items, paging: { ...page, totalCount } };
}
