/**
 * The record of a rule's (or a workflow's) runs: what an execution keeps (its
 * input, answer or error, version, duration, trigger, times, and a workflow's
 * steps) and the paged list of them. The store keeps each for a fixed time
 * (its README says how long).
 */
import { randomBytes } from 'node:crypto';
import { errors } from '../vocabulary/errors.ts';
import {
  executionScopeOf,
  type EntityRef,
  type EntityStore,
  type Execution,
  type ExecutionScope,
  type ExecutionStore,
  type StepRecord,
} from '../store/types.ts';

/** An answer larger than this is not kept with the execution (the caller got it whole): a page of executions must fit in a response. */
export const maxRecordedOutputBytes = 16 * 1024;

/** Random bytes for execution ids, drawn 4 KiB at a time: a call into the random source costs about ten times a batch input's evaluation. */
let idPool = Buffer.alloc(0);
let idPoolUsed = 0;

export function newExecutionId(): string {
  if (idPoolUsed + 10 > idPool.length) {
    idPool = randomBytes(4096);
    idPoolUsed = 0;
  }
  const id = idPool.toString('hex', idPoolUsed, idPoolUsed + 10);
  idPoolUsed += 10;
  return `exec_${id}`;
}

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
  /** A workflow run's steps. */
  steps?: StepRecord[];
}

/** Why a run failed, by a stable code: an engine error, or the domain error that kept the rule from running. */
export interface RunFailure {
  code: string;
  message: string;
}

/** What ended a run: its answer, or why it failed. */
export type RunResult = { output: unknown } | { error: RunFailure };

/** The record a run leaves: its answer kept unless it is larger than a record keeps. */
function executionOf(scope: ExecutionScope, run: Run, result: RunResult): Omit<Execution, 'expiresAt'> {
  const finishedAt = new Date(run.startedAt.getTime() + Math.ceil(run.durationMs)).toISOString();
  const common = {
    executionId: run.executionId,
    ...('workflowId' in scope ? { workflowId: scope.workflowId } : { ruleId: scope.ruleId }),
    version: run.version,
    trigger: run.trigger,
    ...(run.scheduledTime && { scheduledTime: run.scheduledTime }),
    input: run.input,
    ...(run.steps && { steps: keptSteps(run.steps) }),
    durationMs: run.durationMs,
    startedAt: run.startedAt.toISOString(),
    finishedAt,
  };
  if ('error' in result) return { ...common, outcome: 'failed', error: { code: result.error.code, message: result.error.message } };
  const small = Buffer.byteLength(JSON.stringify(result.output) ?? '') <= maxRecordedOutputBytes;
  return { ...common, outcome: 'succeeded', ...(small ? { output: result.output } : { outputOmitted: true }) };
}

/**
 * Records a run that answered, or failed. With `once`, a run already
 * recorded under the same key is left as it is, and undefined is returned.
 */
export const recordExecution = (store: ExecutionStore, scope: ExecutionScope, run: Run, result: RunResult, options: { once?: boolean } = {}) =>
  store.putExecution(scope, executionOf(scope, run, result), options);

/** Records the runs of a batch, one record each, as `recordExecution` would record each alone. */
export const recordExecutions = (store: ExecutionStore, scope: ExecutionScope, runs: readonly { run: Run; result: RunResult }[]) =>
  store.putExecutions(
    scope,
    runs.map(({ run, result }) => executionOf(scope, run, result)),
  );

/** A workflow's steps without what each gave: what a record keeps when the outputs would make it too large. */
export const withoutOutputs = <S extends StepRecord>(steps: S[]): Omit<S, 'output'>[] => steps.map(({ output: _output, ...step }) => step);

/** A workflow's steps as kept: their outputs too, unless together they are larger than an answer is kept. */
const keptSteps = (steps: StepRecord[]): StepRecord[] => (Buffer.byteLength(JSON.stringify(steps)) <= maxRecordedOutputBytes ? steps : withoutOutputs(steps));

/** One page of a rule's (or workflow's) executions, newest first; it must exist on the branch. */
export async function listExecutions(store: EntityStore & ExecutionStore, ref: EntityRef, page: { pageNo: number; pageSize: number }) {
  const [entity, { items, totalCount }] = await Promise.all([
    store.getEntity(ref),
    store.listExecutions(executionScopeOf(ref), page, new Date().toISOString()),
  ]);
  if (!entity) throw errors.entityNotFound(ref.entityType, ref.id);
  return { data: items, paging: { ...page, totalCount } };
}
