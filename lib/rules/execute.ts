/**
 * Running a rule as a consumer does: the latest published version (or a
 * named one), compiled from the prepared form kept with it (no FEEL parser in
 * this function) and kept by the warm function (./cache.ts); the run is
 * recorded when the rule asks for it. Engine failures are thrown as they are,
 * and get their status in lib/http. A rule's running rollout (lib/rollout)
 * may have its candidate answer instead (a canary), and runs the other
 * version beside the answer once it is ready, to compare.
 */
import { performance } from 'node:perf_hooks';
import { EngineError, evaluateRule } from '../engine/index.ts';
import { rolloutTurn, servedLabel } from '../rollout/canary.ts';
import { rolloutWatch } from '../rollout/watch.ts';
import { ruleScopeOf, type EntityRef, type EntityStore, type ExecutionStore, type RolloutStore, type TallyStore } from '../store/types.ts';
import { CompiledCache } from './cache.ts';
import { newExecutionId, recordExecution } from './executions.ts';
import { compileVersion, resolveVersion, type EntityHead, type RunnableRule } from './load.ts';
import type { ExecuteRequest } from './schema.ts';

const compiled = new CompiledCache<RunnableRule>();

/** A published version, compiled once per warm function: keyed by workspace, branch, rule, version and the rule's creation. */
export async function publishedVersion(store: EntityStore, ref: EntityRef, version?: string, head?: EntityHead): Promise<RunnableRule> {
  const { label, createdAt } = await resolveVersion(store, ref, version, head);
  const key = [ref.workspaceId, ref.branch, ref.id, label, createdAt].join('\u0000');
  return compiled.get(key, () => compileVersion(store, ref, label));
}

/** Milliseconds to the microsecond, as measured around the evaluation alone (not the loading). */
export const elapsedSince = (start: number) => Math.round((performance.now() - start) * 1000) / 1000;

/** What one evaluation gave: the answer, or the engine's failure; with the time the evaluation alone took. */
export type Evaluation = ({ output: unknown } | { error: EngineError }) & { durationMs: number };

/** Evaluates a compiled rule on params as of `clock`. Failures other than the engine's (bugs) are thrown. */
export function evaluateTimed(rule: RunnableRule, params: unknown, clock: Date): Evaluation {
  const start = performance.now();
  try {
    return { output: evaluateRule(rule.rule, params, { clock }).output, durationMs: elapsedSince(start) };
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return { error, durationMs: elapsedSince(start) };
  }
}

/**
 * Runs the latest published version, or the named one. Each run has an id;
 * when the rule's settings ask for it, the run is recorded under that id,
 * failed runs (bad params, no answer) too, before the answer or error is given.
 */
export async function executeRule(store: EntityStore & ExecutionStore & TallyStore & RolloutStore, ref: EntityRef, request: ExecuteRequest) {
  const executionId = newExecutionId();
  const head = await store.getEntityHead(ref);
  const turn = rolloutTurn(ref, head, request, executionId);
  const rule = await publishedVersion(store, ref, request.version ?? servedLabel(turn), head);
  const run = { executionId, version: rule.version, trigger: 'api' as const, input: request.params, startedAt: new Date() };
  const result = evaluateTimed(rule, request.params, run.startedAt);
  if (turn)
    rolloutWatch(store).compare(ruleScopeOf(ref), turn, run, result, async (version) =>
      evaluateTimed(await publishedVersion(store, ref, version, head), request.params, run.startedAt),
    );
  if (rule.recordExecutions) await recordExecution(store, ruleScopeOf(ref), { ...run, durationMs: result.durationMs }, result);
  if ('error' in result) throw result.error;
  return { output: result.output, version: rule.version, executionId: run.executionId, durationMs: result.durationMs };
}
