/**
 * Test coverage: which of a rule's rows (entries, branches) its saved test
 * cases reach, a case reaching a part when the part is among its
 * evaluation's hits. Saving lists each part no case reaches as a warning
 * ("row 7 is not reached by any test case"), and publishing keeps them with
 * the version, from the test run that gates it. A rule without test cases
 * gets no such warnings: every part would be listed, and such a rule is not
 * gated on tests at all (GET .../coverage says it has none).
 *
 * Pure: the save's own check (lib/authoring/record-check.ts, which the console
 * runs as a draft is typed) computes it for every rule that refers to no
 * other; a rule set's references are published rules the save loads
 * (./referenced.ts).
 */
import type { TestCase, TestCaseFailure } from '../engine/test-cases.ts';
import { runTests } from '../engine/test-cases.ts';
import { compileRule, type CompiledRule, type PreparedRule } from '../engine/index.ts';
import type { Warning } from '../store/types.ts';
import { coverageLimits } from './limits.ts';
import { ruleUnits, unitTitle, type RuleUnit } from './units.ts';

const unreached = ' is not reached by any test case';
const unreachedMore = (n: number, kind: string) => `and ${n} more ${kind}s no test case reaches`;

export interface TestCoverage {
  units: RuleUnit[];
  /** The saved test cases, in order: what `reachedBy` indexes. */
  cases: TestCase[];
  /** Per unit, the indexes of the cases whose evaluation reached it. */
  reachedBy: number[][];
  failures: TestCaseFailure[];
}

export const testCasesOf = (definition: Record<string, unknown>) => (definition.tests ?? []) as TestCase[];

/** Runs the definition's test cases on the compiled rule (its own or, for a rule set, with its references) and counts what each reached. */
export function testCoverage(prepared: PreparedRule, rule: CompiledRule, definition: Record<string, unknown>, clock = new Date()): TestCoverage {
  const cases = testCasesOf(definition);
  const units = ruleUnits(prepared, definition);
  const { failures, hits } = runTests(rule, cases, clock);
  const reachedBy = units.map((): number[] => []);
  hits.forEach((reached, test) => reached.forEach((unit) => reachedBy[unit]!.push(test)));
  return { units, cases, reachedBy, failures };
}

/** The warnings of the parts no case reaches; none when there are no cases. */
export function untestedWarnings({ units, cases, reachedBy }: TestCoverage): Warning[] {
  if (!cases.length) return [];
  const missed = units.filter((unit) => reachedBy[unit.index]!.length === 0);
  const warnings = missed.slice(0, coverageLimits.maxUntestedWarnings).map((unit) => ({ path: unit.path, message: `${unitTitle(unit)}${unreached}` }));
  const more = missed.length - warnings.length;
  if (more > 0) warnings.push({ path: 'definition.tests', message: unreachedMore(more, missed[0]!.kind) });
  return warnings;
}

/** Whether a warning is one of test coverage (a publish replaces them with those of its own test run). */
export const isUntestedWarning = ({ message }: Warning) => message.endsWith(unreached) || /^and \d+ more \w+s no test case reaches$/.test(message);

/** Whether running the rule needs other rules loaded: a rule set's references. */
export const refersToRules = (prepared: PreparedRule) => prepared.kind === 'ruleSet' && prepared.entries.some((entry) => 'ruleId' in entry);

/**
 * The test coverage warnings of a rule that refers to no other (none for one
 * that does: the save loads its references). A case that fails to evaluate
 * reaches nothing; its failure is the publish's to refuse.
 *
 * @catchesFailures
 */
export function selfContainedUntestedWarnings(prepared: PreparedRule, definition: Record<string, unknown>): Warning[] {
  if (!testCasesOf(definition).length || refersToRules(prepared)) return [];
  return untestedWarnings(testCoverage(prepared, compileRule(prepared), definition));
}

/** A published version's warnings: the draft's, with its test coverage as the publish's own test run found it (a rule set's references may have moved since the save). */
export const withTestCoverage = (warnings: Warning[] | undefined, coverage: TestCoverage): Warning[] => [
  ...(warnings ?? []).filter((warning) => !isUntestedWarning(warning)),
  ...untestedWarnings(coverage),
];
