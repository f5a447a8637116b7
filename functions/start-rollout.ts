import { endpoint } from '../lib/http/endpoint.ts';
import { actorOf, rolloutRef } from '../lib/http/params.ts';
import { rolloutRoutes } from '../lib/rollout/routes.ts';
import { startRollout } from '../lib/rollout/service.ts';

export const handler = endpoint(rolloutRoutes.startRollout, async (call) => ({
  data: await startRollout(call.store, rolloutRef(call), call.body, actorOf(call), call.auditor),
}));
