/**
 * Reading a rule's coverage. Beside the entity operations' paths, for both
 * entity types, so that a workflow gets the answer that it has no coverage
 * (coverage_not_supported) rather than "no such path".
 */
import * as z from 'zod/mini';
import { versionLabelPattern } from '../vocabulary/kinds.ts';
import { integer } from '../http/paging.ts';
import type { Route } from '../http/route.ts';
import { executionRetentionDays } from '../store/types.ts';
import { tallyFlush } from '../tallies/buffer.ts';
import { coverageLimits } from './limits.ts';

export const coverageQuerySchema = z.object({
  version: z
    .optional(z.string().check(z.regex(versionLabelPattern, { error: 'must be a published version label such as v1' })))
    .register(z.globalRegistry, { description: 'a published version label such as v3; the latest published version when absent' }),
  days: integer(
    1,
    executionRetentionDays,
    executionRetentionDays,
    `the parts not matched in this many last days are listed in production.notMatchedSince (at most ${executionRetentionDays}, the days executions are kept)`,
  ),
});

const flushSeconds = tallyFlush.everyMs / 1000;

export const coverageRoutes = {
  getCoverage: {
    method: 'GET',
    branch: 'optional',
    query: coverageQuerySchema,
    operationId: 'getCoverage',
    permission: 'read',
    path: '/dev/v1/{entityType}/{entityId}/coverage',
    handler: 'get-coverage',
    summary: "A rule's coverage per row, entry or branch: by its test cases, and in production",
    description: `For each part of a published version (the latest unless \`version\` names one) — a decision table's rows, a rule set's entries, a simple rule's then and otherwise branches, in \`units\` by index with their path in the definition — the saved test cases of that version that reach it (a case reaches a part when the part gave, or helped give, its answer), and how often the part gave the answer in executions of that version and when it last did. \`production\` has the version's executions, failed ones, those no part answered, the parts never matched since the version was published, and those not matched in the last \`days\` days. A rule never published answers its draft's test coverage only. Saving and publishing also list each part no test case reaches as a warning (at most ${coverageLimits.maxUntestedWarnings}, then how many more); a rule without test cases gets none. Every execution counts, recorded or not: the execute operation (single and batch), scheduled runs, and the rule steps of workflow executions (not tests). Each function adds its counts up in memory and writes them at most every ${flushSeconds} s, off the request's path, so counts lag by up to ${flushSeconds} s; a function frozen between invocations writes them when it next runs, and one shut down while frozen, or that dies, loses what it counted in the last ${flushSeconds} s before its last invocation ended (scheduled runs and asynchronous workflow runs are written before their invocation ends, and lose nothing). A count whose write failed is kept for the next. Per part, at most ${coverageLimits.maxTestCasesListed} test cases are named (testCaseCount has them all). Workflows have no coverage (400 coverage_not_supported).`,
    tableAccess: 'read',
  },
} satisfies Record<string, Route>;
