import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';
import { listExecutions } from '../lib/rules/executions.ts';
import { runRoutes } from '../lib/rules/routes.ts';

export const handler = endpoint(runRoutes.listExecutions, (call) => listExecutions(call.store, entityRef(call), call.query));
