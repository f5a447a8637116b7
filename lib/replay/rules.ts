/**
 * The two sides of a replay as they run: compiled once per message, each
 * with its coverage units (what its hits count), and refused when it is no
 * longer what the replay was asked about: a draft edited since, or a version
 * whose rule was deleted and made again. Each input runs on both, with hits
 * and the input's own clock, so that now() and today() answer as they did
 * when the execution was recorded.
 */
import { coverageUnits, type PreparedRule } from '../engine/index.ts';
import { prepareDraft } from '../rules/draft.ts';
import { preparedVersion, runnable, type Prepare, type RunnableRule } from '../rules/load.ts';
import type { EntityRef, EntityStore, StoredEntity } from '../store/types.ts';
import type { ReplaySide } from './task.ts';
import type { SideUnits } from './report.ts';

/** What no other delivery mends (the draft changed, a version is gone, a shard ran out of time): the replay fails at once, saying this. */
export class ReplayRefused extends Error {}

export interface ReplayRules {
  baseline: RunnableRule;
  candidate: RunnableRule;
  units: SideUnits;
}

/** `prepare`, keeping what it made: the prepared form of the rule compiled (its references are prepared apart). */
function keeping(prepare: Prepare) {
  const kept: { prepared?: PreparedRule } = {};
  const keep: Prepare = (source) => (kept.prepared = prepare(source));
  return { keep, kept };
}

async function compileSide(
  store: EntityStore,
  ref: EntityRef,
  side: ReplaySide,
  draft?: StoredEntity,
): Promise<{ rule: RunnableRule; prepared: PreparedRule }> {
  const what = side.label === 'draft' ? `The draft of "${ref.id}"` : `The version ${side.label} of "${ref.id}"`;
  const source = side.label === 'draft' ? (draft ?? (await store.getEntity(ref))) : await store.getVersion(ref, side.label);
  if (!source) throw new ReplayRefused(`${what} is gone: the rule was deleted since the replay was asked.`);
  if (source.checksum !== side.checksum)
    throw new ReplayRefused(`${what} changed since the replay was asked (its checksum was ${side.checksum}, it is ${source.checksum}): replay it again.`);
  const { keep, kept } = keeping(side.label === 'draft' ? prepareDraft : preparedVersion);
  const rule = await runnable(store, ref, source, side.label === 'draft' ? '' : side.label, keep);
  return { rule, prepared: kept.prepared! };
}

/** Both sides compiled, as the replay recorded them; the draft as `draft` holds it, when the caller read it already. */
export async function compileSides(
  store: EntityStore,
  ref: EntityRef,
  sides: { baseline: ReplaySide; candidate: ReplaySide },
  draft?: StoredEntity,
): Promise<ReplayRules> {
  const [baseline, candidate] = await Promise.all([compileSide(store, ref, sides.baseline, draft), compileSide(store, ref, sides.candidate, draft)]);
  return {
    baseline: baseline.rule,
    candidate: candidate.rule,
    units: { baseline: coverageUnits(baseline.prepared), candidate: coverageUnits(candidate.prepared) },
  };
}
