/**
 * Trying a rule: the draft (or a named version) evaluated with a trace of
 * every row or entry, so a user sees why it answered what it did. The draft
 * is prepared from its text, so this function bundles the FEEL parser.
 */
import { performance } from 'node:perf_hooks';
import { evaluateRule } from '../engine/index.ts';
import { errors } from '../http/errors.ts';
import type { EntityRef, EntityStore } from '../store/types.ts';
import { compileDraft } from './draft.ts';
import { elapsedSince, publishedVersion } from './execute.ts';
import type { RunnableRule } from './load.ts';
import type { TestRequest } from './test-schema.ts';

/**
 * Evaluates the draft, or the named version, with a trace of every row or
 * entry. With `checksum`, refuses (409) when what would be tested is no
 * longer what the caller last read.
 */
export async function testRule(store: EntityStore, ref: EntityRef, request: TestRequest) {
  let rule: RunnableRule;
  if (request.version) rule = await publishedVersion(store, ref, request.version);
  else {
    const draft = await store.getEntity(ref);
    if (!draft) throw errors.entityNotFound(ref.entityType, ref.id);
    rule = await compileDraft(store, ref, draft);
  }
  if (request.checksum !== undefined && request.checksum !== rule.checksum) throw errors.checksumMismatch(ref.entityType, ref.id);
  const start = performance.now();
  const { output, trace } = evaluateRule(rule.rule, request.params, { trace: true });
  return { output, trace, durationMs: elapsedSince(start) };
}
