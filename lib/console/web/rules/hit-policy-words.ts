/**
 * What each hit policy does, in one plain line with an example: the one table
 * of these words, shown beside the hit policy's select. They say what the
 * engine does (lib/engine/decision-table/plan.ts, `answer`): keep them in step.
 */
import type { Aggregation, HitPolicy } from '../../../engine/definitions.ts';

export const hitPolicyWords: Record<HitPolicy, string> = {
  unique:
    'Unique: at most one row may match; two matching rows are an error, and rows that overlap are refused at publish. Example: "amount < 100" and "amount >= 100".',
  any: 'Any: several rows may match if they give the same outputs; matching rows that disagree are an error. Example: two rows that both answer "gold".',
  priority:
    'Priority: of the matching rows, the one whose output comes first in the output\'s allowed values answers (on a tie, the upper row). Example: list "gold" before "basic" and gold wins.',
  first: 'First: the first matching row, top to bottom, answers. Example: put exceptions above the general rows.',
  outputOrder:
    'Output order: every matching row answers, in a list sorted by the output\'s allowed values. Example: with "gold" listed before "basic", gold comes first.',
  ruleOrder: 'Rule order: every matching row answers, in a list in row order, top to bottom. Example: every discount that applies, in the order of the table.',
  collect: 'Collect, as a list: every matching row answers, in a list (empty when none match). Example: every reason a claim is referred.',
};

/** Under "collect", what its aggregation makes of the matching rows' single output. */
export const aggregationWords: Record<Aggregation, string> = {
  sum: "Collect, sum: the matching rows' values added up (none matching answers null). Example: the surcharges that apply, totalled.",
  min: "Collect, min: the smallest of the matching rows' values (none matching answers null). Example: the lowest price on offer.",
  max: "Collect, max: the largest of the matching rows' values (none matching answers null). Example: the highest risk score raised.",
  count: 'Collect, count: how many rows match (none matching answers 0). Example: the number of warning signs found.',
};

/** The line for a table's hit policy, and its aggregation under "collect". */
export const hitPolicyLine = (hitPolicy: HitPolicy, aggregation?: Aggregation) =>
  hitPolicy === 'collect' && aggregation ? aggregationWords[aggregation] : hitPolicyWords[hitPolicy];
