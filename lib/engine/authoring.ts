/**
 * What saving and publishing a rule asks of the engine: the definition
 * parsed and checked whole (every problem with its path), the table analysis
 * (warnings on save, overlaps refused at publish), and the saved test cases
 * run. It needs the FEEL parser, so only the authoring functions import it;
 * evaluation imports `./index.ts`.
 */
import { analyzeDecisionTable, type Finding } from './decision-table/analysis.ts';
import { cellWarnings } from './decision-table/cell-warnings.ts';
import type { RuleDefinition } from './definitions.ts';
import { prepareRule, type Problem } from './prepare.ts';
import type { PreparedRule } from './prepared.ts';

export interface RuleCheck {
  prepared: PreparedRule;
  /** Refuse the save: FEEL syntax errors, unknown inputs, type mismatches, hit policies whose outputs do not fit. */
  problems: Problem[];
  /** Shown with the save: cells that most likely never match (unknown names, literals of another type), rows that can never be the answer, gaps. */
  warnings: Finding[];
  /** Refuse the publish: rows that overlap under `unique`. */
  publishProblems: Finding[];
}

/**
 * Checks a rule definition as a save does.
 *
 * @example
 * const { problems, warnings } = checkRule({ kind: 'decisionTable', definition });
 * if (problems.length) refuse(problems);
 */
export function checkRule(rule: RuleDefinition): RuleCheck {
  const { prepared, problems } = prepareRule(rule);
  if (prepared.kind !== 'decisionTable' || problems.length > 0) return { prepared, problems, warnings: [], publishProblems: [] };
  const analysis = analyzeDecisionTable(prepared);
  return { prepared, problems, warnings: [...cellWarnings(prepared), ...analysis.warnings], publishProblems: analysis.publishErrors };
}

export { runTestCases, runTests, type TestCase, type TestCaseFailure, type TestRun } from './test-cases.ts';
