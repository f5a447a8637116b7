/**
 * The execute operation's route, apart from the other run routes
 * (./routes.ts, which takes it and the parts they share from here): the
 * execute function imports this alone, so that its cold start builds only
 * the schemas it parses, not the test and step-test bodies or the paging query.
 */
import { opensCredentials } from '../credentials/route-access.ts';
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { workflowLimits } from '../entities/workflow-limits.ts';
import { batchBounds, executeSchema } from './schema.ts';

export const onEntity = { method: 'POST', branch: 'optional', query: emptyQuery } as const;
/** What running a workflow needs: its steps' credentials opened, and providers called. */
export const callsProviders = { ...opensCredentials, outbound: 'trying' } as const;

export const executeEntityRoute = {
  ...onEntity,
  ...callsProviders,
  outbound: 'serving',
  operationId: 'executeEntity',
  permission: 'execute',
  path: '/dev/v1/{entityType}/{entityId}/execute',
  handler: 'execute-entity',
  summary: 'Execute the published rule or workflow',
  description: `Runs the latest published version (or, with \`version\`, that one) on \`params\`. A rule answers its output, the version that ran and the execution's id; a rule that cannot answer (two rows match under the hit policy unique) is 422. A workflow answers like its test, within ${workflowLimits.maxSyncTimeoutMs / 1000} s (a step still running then fails the run, named); with \`async: true\` it is queued instead and answers 202 with a task to follow at GET /dev/v1/tasks/{taskId}, which holds the run when it ends. Params are checked against the declared inputs (400 naming each at fault). When settings.recordExecutions is true, the execution is recorded, failed ones too, and listed by listExecutions. A rule also takes a batch: \`paramsList\` instead of \`params\` (never both), 1 to ${batchBounds.maxInputs} inputs, each bounded as params is, ${batchBounds.maxBytes / 1024 / 1024} MiB as JSON together. The version is loaded and compiled once and runs every input; the answer is \`outputs\`, in the order of the inputs, each \`{output}\` or \`{error: {code, message, fields?}}\` (the code and message that input alone would have answered: params that do not fit the declared inputs, a rule that cannot answer), with the version that ran and the time the evaluations took. A rule that records its executions records one an input, and each output carries its executionId. An answer larger than ${batchBounds.maxAnswerBytes / 1024 / 1024} MiB (a function answers at most 6 MB) is refused with 413 answer_too_large before anything is recorded: split the list. Workflows take no batch (400 naming paramsList): their steps call providers one input at a time, so call execute once per input, or with \`async: true\`.`,
  body: executeSchema,
  // It records executions, and starts tasks for asynchronous runs.
  tableAccess: 'readWrite',
  queueAccess: 'send',
} satisfies Route;
