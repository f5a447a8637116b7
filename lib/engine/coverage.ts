/**
 * A rule's parts that an evaluation can reach, and so can count: a decision
 * table's rows, a rule set's entries, a simple rule's two branches. A run
 * with `hits` (./compile.ts) answers the indexes of the parts that gave its
 * answer, into this list: what replay tallies per row, and what test and
 * production coverage count. A version never changes, so an index names one
 * part of it for good.
 */
import type { PreparedRule } from './prepared.ts';

/** The index of a simple rule's `then` branch, taken when the condition is true… */
export const thenBranch = 0;
/** …and of its `otherwise`, taken when it is false or null (answering null when the rule has no otherwise). */
export const otherwiseBranch = 1;

export interface CoverageUnit {
  /** Into the rule's hits: 0-based. */
  index: number;
  kind: 'row' | 'entry' | 'branch';
  /** How people name it: "row 7", "entry risk", "then". */
  name: string;
  /** The row's or entry's id, when it has one. */
  id?: string;
}

/** The parts of a prepared rule that hits count, in index order. */
export function coverageUnits(rule: PreparedRule): CoverageUnit[] {
  switch (rule.kind) {
    case 'decisionTable':
      return rule.rows.map((row, index) => ({ index, kind: 'row', name: `row ${index + 1}`, ...(row.id && { id: row.id }) }));
    case 'ruleSet':
      return rule.entries.map((entry, index) => ({ index, kind: 'entry', name: `entry ${entry.id}`, id: entry.id }));
    case 'simpleRule':
      return [
        { index: thenBranch, kind: 'branch', name: 'then' },
        { index: otherwiseBranch, kind: 'branch', name: 'otherwise' },
      ];
  }
}
