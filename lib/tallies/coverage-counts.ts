/**
 * Production coverage: every execution of a published version (the execute
 * API, single and batch, a schedule's run, a workflow's rule step) adds to
 * that version's tallies: how many executions, how many failed, how many
 * matched nothing, and per part of the rule (row, entry, branch) how often
 * it gave the answer and when it last did. Every execution counts, recorded
 * or not, so the counting must cost next to nothing: the evaluation collects
 * its hits (no trace), and the counts go to the function's one tally buffer
 * (./buffer.ts), which sums them in memory and adds them to the table at
 * most every 10 s, off the request's path.
 *
 * What a function that is frozen or dies before it flushes loses is the
 * buffer's to say (lib/tallies/buffer.ts): at most what it counted in the
 * last 10 s before its last invocation ended. The scheduled-run and worker
 * functions flush before their invocation ends, so they lose nothing.
 *
 * A version's tallies are items named after it and its checksum (a rule
 * deleted and made again starts its versions over, and must not inherit the
 * counts of the first one's `v1`): the first holds the totals and the first
 * `unitsPerItem` parts, each further one the next `unitsPerItem`, so that an
 * item stays a few KB (a DynamoDB item holds 400 KB; a table 10,000 rows)
 * and its counts and times fit one update per flush.
 */
import { evaluateRule, hitsOf, type CompiledRule, type Outcome } from '../engine/index.ts';
import type { RuleScope, TallyStore } from '../store/types.ts';
import { talliesPerUpdate } from '../store/types.ts';
import { tallyBufferOf } from './buffer.ts';

/** The totals: executions, failed ones, and those that no part answered (a table's default, a rule set's empty answer). */
export const totals = { executions: 'n', failed: 'failed', unmatched: 'unmatched' } as const;
/** Parts per item: with the totals' three counts and one time, an item's counts and times fit one update. */
export const unitsPerItem = (talliesPerUpdate - 4) / 2;

/** The first tally item of a version; its name is the prefix of the others'. */
export const coverageItemName = (version: string, checksum: string) => `coverage:${version}:${checksum.slice(0, 12)}`;
/** The item that holds a part's counts: the first for the first `unitsPerItem`. */
export const coverageItemOf = (first: string, unit: number) => {
  const item = Math.floor(unit / unitsPerItem);
  return item ? `${first}:${item}` : first;
};
/** The name of a part's count and time in its item. */
export const unitTally = (unit: number) => `u${unit}`;

/** A published version as counting names it (its label and checksum), compiled. */
export interface CountedRule {
  rule: CompiledRule;
  version: string;
  checksum: string;
}

/**
 * Counts one execution of a published version (a draft, version '', is not
 * counted), as of `at`. Never waits: the buffer flushes in the background.
 */
export function countExecution(
  store: Pick<TallyStore, 'addTallies'>,
  scope: RuleScope,
  rule: Pick<CountedRule, 'version' | 'checksum'>,
  result: Outcome<unknown>,
  at: Date,
) {
  if (!rule.version) return;
  const first = coverageItemName(rule.version, rule.checksum);
  const time = at.toISOString();
  const hits = hitsOf(result);
  const outcome = 'error' in result ? totals.failed : hits.length ? undefined : totals.unmatched;
  const counts = new Map<string, [string, number][]>([
    [
      first,
      outcome
        ? [
            [totals.executions, 1],
            [outcome, 1],
          ]
        : [[totals.executions, 1]],
    ],
  ]);
  const times = new Map<string, [string, string][]>([[first, [[totals.executions, time]]]]);
  for (const unit of hits) {
    const item = coverageItemOf(first, unit);
    if (!counts.has(item)) {
      counts.set(item, []);
      times.set(item, []);
    }
    counts.get(item)!.push([unitTally(unit), 1]);
    times.get(item)!.push([unitTally(unit), time]);
  }
  const buffer = tallyBufferOf(store);
  for (const [name, itemCounts] of counts) buffer.add({ ...scope, name }, itemCounts, times.get(name));
}

/** Evaluates a published version as a workflow's rule step runs it, and counts it: the answer, or the failure thrown. */
export function evaluateCounted(store: Pick<TallyStore, 'addTallies'>, scope: RuleScope, rule: CountedRule, params: unknown): unknown {
  try {
    const { output, hits } = evaluateRule(rule.rule, params, { hits: true });
    countExecution(store, scope, rule, { output, hits }, new Date());
    return output;
  } catch (error) {
    countExecution(store, scope, rule, { error }, new Date());
    throw error;
  }
}
