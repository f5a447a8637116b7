/**
 * Ends a test run with one plain line, "N passed, N failed, N skipped", which
 * CI reads as the run's result whatever the runner.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules)
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' || state === 'failed') counts[state]++;
        else counts.skipped++;
      }
    // A module that failed to load has no tests to count, yet the run failed.
    counts.failed += testModules.filter((m) => m.state() === 'failed' && [...m.children.allTests()].length === 0).length;
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
