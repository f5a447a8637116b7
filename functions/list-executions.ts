import { endpoint } from '../lib/http/endpoint.ts';
import { ruleRef } from '../lib/http/params.ts';
import { listExecutions } from '../lib/rules/executions.ts';
import { ruleRunRoutes } from '../lib/rules/routes.ts';

export const handler = endpoint(ruleRunRoutes.listExecutions, (call) => listExecutions(call.store, ruleRef(call), call.query));
