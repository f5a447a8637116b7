/**
 * Trying a rule: the draft (or a named version, or the draft as its author
 * is typing it) evaluated with a trace of every row or entry, so a user sees
 * why it answered what it did. The draft is prepared from its text, so this
 * function bundles the FEEL parser. A batch compiles the rule once and traces
 * each input while the answer has room for the traces.
 */
import { performance } from 'node:perf_hooks';
import { EngineError, evaluateRule, type RuleTrace } from '../engine/index.ts';
import { recordProblems } from './record-check.ts';
import { errors } from '../vocabulary/errors.ts';
import type { EntityRef, EntityStore } from '../store/types.ts';
import { AnswerBudget, answerBytes, slotError, type SlotError } from '../rules/batch.ts';
import { compileDraft } from '../rules/draft.ts';
import { elapsedSince, publishedVersion } from '../rules/execute.ts';
import type { RunnableRule } from '../rules/load.ts';
import type { Params } from '../rules/schema.ts';
import type { TestRequest } from '../rules/test-schema.ts';

/**
 * The draft as typed (`definition`) in place of the stored one's, compiled:
 * the record a save of it would store is checked as the save checks it (one
 * 400 naming every field at fault), its references resolve as the stored
 * draft's do, and nothing is written.
 */
async function typedDraft(store: EntityStore, ref: EntityRef, definition: Record<string, unknown>): Promise<RunnableRule> {
  const draft = await store.getEntity(ref);
  if (!draft) throw errors.entityNotFound(ref.entityType, ref.id);
  const { name, description, tags, type, checksum } = draft;
  const { input, issues } = recordProblems(ref.entityType, { id: ref.id, name, description, tags, type, definition });
  if (issues.length || !input) throw errors.invalidRequest(issues);
  return compileDraft(store, ref, { id: ref.id, type: input.type, definition: input.definition, checksum });
}

/**
 * The draft, the named version, or the draft as typed, compiled. With
 * `checksum`, refuses (409) when what would be tested is no longer what the
 * caller last read.
 */
async function testedRule(store: EntityStore, ref: EntityRef, request: Pick<TestRequest, 'version' | 'checksum' | 'definition'>) {
  if (request.definition) return typedDraft(store, ref, request.definition);
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

/** Evaluates the draft, the named version or the draft as typed, with a trace of every row or entry. */
export async function testRule(store: EntityStore, ref: EntityRef, request: Omit<TestRequest, 'paramsList'>) {
  const rule = await testedRule(store, ref, request);
  const start = performance.now();
  const { output, trace } = evaluateRule(rule.rule, request.params ?? {}, { trace: true });
  return { output, trace, durationMs: elapsedSince(start) };
}

/** One input's place in a tested batch: its output and trace (`traceOmitted` once the answer has no room left for traces), or why it has none. */
export type TestedSlot = { output: unknown; trace?: RuleTrace; traceOmitted?: true } | { error: SlotError };

/** One input tested, traced or not, its engine failure in its place. */
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
 * Tests the draft, the named version or the draft as typed, on each of `paramsList`, in order;
 * nothing is recorded. Every output is answered (413 answer_too_large when
 * they alone do not fit); the traces of the first inputs are given with them,
 * as many as the room the outputs leave holds, the others left out
 * (`traceOmitted`). Inputs are no longer traced once the traces so far fill
 * the answer, so that the traces kept in memory stay within its bound too.
 */
export async function testBatch(store: EntityStore, ref: EntityRef, request: Omit<TestRequest, 'params'> & { paramsList: Params[] }) {
  const rule = await testedRule(store, ref, request);
  const budget = new AnswerBudget(request.paramsList.length);
  /** The traced inputs' traces' sizes, by input, in order. */
  const traceSizes = new Map<number, number>();
  let traceBytes = 0;
  const start = performance.now();
  const outputs = request.paramsList.map((params, index) => {
    const slot = testInput(rule, params, traceBytes < budget.room);
    if (!('trace' in slot)) budget.take(slot, index);
    else {
      budget.take({ output: slot.output, traceOmitted: true }, index);
      const size = answerBytes(slot.trace);
      traceSizes.set(index, size);
      traceBytes += size;
    }
    return slot;
  });
  let room = budget.room;
  let omitting = false;
  for (const [index, size] of traceSizes) {
    omitting ||= size > room;
    if (omitting) outputs[index] = { output: (outputs[index] as { output: unknown }).output, traceOmitted: true };
    else room -= size;
  }
  return { outputs, ...(rule.version && { version: rule.version }), durationMs: elapsedSince(start) };
}
