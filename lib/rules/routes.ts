/**
 * Running rules and workflows: test a draft, execute a published version,
 * list the recorded executions, and try one step of a workflow. Their paths
 * sit beside the entity operations' (`/dev/v1/{entityType}/{entityId}/...`):
 * API Gateway matches a static segment before a variable one without
 * backtracking, so `/dev/v1/workflow/...` cannot have routes of its own, and
 * one function serves both types of each path (loading the workflow code
 * only when a workflow is run).
 */
import { emptyQuery, pageQuerySchema } from '../http/queries.ts';
import type { Route } from '../http/routes.ts';
import { executionRetentionDays } from '../store/types.ts';
import { workflowLimits } from '../workflows/limits.ts';
import { testStepSchema } from '../workflows/schema.ts';
import { executeSchema, testSchema } from './schema.ts';

const onEntity = { method: 'POST', branch: 'optional', query: emptyQuery } as const;
/** What running a workflow needs besides the table: its steps' credentials opened, and providers called. */
const callsProviders = { keyAccess: 'decrypt', outbound: 'trying' } as const;

export const runRoutes = {
  testEntity: {
    ...onEntity,
    ...callsProviders,
    operationId: 'testEntity',
    path: '/dev/v1/{entityType}/{entityId}/test',
    handler: 'test-entity',
    summary: 'Try a rule or workflow on params: a rule with a trace of every row, a workflow with every step',
    description:
      "Runs the draft (or, with `version`, a published version) on `params`; nothing is recorded. A rule answers its output with a trace: for a decision table the input values and, for every row, whether it matched or which cell failed on which value. A workflow answers its status, output and every step's status, time, output or error; its rule steps run the rules' drafts unless a step pins a version, and its API requests are sent. With `checksum`, answers 409 checksum_mismatch when what would be tested is no longer what you last read.",
    body: testSchema,
    tableAccess: 'read',
  },
  executeEntity: {
    ...onEntity,
    ...callsProviders,
    outbound: 'serving',
    operationId: 'executeEntity',
    path: '/dev/v1/{entityType}/{entityId}/execute',
    handler: 'execute-entity',
    summary: 'Execute the published rule or workflow',
    description: `Runs the latest published version (or, with \`version\`, that one) on \`params\`. A rule answers its output, the version that ran and the execution's id; a rule that cannot answer (two rows match under the hit policy unique) is 422. A workflow answers like its test, within ${workflowLimits.maxSyncTimeoutMs / 1000} s (a step still running then fails the run, named); with \`async: true\` it is queued instead and answers 202 with a task to follow at GET /dev/v1/tasks/{taskId}, which holds the run when it ends. Params are checked against the declared inputs (400 naming each at fault). When settings.recordExecutions is true, the execution is recorded, failed ones too, and listed by listExecutions.`,
    body: executeSchema,
    // It records executions, and starts tasks for asynchronous runs.
    tableAccess: 'readWrite',
    queueAccess: 'send',
  },
  listExecutions: {
    ...onEntity,
    method: 'GET',
    operationId: 'listExecutions',
    path: '/dev/v1/{entityType}/{entityId}/executions',
    handler: 'list-executions',
    summary: "List a rule's or workflow's recorded executions",
    description: `One page of the recorded executions, newest first: input, output or error, version, outcome, trigger, duration and times, and a workflow's steps. Executions are kept ${executionRetentionDays} days; API executions are recorded when the rule or workflow sets settings.recordExecutions.`,
    query: pageQuerySchema,
    tableAccess: 'read',
  },
  testWorkflowStep: {
    ...onEntity,
    ...callsProviders,
    operationId: 'testWorkflowStep',
    path: '/dev/v1/{entityType}/{entityId}/steps/{stepId}/test',
    entityTypes: ['workflow'],
    handler: 'test-workflow-step',
    summary: "Run one step of a workflow on a context you give, against its provider",
    description:
      "Runs the step `stepId` of the draft (or, with `version`, a published version) on `context`: the workflow's inputs and the results of the steps before it, by name, as a run would hold them. Answers the step's status, time, output or error, and the step a run would go to next. An API-request step calls its provider, with its credential placed.",
    body: testStepSchema,
    tableAccess: 'read',
  },
} satisfies Record<string, Route>;
