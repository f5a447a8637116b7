/**
 * Running a rule as a consumer does: the latest published version (or a
 * named one), compiled from the prepared form kept with it (no FEEL parser in
 * this function) and kept by the warm function (./cache.ts); the run is
 * recorded when the rule asks for it, and counted for its coverage whether
 * or not (lib/tallies/coverage-counts.ts). Engine failures are thrown as they are,
 * and get their status in lib/http. A rule's running rollout (lib/rollout)
 * may have its candidate answer instead (a canary), and runs the other
 * version beside the answer once it is ready, to compare. A batch loads and
 * compiles the rule once and runs each input through the same step as a
 * single execution (`runInput`), in a tight loop, then records the runs
 * together; it is served by the version it names or the served one (a
 * rollout's canary and shadow take single executions).
 */
import { performance } from 'node:perf_hooks';
import { evaluateOutcome, type EngineError, type Outcome } from '../engine/index.ts';
import { countExecution } from '../tallies/coverage-counts.ts';
import { rolloutTurn, servedLabel } from './rollout-canary.ts';
import { rolloutWatch } from './rollout-watch.ts';
import { ruleScopeOf, type EntityRef, type EntityStore, type ExecutionStore, type RolloutStore, type TallyStore } from '../store/types.ts';
import { AnswerBudget, slotError, type SlotError } from './batch.ts';
import { CompiledCache } from './cache.ts';
import { newExecutionId, recordExecution, recordExecutions, type Run } from './executions.ts';
import { compileVersion, resolveVersion, type EntityHead, type RunnableRule } from './load.ts';
import type { ExecuteRequest, Params } from './schema.ts';

const compiled = new CompiledCache<RunnableRule>();

/** A published version, compiled once per warm function: keyed by workspace, branch, rule, version and the rule's creation. */
export async function publishedVersion(store: EntityStore, ref: EntityRef, version?: string, head?: EntityHead): Promise<RunnableRule> {
  const { label, createdAt } = await resolveVersion(store, ref, version, head);
  const key = [ref.workspaceId, ref.branch, ref.id, label, createdAt].join('\u0000');
  return compiled.get(key, () => compileVersion(store, ref, label));
}

/** Milliseconds to the microsecond, as measured around the evaluation alone (not the loading). */
export const elapsedSince = (start: number) => Math.round((performance.now() - start) * 1000) / 1000;

/** What one evaluation gave (the engine's outcome: the answer with its hits, or the engine's failure), with the time the evaluation alone took. */
export type Evaluation = Outcome<EngineError> & { durationMs: number };

/** Evaluates a compiled rule on params as of `clock`. Failures other than the engine's (bugs) are thrown. */
export function evaluateTimed(rule: RunnableRule, params: unknown, clock: Date): Evaluation {
  const start = performance.now();
  const outcome = evaluateOutcome(rule.rule, params, { clock });
  return { ...outcome, durationMs: elapsedSince(start) };
}

/** One input's run: what the rule gave, and the run as its record keeps it. */
export interface InputRun {
  run: Run;
  result: Evaluation;
}

/** The step every API execution of a rule takes for each input, alone or in a batch: evaluates it now, under a new execution id. */
export function runInput(rule: RunnableRule, params: Params, executionId = newExecutionId()): InputRun {
  const startedAt = new Date();
  const result = evaluateTimed(rule, params, startedAt);
  return { run: { executionId, version: rule.version, trigger: 'api', input: params, startedAt, durationMs: result.durationMs }, result };
}

/**
 * Runs the latest published version, or the named one. Each run has an id;
 * when the rule's settings ask for it, the run is recorded under that id,
 * failed runs (bad params, no answer) too, before the answer or error is given.
 */
export async function executeRule(
  store: EntityStore & ExecutionStore & TallyStore & RolloutStore,
  ref: EntityRef,
  request: Omit<ExecuteRequest, 'paramsList'>,
) {
  const executionId = newExecutionId();
  const head = await store.getEntityHead(ref);
  const turn = rolloutTurn(ref, head, request, executionId);
  const rule = await publishedVersion(store, ref, request.version ?? servedLabel(turn), head);
  const params = request.params ?? {};
  const { run, result } = runInput(rule, params, executionId);
  countExecution(store, ruleScopeOf(ref), rule, result, run.startedAt);
  if (turn)
    rolloutWatch(store).compare(ruleScopeOf(ref), turn, run, result, async (version) =>
      evaluateTimed(await publishedVersion(store, ref, version, head), params, run.startedAt),
    );
  if (rule.recordExecutions) await recordExecution(store, ruleScopeOf(ref), run, result);
  if ('error' in result) throw result.error;
  return { output: result.output, version: rule.version, executionId: run.executionId, durationMs: result.durationMs };
}

/** One input's place in a batch's answer: its output, or why it has none; its execution's id when the rule records executions. */
export type ExecutedSlot = ({ output: unknown } | { error: SlotError }) & { executionId?: string };

/**
 * Runs the latest published version, or the named one, on each of
 * `paramsList`, in order; an input that fails answers its error in its
 * place. When the rule's settings ask for it, every run is recorded, one
 * record an input, once the answer is known to fit (413 answer_too_large,
 * with nothing recorded, when it would not).
 */
export async function executeBatch(store: EntityStore & ExecutionStore & TallyStore, ref: EntityRef, request: { paramsList: Params[]; version?: string }) {
  const rule = await publishedVersion(store, ref, request.version);
  const budget = new AnswerBudget(request.paramsList.length);
  const start = performance.now();
  const runs = request.paramsList.map((params) => runInput(rule, params));
  for (const { run, result } of runs) countExecution(store, ruleScopeOf(ref), rule, result, run.startedAt);
  const outputs = runs.map(({ run, result }, index): ExecutedSlot => {
    const slot = {
      ...('error' in result ? { error: slotError(result.error) } : { output: result.output }),
      ...(rule.recordExecutions && { executionId: run.executionId }),
    };
    budget.take(slot, index);
    return slot;
  });
  const durationMs = elapsedSince(start);
  if (rule.recordExecutions) await recordExecutions(store, ruleScopeOf(ref), runs);
  return { outputs, version: rule.version, durationMs };
}
