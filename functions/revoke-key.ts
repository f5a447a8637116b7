import { endpoint } from '../lib/http/endpoint.ts';
import { keyIdParam } from '../lib/http/params.ts';
import { revokeKey } from '../lib/workspaces/keys.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.revokeKey, async (call) => ({
  data: await revokeKey(call.store, call.principal, keyIdParam(call), call.auditor),
}));
