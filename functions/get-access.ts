import { endpoint } from '../lib/http/endpoint.ts';
import { getAccess } from '../lib/workspaces/access.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.getAccess, async (call) => ({ data: await getAccess(call.store, call.principal) }));
