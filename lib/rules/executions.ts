/**
 * The record of a rule's runs: what an execution keeps (its input, answer or
 * error, version, duration, trigger, times) and the paged list of them. The
 * store keeps each for a fixed time (its README says how long).
 */
import { randomBytes } from 'node:crypto';
import type { EngineError } from '../engine/index.ts';
import { errors } from '../http/errors.ts';
import type { EntityRef, EntityStore, Execution, ExecutionStore, RuleScope } from '../store/types.ts';

/** An answer larger than this is not kept with the execution (the caller got it whole): a page of executions must fit in a response. */
export const maxRecordedOutputBytes = 16 * 1024;

export const newExecutionId = () => `exec_${randomBytes(10).toString('hex')}`;

export interface Run {
  executionId: string;
  version: string;
  trigger: Execution['trigger'];
  input: unknown;
  startedAt: Date;
  durationMs: number;
}

/** Records a run that answered, or failed with an engine error. */
export async function recordExecution(store: ExecutionStore, scope: RuleScope, run: Run, result: { output: unknown } | { error: EngineError }) {
  const finishedAt = new Date(run.startedAt.getTime() + Math.ceil(run.durationMs)).toISOString();
  const common = {
    executionId: run.executionId,
    ruleId: scope.ruleId,
    version: run.version,
    trigger: run.trigger,
    input: run.input,
    durationMs: run.durationMs,
    startedAt: run.startedAt.toISOString(),
    finishedAt,
  };
  if ('error' in result) return store.putExecution(scope, { ...common, outcome: 'failed', error: { code: result.error.code, message: result.error.message } });
  const small = Buffer.byteLength(JSON.stringify(result.output) ?? '') <= maxRecordedOutputBytes;
  return store.putExecution(scope, { ...common, outcome: 'succeeded', ...(small ? { output: result.output } : { outputOmitted: true }) });
}

export const ruleScopeOf = (ref: EntityRef): RuleScope => ({ workspaceId: ref.workspaceId, branch: ref.branch, ruleId: ref.id });

/** One page of a rule's executions, newest first; the rule must exist on the branch. */
export async function listExecutions(store: EntityStore & ExecutionStore, ref: EntityRef, page: { pageNo: number; pageSize: number }) {
  const [rule, { items, totalCount }] = await Promise.all([store.getEntity(ref), store.listExecutions(ruleScopeOf(ref), page, new Date().toISOString())]);
  if (!rule) throw errors.entityNotFound(ref.entityType, ref.id);
  return { data: items, paging: { ...page, totalCount } };
}
