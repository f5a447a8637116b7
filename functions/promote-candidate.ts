import { endpoint } from '../lib/http/endpoint.ts';
import { actorOf, rolloutRef } from '../lib/http/params.ts';
import { rolloutRoutes } from '../lib/rollout/routes.ts';
import { promoteCandidate } from '../lib/rollout/service.ts';

export const handler = endpoint(rolloutRoutes.promoteCandidate, async (call) => ({
  data: await promoteCandidate(call.store, rolloutRef(call), call.body, actorOf(call), call.auditor),
}));
