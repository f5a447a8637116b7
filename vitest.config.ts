/**
 * Which tests a run takes: `npm test` the unit, integration and CDK suites,
 * which stay within four minutes on a 2-core machine; `npm run test:slow` the
 * suites too slow for that: the console's browser suites (a real Chromium, about
 * three minutes of the six `npm test` took with them), the README walk-through,
 * which starts the whole service and runs every block, and every
 * `*.slow.test.ts`. `.ci/run` runs both.
 */
import { configDefaults, defineConfig } from 'vitest/config';

const slowSuites = ['test/console/*.browser.test.ts', 'test/docs/readme.test.ts', 'test/**/*.slow.test.ts'];

export default defineConfig({
  test: {
    // The functions' logs stay out of the test output; a test that reads them turns them on itself.
    env: { POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT' },
    // A bound on a hung test, not a measure: tests of 3 to 4 s (redeliveries, property walks) ran past vitest's 5 s when the other worker took a core.
    testTimeout: 15_000,
    // Hooks start runtimes, servers and browsers: fixed work that no test can size down, and that a busy machine slows several times over.
    hookTimeout: 60_000,
    // npm test runs two files at a time: most of them wait on loopback servers, so two workers use two cores. The slow suites
    // measure time bounds under load of their own, and drive a browser that takes a core of its own, so they run one at a time.
    ...(process.env.TEST_SUITE === 'slow' ? { include: slowSuites, maxWorkers: 1 } : { exclude: [...configDefaults.exclude, ...slowSuites], maxWorkers: 2 }),
  },
});
