/**
 * Running workflows through the API: test the draft (or a named version),
 * execute the latest published version (or a named one), try one step. A run
 * answers with every step's record, and says which step failed and why when
 * one did: a failed run is an answer, not an error (it happened, and is
 * recorded when the workflow asks for it). What the run calls out to is given
 * by the caller: how rules are loaded (a test runs rule drafts, an execution
 * published versions) and how API requests are sent (lib/integrations). An
 * execution's rule steps count for the rules' coverage (lib/coverage).
 */
import { performance } from 'node:perf_hooks';
import { evaluateRule } from '../engine/index.ts';
import { errors } from '../vocabulary/errors.ts';
import { elapsedSince, publishedVersion } from '../rules/execute.ts';
import { newExecutionId, recordExecution } from '../rules/executions.ts';
import type { RunnableRule } from '../rules/load.ts';
import { evaluateCounted } from '../tallies/coverage-counts.ts';
import { executionScopeOf, ruleScopeOf, type EntityRef, type EntityStore, type ExecutionStore, type StoredEntity, type TallyStore } from '../store/types.ts';
import type { CallApi } from '../integrations/api-call.ts';
import { workflowLimits } from '../entities/workflow-limits.ts';
import { publishedWorkflow, type RunnableWorkflow } from './load.ts';
import { runStep, runWorkflow, type WorkflowRun, type WorkflowServices } from './runner.ts';

/** Loads the rule a step runs: the id, and the version the step pins, if it does. */
export type LoadRule = (ruleId: string, version: string | undefined) => Promise<RunnableRule>;

export interface RunDeps {
  store: EntityStore & ExecutionStore & TallyStore;
  /** Sends a step's API request for the workspace the run is in. */
  callApi: CallApi;
}

/** What a run answers: the run (status, output or error, every step) with its id, version and time. */
export type RunAnswer = WorkflowRun & { executionId: string; version: string; durationMs: number };

/** Rules as a published workflow sees them: their latest published version, or the one a step pins. */
export const publishedRules =
  (store: EntityStore, ref: EntityRef): LoadRule =>
  (ruleId, version) =>
    publishedVersion(store, { ...ref, entityType: 'rule', id: ruleId }, version);

/** `counted`: the workflow whose run this is, when its rule steps count for the rules' coverage (an execution's, not a test's). */
function services(deps: RunDeps, loadRule: LoadRule, counted?: EntityRef): WorkflowServices {
  return {
    runRule: async (ruleId, version, params) => {
      const rule = await loadRule(ruleId, version);
      return counted ? evaluateCounted(deps.store, { ...ruleScopeOf(counted), ruleId }, rule, params) : evaluateRule(rule.rule, params).output;
    },
    callApi: deps.callApi,
  };
}

/** A synchronous run answers within API Gateway's 29 s, whatever the definition allows. */
const syncTimeout = (workflow: RunnableWorkflow) => Math.min(workflow.workflow.definition.timeoutMs, workflowLimits.maxSyncTimeoutMs);

/**
 * Runs a compiled workflow on `params` and, when `record` says so, records
 * the run under its id before answering.
 */
export async function runAndRecord(
  deps: RunDeps,
  ref: EntityRef,
  workflow: RunnableWorkflow,
  params: Record<string, unknown>,
  options: { loadRule: LoadRule; timeoutMs: number; record: boolean; executionId?: string; counted?: boolean },
): Promise<RunAnswer> {
  const executionId = options.executionId ?? newExecutionId();
  const startedAt = new Date();
  const start = performance.now();
  const run = await runWorkflow(workflow.workflow, params, services(deps, options.loadRule, options.counted ? ref : undefined), {
    timeoutMs: options.timeoutMs,
  });
  const answer: RunAnswer = { ...run, executionId, version: workflow.version, durationMs: elapsedSince(start) };
  if (options.record) {
    const result =
      run.status === 'succeeded' ? { output: run.output } : { error: { code: 'step_failed', message: `${run.error!.stepId}: ${run.error!.message}` } };
    await recordExecution(
      deps.store,
      executionScopeOf(ref),
      { executionId, version: workflow.version, trigger: 'api', input: params, startedAt, durationMs: answer.durationMs, steps: run.steps },
      result,
    );
  }
  return answer;
}

/** Of each workflow run here before, the rules its steps run unpinned: read with the workflow's own head next time, in one request. */
const rulesRunBy = new Map<string, string[]>();
const rulesRunByLimit = 1_000;

