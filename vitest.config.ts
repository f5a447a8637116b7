/**
 * Which tests a run takes: `npm test` the unit and integration suites, which
 * stay within a few minutes on a 2-core machine; `npm run test:slow` the
 * suites too slow for that (the README walk-through, which starts the whole
 * service and runs every block, and every `*.slow.test.ts`). `.ci/run` runs both.
 */
import { configDefaults, defineConfig } from 'vitest/config';

const slowSuites = ['test/docs/readme.test.ts', 'test/**/*.slow.test.ts'];

export default defineConfig({
  test: {
    // The functions' logs stay out of the test output; a test that reads them turns them on itself.
    env: { POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT' },
    // A bound on a hung test, not a measure: tests of 3 to 4 s (redeliveries, property walks) ran past vitest's 5 s when the other worker took a core.
    testTimeout: 15_000,
    // Hooks start runtimes, servers and browsers: fixed work that no test can size down, and that a busy machine slows several times over.
    hookTimeout: 60_000,
    // npm test runs two files at a time: most of them wait on loopback servers and the browser, so two workers use two cores
    // (about 190 s instead of 260 s here). The slow suites measure time bounds under load of their own, so they run one at a time.
    ...(process.env.TEST_SUITE === 'slow' ? { include: slowSuites, maxWorkers: 1 } : { exclude: [...configDefaults.exclude, ...slowSuites], maxWorkers: 2 }),
  },
});
