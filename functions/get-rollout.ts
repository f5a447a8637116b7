import { endpoint } from '../lib/http/endpoint.ts';
import { rolloutRef } from '../lib/http/params.ts';
import { rolloutRoutes } from '../lib/rollout/routes.ts';
import { getRollout } from '../lib/rollout/service.ts';

export const handler = endpoint(rolloutRoutes.getRollout, async (call) => ({ data: await getRollout(call.store, rolloutRef(call)) }));
