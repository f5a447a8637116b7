/**
 * The operation only a workflow has: try one of its steps against its
 * provider. Its path sits beside the entity operations', for the reason
 * lib/rules/routes.ts gives.
 */
import type { Route } from '../http/route.ts';
import { callsProviders, onEntity } from '../rules/execute-route.ts';
import { testStepSchema } from './schema.ts';

export const workflowRoutes = {
  testWorkflowStep: {
    ...onEntity,
    ...callsProviders,
    operationId: 'testWorkflowStep',
    permission: 'write',
    path: '/dev/v1/{entityType}/{entityId}/steps/{stepId}/test',
    entityTypes: ['workflow'],
    handler: 'test-workflow-step',
    summary: 'Run one step of a workflow on a context you give, against its provider',
    description:
      "Runs the step `stepId` of the draft (or, with `version`, a published version) on `context`: the workflow's inputs and the results of the steps before it, by name, as a run would hold them. Answers the step's status, time, output or error, and the step a run would go to next. An API-request step calls its provider, with its credential placed.",
    body: testStepSchema,
  },
} satisfies Record<string, Route>;
