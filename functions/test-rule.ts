import { endpoint } from '../lib/http/endpoint.ts';
import { ruleRef } from '../lib/http/params.ts';
import { ruleRunRoutes } from '../lib/rules/routes.ts';
import { testRule } from '../lib/rules/test.ts';

export const handler = endpoint(ruleRunRoutes.testRule, async (call) => ({ data: await testRule(call.store, ruleRef(call), call.body) }));
