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
    ...(process.env.TEST_SUITE === 'slow' ? { include: slowSuites } : { exclude: [...configDefaults.exclude, ...slowSuites] }),
  },
});
