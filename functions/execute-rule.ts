import { endpoint } from '../lib/http/endpoint.ts';
import { ruleRef } from '../lib/http/params.ts';
import { ruleRunRoutes } from '../lib/rules/routes.ts';
import { executeRule } from '../lib/rules/execute.ts';

export const handler = endpoint(ruleRunRoutes.executeRule, async (call) => ({ data: await executeRule(call.store, ruleRef(call), call.body) }));
