/**
 * Test coverage of a rule set that refers to other rules, at save: its
 * entries that run another rule match when that rule answers, so its test
 * cases are run as a publish runs them, with each referenced rule at its
 * pinned version or its latest published one, loaded from the branch. A
 * reference that does not resolve yet (the rule is not published) leaves the
 * coverage unknown, which one warning says; publishing needs them resolved,
 * and recomputes it.
 */
import { EngineError, type PreparedRule } from '../engine/index.ts';
import { ApiError } from '../vocabulary/errors.ts';
import { prepareDraft } from '../rules/draft.ts';
import { runnable } from '../rules/load.ts';
import type { EntityRef, EntityStore, Warning } from '../store/types.ts';
import { testCasesOf, testCoverage, untestedWarnings } from './tested.ts';

const hasReferences = (definition: Record<string, unknown>) => ((definition.rules ?? []) as object[]).some((entry) => 'ruleId' in entry);

/**
 * The test coverage warnings of a rule set that refers to other rules (none
 * for any other rule: its own check gave them).
 *
 * @catchesFailures
 */
export async function referencedUntestedWarnings(
  store: EntityStore,
  ref: EntityRef,
  record: { type: string; definition: Record<string, unknown> },
): Promise<Warning[]> {
  if (record.type !== 'ruleSet' || !hasReferences(record.definition) || !testCasesOf(record.definition).length) return [];
  let prepared: PreparedRule | undefined;
  try {
    const { rule } = await runnable(store, ref, { ...record, id: ref.id, checksum: '' }, '', (source) => (prepared = prepareDraft(source)));
    return untestedWarnings(testCoverage(prepared!, rule, record.definition));
  } catch (error) {
    if (!(error instanceof EngineError || error instanceof ApiError)) throw error;
    return [{ path: 'definition.rules', message: `which entries the test cases reach is not known until the rules it refers to resolve: ${error.message}` }];
  }
}
