/**
 * Running rules and workflows: test a draft, execute a published version,
 * and list the recorded executions. Their paths
 * sit beside the entity operations' (`/dev/v1/{entityType}/{entityId}/...`):
 * API Gateway matches a static segment before a variable one without
 * backtracking, so `/dev/v1/workflow/...` cannot have routes of its own, and
 * one function serves both types of each path (loading the workflow code
 * only when a workflow is run).
 */
import { pageQuerySchema } from '../http/paging.ts';
import type { Route } from '../http/route.ts';
import { executionRetentionDays } from '../store/types.ts';
import { callsProviders, executeEntityRoute, onEntity } from './execute-route.ts';
import { batchBounds } from './schema.ts';
import { testSchema } from './test-schema.ts';

export const runRoutes = {
  testEntity: {
    ...onEntity,
    ...callsProviders,
    operationId: 'testEntity',
    permission: 'write',
    path: '/dev/v1/{entityType}/{entityId}/test',
    handler: 'test-entity',
    summary: 'Try a rule or workflow on params: a rule with a trace of every row, a workflow with every step',
    description: `Runs the draft (or, with \`version\`, a published version) on \`params\`; nothing is recorded. A rule answers its output with a trace: for a decision table the input values and, for every row, whether it matched or which cell failed on which value. A workflow answers its status, output and every step's status, time, output or error; its rule steps run the rules' drafts unless a step pins a version, and its API requests are sent. With \`checksum\`, answers 409 checksum_mismatch when what would be tested is no longer what you last read. A rule's draft may instead be given as its author is typing it, in \`definition\`, tested in place of the stored one: it is checked as a save checks it (400 invalid_request naming each field at fault, such as definition.rules[2].when[0]; at most the size a save takes), its rule set's references resolve as the stored draft's do, and it is never stored; it goes without \`version\` and \`checksum\`. A rule also takes a batch, as execute does: \`paramsList\` instead of \`params\`, 1 to ${batchBounds.maxInputs} inputs, compiled once, answered in \`outputs\` in order, each \`{output, trace}\` or \`{error: {code, message, fields?}}\`. Traces are given while the answer stays within ${batchBounds.maxAnswerBytes / 1024 / 1024} MiB; from the first input whose trace would not fit, outputs come without one (\`traceOmitted: true\`): test those inputs alone to see theirs. When the outputs alone do not fit, 413 answer_too_large: split the list. Workflows take no batch (400 naming paramsList).`,
    body: testSchema,
  },
  executeEntity: executeEntityRoute,
  listExecutions: {
    ...onEntity,
    method: 'GET',
    operationId: 'listExecutions',
    permission: 'read',
    path: '/dev/v1/{entityType}/{entityId}/executions',
    handler: 'list-executions',
    summary: "List a rule's or workflow's recorded executions",
    description: `One page of the recorded executions, newest first: input, output or error, version, outcome, trigger, duration and times, and a workflow's steps. Executions are kept ${executionRetentionDays} days; API executions are recorded when the rule or workflow sets settings.recordExecutions.`,
    query: pageQuerySchema,
    tableAccess: 'read',
  },
} satisfies Record<string, Route>;
