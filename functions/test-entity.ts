import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';
import { runRoutes } from '../lib/rules/routes.ts';
import { testBatch, testRule } from '../lib/authoring/test.ts';

/** The workflow code, loaded on the first workflow test only. */
let workflows: Promise<typeof import('../lib/workflows/test-endpoints.ts')> | undefined;

export const handler = endpoint(runRoutes.testEntity, async (call) => {
  const ref = entityRef(call);
  if (ref.entityType === 'workflow') return { data: await (await (workflows ??= import('../lib/workflows/test-endpoints.ts'))).testWorkflowCall(call, ref) };
  const { paramsList, ...request } = call.body;
  return { data: paramsList ? await testBatch(call.store, ref, { ...request, paramsList }) : await testRule(call.store, ref, request) };
});
