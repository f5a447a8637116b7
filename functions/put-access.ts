import { endpoint } from '../lib/http/endpoint.ts';
import { putAccess } from '../lib/workspaces/access.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.putAccess, async (call) => ({ data: await putAccess(call.store, call.principal, call.body, call.auditor) }));
