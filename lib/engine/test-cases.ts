/**
 * Saved test cases run on a compiled rule: what a publish is gated on, and
 * what test coverage counts. Apart from `./authoring.ts` (which re-exports
 * it) because it needs no FEEL parser: the coverage read runs a published
 * version's tests from its prepared form.
 */
import { evaluateRule, type CompiledRule } from './compile.ts';
import { EngineError } from './errors.ts';
import { equal } from './feel/values.ts';

export interface TestCase {
  name: string;
  params: Record<string, unknown>;
  expected: unknown;
}

export interface TestCaseFailure {
  name: string;
  expected: unknown;
  /** What the rule answered, or the error it raised. */
  actual: unknown;
  error?: string;
}

/** What running the cases gave: the failures, and each case's hits (./coverage.ts), none for a case whose evaluation raised an error. */
export interface TestRun {
  failures: TestCaseFailure[];
  hits: number[][];
}

/**
 * Runs saved test cases on a compiled rule, collecting the parts of the rule
 * each reached: hits cost no extra evaluation. A case the engine fails on is
 * a failure of the run, not thrown.
 *
 * @catchesFailures
 */
export function runTests(rule: CompiledRule, cases: readonly TestCase[], clock = new Date()): TestRun {
  const run: TestRun = { failures: [], hits: [] };
  for (const test of cases) {
    try {
      const { output, hits } = evaluateRule(rule, test.params, { clock, hits: true });
      run.hits.push(hits!);
      if (equal(output as never, test.expected as never) !== true) run.failures.push({ name: test.name, expected: test.expected, actual: output });
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      run.hits.push([]);
      run.failures.push({ name: test.name, expected: test.expected, actual: null, error: error.message });
    }
  }
  return run;
}

/** Runs saved test cases on a compiled rule; the failures, each with what was expected and what came. */
export const runTestCases = (rule: CompiledRule, cases: readonly TestCase[], clock = new Date()): TestCaseFailure[] => runTests(rule, cases, clock).failures;
