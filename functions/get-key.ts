import { endpoint } from '../lib/http/endpoint.ts';
import { keyIdParam } from '../lib/http/params.ts';
import { getKey } from '../lib/workspaces/keys.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.getKey, async (call) => ({ data: await getKey(call.store, call.principal, keyIdParam(call)) }));
