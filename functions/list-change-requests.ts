import { listChangeRequests } from '../lib/changes/service.ts';
import { changeRoutes } from '../lib/changes/routes.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';

export const handler = endpoint(changeRoutes.listChangeRequests, async (call) => ({ data: await listChangeRequests(call.store, entityRef(call)) }));
