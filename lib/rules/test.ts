/**
 * Trying a rule: the draft (or a named version) evaluated with a trace of
 * every row or entry, so a user sees why it answered what it did. The draft
 * is prepared from its text, so this function bundles the FEEL parser. A
 * batch compiles the rule once and traces each input while the answer has
 * room for the traces.
 */
import { performance } from 'node:perf_hooks';
import { EngineError, evaluateRule, type RuleTrace } from '../engine/index.ts';
import { errors } from '../http/errors.ts';
import type { EntityRef, EntityStore } from '../store/types.ts';
import { AnswerBudget, slotError, type SlotError } from './batch.ts';
import { compileDraft } from './draft.ts';
import { elapsedSince, publishedVersion } from './execute.ts';
import type { RunnableRule } from './load.ts';
import type { Params } from './schema.ts';
import type { TestRequest } from './test-schema.ts';

/**
 * The draft, or the named version, compiled. With `checksum`, refuses (409)
 * when what would be tested is no longer what the caller last read.
 */
async function testedRule(store: EntityStore, ref: EntityRef, request: Pick<TestRequest, 'version' | 'checksum'>) {
  let rule: RunnableRule;
  if (request.version) rule = await publishedVersion(store, ref, request.version);
  else {
    const draft = await store.getEntity(ref);
    if (!draft) throw errors.entityNotFound(ref.entityType, ref.id);
    rule = await compileDraft(store, ref, draft);
  }
  if (request.checksum !== undefined && request.checksum !== rule.checksum) throw errors.checksumMismatch(ref.entityType, ref.id);
  return rule;
}

/** Evaluates the draft, or the named version, with a trace of every row or entry. */
export async function testRule(store: EntityStore, ref: EntityRef, request: Omit<TestRequest, 'paramsList'>) {
  const rule = await testedRule(store, ref, request);
  const start = performance.now();
  const { output, trace } = evaluateRule(rule.rule, request.params ?? {}, { trace: true });
  return { output, trace, durationMs: elapsedSince(start) };
}

/** One input's place in a tested batch: its output and trace (`traceOmitted` once the answer has no room left for traces), or why it has none. */
export type TestedSlot = { output: unknown; trace?: RuleTrace; traceOmitted?: true } | { error: SlotError };

/** One input tested: traced while `traced`, its engine failure in its place. */
function testInput(rule: RunnableRule, params: Params, traced: boolean): TestedSlot {
  try {
    const { output, trace } = evaluateRule(rule.rule, params, { trace: traced });
    return traced ? { output, trace } : { output, traceOmitted: true };
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return { error: slotError(error) };
  }
}

/**
 * Tests the draft, or the named version, on each of `paramsList`, in order;
 * nothing is recorded. Each answer is traced until the traces would make the
 * answer too large: from that input on, answers come without (`traceOmitted`);
 * when the answers alone do not fit, 413 answer_too_large.
 */
export async function testBatch(store: EntityStore, ref: EntityRef, request: Omit<TestRequest, 'params'> & { paramsList: Params[] }) {
  const rule = await testedRule(store, ref, request);
  const budget = new AnswerBudget(request.paramsList.length);
  let traced = true;
  const start = performance.now();
  const outputs = request.paramsList.map((params, index) => {
    let slot = testInput(rule, params, traced);
    if ('trace' in slot) {
      if (budget.fits(slot)) return slot;
      traced = false;
      slot = { output: slot.output, traceOmitted: true };
    }
    budget.take(slot, index);
    return slot;
  });
  return { outputs, ...(rule.version && { version: rule.version }), durationMs: elapsedSince(start) };
}
