/**
 * Running a rule as a consumer does: the latest published version (or a
 * named one), compiled from the prepared form kept with it (no FEEL parser in
 * this function) and kept by the warm function (./cache.ts); the run is
 * recorded when the rule asks for it. Engine failures are thrown as they are,
 * and get their status in lib/http.
 */
import { performance } from 'node:perf_hooks';
import { EngineError, evaluateRule } from '../engine/index.ts';
import type { EntityRef, EntityStore, ExecutionStore } from '../store/types.ts';
import { CompiledRuleCache } from './cache.ts';
import { newExecutionId, recordExecution, ruleScopeOf } from './executions.ts';
import { compileVersion, resolveVersion, type RunnableRule } from './load.ts';
import type { ExecuteRuleRequest } from './schema.ts';

const compiled = new CompiledRuleCache();

/** A published version, compiled once per warm function: keyed by workspace, branch, rule, version and the rule's creation. */
export async function publishedVersion(store: EntityStore, ref: EntityRef, version?: string): Promise<RunnableRule> {
  const { label, createdAt } = await resolveVersion(store, ref, version);
  const key = [ref.workspaceId, ref.branch, ref.id, label, createdAt].join('\u0000');
  return compiled.get(key, () => compileVersion(store, ref, label));
}

/** Milliseconds to the microsecond, as measured around the evaluation alone (not the loading). */
export const elapsedSince = (start: number) => Math.round((performance.now() - start) * 1000) / 1000;

/**
 * Runs the latest published version, or the named one. Each run has an id;
 * when the rule's settings ask for it, the run is recorded under that id,
 * failed runs (bad params, no answer) too, before the answer or error is given.
 */
export async function executeRule(store: EntityStore & ExecutionStore, ref: EntityRef, request: ExecuteRuleRequest) {
  const rule = await publishedVersion(store, ref, request.version);
  const run = { executionId: newExecutionId(), version: rule.version, trigger: 'api' as const, input: request.params, startedAt: new Date() };
  const start = performance.now();
  try {
    const { output } = evaluateRule(rule.rule, request.params, { clock: run.startedAt });
    const durationMs = elapsedSince(start);
    if (rule.recordExecutions) await recordExecution(store, ruleScopeOf(ref), { ...run, durationMs }, { output });
    return { output, version: rule.version, executionId: run.executionId, durationMs };
  } catch (error) {
    if (error instanceof EngineError && rule.recordExecutions) await recordExecution(store, ruleScopeOf(ref), { ...run, durationMs: elapsedSince(start) }, { error });
    throw error;
  }
}
