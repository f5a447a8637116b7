import { endpoint } from '../lib/http/endpoint.ts';
import { errors } from '../lib/vocabulary/errors.ts';
import { entityRef } from '../lib/http/params.ts';
import { executeEntityRoute } from '../lib/rules/execute-route.ts';
import { executeBatch, executeRule } from '../lib/rules/execute.ts';

/** The workflow code, loaded on the first workflow run only: a function that executes only rules never evaluates it. */
let workflows: Promise<typeof import('../lib/workflows/endpoints.ts')> | undefined;

export const handler = endpoint(executeEntityRoute, async (call) => {
  const ref = entityRef(call);
  if (ref.entityType === 'workflow') return (await (workflows ??= import('../lib/workflows/endpoints.ts'))).executeWorkflowCall(call, ref);
  if (call.body.async) throw errors.invalidRequest([{ in: 'body', field: 'async', message: 'only workflows run asynchronously: a rule answers at once' }]);
  const { paramsList, ...request } = call.body;
  return { data: paramsList ? await executeBatch(call.store, ref, { ...request, paramsList }) : await executeRule(call.store, ref, request) };
});
