import { endpoint } from '../lib/http/endpoint.ts';
import { actorOf, rolloutRef } from '../lib/http/params.ts';
import { rolloutRoutes } from '../lib/rollout/routes.ts';
import { endRollout } from '../lib/rollout/service.ts';

export const handler = endpoint(rolloutRoutes.endRollout, async (call) => ({
  data: await endRollout(call.store, rolloutRef(call), actorOf(call), call.auditor),
}));
