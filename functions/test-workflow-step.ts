import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';
import { runRoutes } from '../lib/rules/routes.ts';
import { testStepCall } from '../lib/workflows/test-endpoints.ts';

export const handler = endpoint(runRoutes.testWorkflowStep, async (call) => ({
  data: await testStepCall(call, entityRef(call, runRoutes.testWorkflowStep.entityTypes)),
}));
