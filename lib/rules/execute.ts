/**
 * Running a rule as a consumer does: the latest published version (or a
 * named one), compiled from the prepared form kept with it (no FEEL parser in
 * this function) and kept by the warm function (./cache.ts); the run is
 * recorded when the rule asks for it, and counted for its coverage whether
 * or not (lib/coverage/counting.ts). Engine failures are thrown as they are,
 * and get their status in lib/http.
 */
import { performance } from 'node:perf_hooks';
import { EngineError, evaluateRule } from '../engine/index.ts';
import { countExecution } from '../coverage/counting.ts';
import { ruleScopeOf, type EntityRef, type EntityStore, type ExecutionStore, type TallyStore } from '../store/types.ts';
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

/** What one evaluation gave: the answer with the parts of the rule that gave it (its hits, what coverage counts), or the engine's failure; with the time the evaluation alone took. */
export type Evaluation = ({ output: unknown; hits?: number[] } | { error: EngineError }) & { durationMs: number };

/** Evaluates a compiled rule on params as of `clock`. Failures other than the engine's (bugs) are thrown. */
export function evaluateTimed(rule: RunnableRule, params: unknown, clock: Date): Evaluation {
  const start = performance.now();
  try {
    const { output, hits } = evaluateRule(rule.rule, params, { clock, hits: true });
    return { output, hits, durationMs: elapsedSince(start) };
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
export async function executeRule(store: EntityStore & ExecutionStore & TallyStore, ref: EntityRef, request: ExecuteRequest) {
  const rule = await publishedVersion(store, ref, request.version);
  const run = { executionId: newExecutionId(), version: rule.version, trigger: 'api' as const, input: request.params, startedAt: new Date() };
  const result = evaluateTimed(rule, request.params, run.startedAt);
  countExecution(store, ruleScopeOf(ref), rule, result, run.startedAt);
  if (rule.recordExecutions) await recordExecution(store, ruleScopeOf(ref), { ...run, durationMs: result.durationMs }, result);
  if ('error' in result) throw result.error;
  return { output: result.output, version: rule.version, executionId: run.executionId, durationMs: result.durationMs };
}
