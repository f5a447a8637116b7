/** Tallies kept per rule of a branch (coverage of a version, a rollout's agreement): sums that many functions add to, and the latest time of each. */
import type { RuleScope } from './executions.ts';

/** One item of tallies: of a rule of a branch, and its name among the rule's (such as `coverage:v3`). */
export interface TallyKey extends RuleScope {
  name: string;
}

/** What a tally item holds: each counter's sum, and for some the latest time (ISO 8601) it was added to. */
export interface StoredTallies {
  counts: Record<string, number>;
  latest: Record<string, string>;
}

/** A tally item as a listing reads it: its name with what it holds. */
export interface NamedTallies extends StoredTallies {
  name: string;
}

/** What one update may add and set at most (an update expression is bounded): a writer of more sends several. */
export const talliesPerUpdate = 100;
