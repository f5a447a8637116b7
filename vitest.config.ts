/**
 * Which tests a run takes: `npm test` the unit and integration suites,
 * which stay within four minutes on a 2-core machine; `npm run test:slow` the
 * suites too slow for that, in two runs. First the heavy ones, which measure
 * no time but cost much to set up (`TEST_SUITE=heavy`, two at a time): the CDK
 * template assertions (each synthesises the stack), the bundle checks (each
 * bundles functions), the FEEL evaluation bounds, the pull's and push's
 * suites, the file formats' round-trip properties, and the integration
 * suites of replay, rollouts, coverage and batches. Then the slow ones
 * (`TEST_SUITE=slow`, one at a time): the console's browser suites (a real
 * Chromium), the walk-through of the README and its guides, which starts the
 * whole service and runs every block, and every `*.slow.test.ts`. `.ci/run`
 * runs both scripts, then `npm run test:ddb-local`, which runs the store and
 * integration suites, heavy ones included (`TEST_SUITE=ddb-local`), against
 * DynamoDB Local.
 */
import { configDefaults, defineConfig } from 'vitest/config';

const slowSuites = ['test/console/*.browser.test.ts', 'test/docs/readme.test.ts', 'test/**/*.slow.test.ts'];
const heavySuites = [
  'test/cdk/**/*.test.ts',
  'test/rules/bundles.test.ts',
  'test/engine/feel/bounds.test.ts',
  // The pulls' suites: each runs tasks through the queue and worker, with Git servers and redeliveries.
  'test/integration/pull.test.ts',
  'test/integration/pull-worker.test.ts',
  'test/integration/pull-faults.test.ts',
  // The push's: a Git server, hostile hosts and the worker, like the pull's.
  'test/integration/push-remote.test.ts',
  'test/remote/git-push.test.ts',
  // The file formats' round-trip properties: hundreds of tables written and read, XLSX through exceljs.
  'test/interchange/*.property.test.ts',
  // What a change will do (issue 23), through the local runtime: replays through the queue and worker, the publish gate,
  // rollouts with their counts, coverage and batches of 1,000 (npm test was 4 min 6 s with them).
  'test/integration/replay.test.ts',
  'test/integration/replay-gate.test.ts',
  'test/integration/rollout.test.ts',
  'test/integration/coverage.test.ts',
  'test/integration/batch.test.ts',
  // The longest of the rest, each with a runtime and providers or gateways of its own (npm test was 4 min 14 s with them, once every save
  // also ran its test cases for coverage).
  'test/integration/workflows-providers.test.ts',
  'test/integration/permissions.test.ts',
  'test/integration/secret-scan.test.ts',
  'test/integration/gateway.test.ts',
];
const runs = {
  slow: { include: slowSuites, maxWorkers: 1 },
  heavy: { include: heavySuites, maxWorkers: 2 },
  // test:ddb-local names its folders (the store's and the integration suites), heavy ones included.
  'ddb-local': { exclude: [...configDefaults.exclude, ...slowSuites], maxWorkers: 2 },
  default: { exclude: [...configDefaults.exclude, ...slowSuites, ...heavySuites], maxWorkers: 2 },
};
const run = process.env.TEST_SUITE;

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
    ...(run && Object.hasOwn(runs, run) ? runs[run as keyof typeof runs] : runs.default),
  },
});
