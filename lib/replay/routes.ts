/**
 * Replay: what a change of a rule would do to the decisions it made. Its
 * path sits beside the other run routes' (lib/rules/routes.ts), and so in
 * the same area of the API document.
 */
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { executionRetentionDays } from '../store/model/executions.ts';
import { replayBounds, reportBounds } from './bounds.ts';
import { replaySchema } from './schema.ts';

export const replayRoutes = {
  replayRule: {
    operationId: 'replayRule',
    permission: 'write',
    method: 'POST',
    path: '/dev/v1/{entityType}/{entityId}/replay',
    entityTypes: ['rule'],
    handler: 'replay-rule',
    summary: 'Replay recorded executions or given params on a candidate against a baseline (asynchronous)',
    description: `Runs each input on the \`candidate\` (the draft, or a version) and on the \`baseline\` (a version; the latest published when absent, 409 rule_not_published when there is none) and reports what changes: answers 202 with a task to follow at GET /dev/v1/tasks/{taskId}, which holds the report once completed. The inputs are the rule's recorded executions whose start (or a scheduled run's due time) is in \`source.executions\`' window (at most the newest \`limit\`, ${replayBounds.defaultLimit} when absent, ${replayBounds.maxLimit} at most; executions are kept ${executionRetentionDays} days), each run at the time it started, so that now() and today() answer as they did; or \`source.paramsList\`, run at the time of the request. A rule whose settings.recordExecutions is off has only its scheduled runs recorded: replay a paramsList instead. The report counts the inputs whose answer is the same, changed (another output, or failures with different codes), newly failing, newly succeeding and failing on both with the same code, as a rollout's agree and disagree count them; how often each row, entry or branch of each side gave the answer; field by field, how often a changed output's field changed, and for numbers the exact mean, min and max of candidate − baseline; and the first ${reportBounds.sampleCases} changed outcomes, each with its input, execution id, both answers or errors and the rows each matched. A draft edited before the replay ran fails it (replay it again). Workflows are refused (400 replay_not_supported): their API-request steps have effects on providers.`,
    branch: 'optional',
    query: emptyQuery,
    body: replaySchema,
    tableAccess: 'readWrite',
    queueAccess: 'send',
  },
} satisfies Record<string, Route>;
