import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';
import { workflowRoutes } from '../lib/workflows/routes.ts';
import { testStepCall } from '../lib/workflows/test-endpoints.ts';

export const handler = endpoint(workflowRoutes.testWorkflowStep, async (call) => ({
  data: await testStepCall(call, entityRef(call, workflowRoutes.testWorkflowStep.entityTypes)),
}));