const unpinnedRules = (workflow: RunnableWorkflow) => [
  ...new Set(workflow.workflow.definition.steps.flatMap((step) => (step.kind === 'rule' && step.version === undefined ? [step.ruleId] : []))),
];

/**
 * The published workflow, and its rules as a run sees them: the workflow's
 * head and the heads of the rules it ran last time are read in one request,
 * so that a warm run of an unchanged workflow makes one read before its steps
 * (a rule its version no longer runs is read when a step needs it). Every
 * rule runs at the version that was its latest when the run began.
 */
export async function publishedWithRules(store: EntityStore, ref: EntityRef, version: string | undefined) {
  const key = [ref.workspaceId, ref.branch, ref.id].join('\u0000');
  const guessed = (rulesRunBy.get(key) ?? []).slice(0, 99);
  const ruleRef = (id: string): EntityRef => ({ ...ref, entityType: 'rule', id });
  const [head, ...ruleHeads] = await store.getEntityHeads([ref, ...guessed.map(ruleRef)]);
  if (!head) throw errors.entityNotFound(ref.entityType, ref.id);
  const workflow = await publishedWorkflow(store, ref, version, head);
  const rules = unpinnedRules(workflow);
  if (rules.join('\u0000') !== guessed.join('\u0000')) {
    if (rulesRunBy.size >= rulesRunByLimit) rulesRunBy.clear();
    rulesRunBy.set(key, rules);
  }
  const heads = new Map(guessed.map((id, i) => [id, ruleHeads[i]]));
  const loadRule: LoadRule = (ruleId, pinned) => {
    const known = pinned === undefined && heads.has(ruleId);
    if (known && !heads.get(ruleId)) throw errors.entityNotFound('rule', ruleId);
    return publishedVersion(store, ruleRef(ruleId), pinned, known ? heads.get(ruleId) : undefined);
  };
  return { workflow, loadRule };
}

/**
 * Runs the latest published version, or the named one, within the
 * synchronous bound; recorded when the workflow's settings ask for it.
 *
 * @example
 * await executeWorkflow(deps, ref, { params: { order: { total: 120 } } });
 * // { status: 'succeeded', output: { fee: 10 }, steps: [...], executionId: 'exec_…', version: 'v3', durationMs: 41.2 }
 */
export async function executeWorkflow(deps: RunDeps, ref: EntityRef, request: { params: Record<string, unknown>; version?: string }): Promise<RunAnswer> {
  const { workflow, loadRule } = await publishedWithRules(deps.store, ref, request.version);
  return runAndRecord(deps, ref, workflow, request.params, { loadRule, timeoutMs: syncTimeout(workflow), record: workflow.recordExecutions, counted: true });
}

/**
 * Tries the draft as compiled by `compileDraft` (or a named published
 * version) on `params`; nothing is recorded. With `checksum`, refuses (409)
 * when the draft is no longer what the caller last read.
 */
export async function testWorkflow(
  deps: RunDeps,
  ref: EntityRef,
  request: { params: Record<string, unknown>; version?: string; checksum?: string },
  drafts: { compileDraft: (draft: StoredEntity) => RunnableWorkflow; loadRule: LoadRule },
): Promise<RunAnswer> {
  const workflow = await chosenVersion(deps.store, ref, request.version, drafts.compileDraft);
  if (request.checksum !== undefined && request.checksum !== workflow.checksum) throw errors.checksumMismatch(ref.entityType, ref.id);
  return runAndRecord(deps, ref, workflow, request.params, { loadRule: drafts.loadRule, timeoutMs: syncTimeout(workflow), record: false });
}

async function chosenVersion(store: EntityStore, ref: EntityRef, version: string | undefined, compileDraft: (draft: StoredEntity) => RunnableWorkflow) {
  if (version) return publishedWorkflow(store, ref, version);
  const draft = await store.getEntity(ref);
  if (!draft) throw errors.entityNotFound(ref.entityType, ref.id);
  return compileDraft(draft);
}

/** Runs one step of the draft (or a named version) on a context given whole. */
export async function testStep(
  deps: RunDeps,
  ref: EntityRef,
  stepId: string,
  request: { context: Record<string, unknown>; version?: string },
  drafts: { compileDraft: (draft: StoredEntity) => RunnableWorkflow; loadRule: LoadRule },
) {
  const workflow = await chosenVersion(deps.store, ref, request.version, drafts.compileDraft);
  if (!workflow.workflow.steps.has(stepId)) throw errors.stepNotFound(ref.id, stepId);
  return runStep(workflow.workflow, stepId, request.context, services(deps, drafts.loadRule), { timeoutMs: syncTimeout(workflow) });
}
