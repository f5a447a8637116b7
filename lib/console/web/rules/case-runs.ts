/**
 * Which results of the saved test cases still hold. A result is that of a
 * case's params and expected output, run on the rule's logic as saved: its
 * kind and definition but its cases, which change nothing the rule answers.
 * A save that changes neither keeps the result, so that adding a case, fixing
 * one's expected output or editing the description leaves the other results
 * in place; a case or logic changed since shows the case as not run, because
 * nothing is known of how it does now, and a result from before that the
 * analyst might take for a current one is worse than none.
 */
import { canonicalJson } from '../ui/json.ts';
import type { RuleRecord, SavedCase } from './model.ts';

/** What running a case gave. */
export interface CaseOutcome {
  passed: boolean;
  actual?: unknown;
  error?: string;
}

/** The last run of the cases: the logic they ran on, and each case's outcome by its params and expected output. */
export interface CaseRuns {
  logic: string;
  outcomes: Map<string, CaseOutcome>;
}

export const noRuns: CaseRuns = { logic: '', outcomes: new Map() };

/** The saved rule's logic, as a key: its kind and definition without its cases. */
export function logicOf(rule: Pick<RuleRecord, 'type' | 'definition'>): string {
  const { tests: _cases, ...logic } = rule.definition;
  return canonicalJson({ type: rule.type, definition: logic });
}

/** What a case's result depends on besides the logic: its params and expected output (not its name). */
const caseKey = (saved: SavedCase) => canonicalJson({ params: saved.params, expected: saved.expected });

/** The results of running `cases` on `logic`. */
export const runsOf = (cases: readonly SavedCase[], outcomes: readonly CaseOutcome[], logic: string): CaseRuns => ({
  logic,
  outcomes: new Map(cases.map((saved, at) => [caseKey(saved), outcomes[at]!])),
});

/** The result that holds for `saved` on the rule's `logic` now, if the last run gave one. */
export const outcomeOf = (runs: CaseRuns, saved: SavedCase, logic: string): CaseOutcome | undefined =>
  runs.logic === logic ? runs.outcomes.get(caseKey(saved)) : undefined;
