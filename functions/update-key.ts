import { endpoint } from '../lib/http/endpoint.ts';
import { keyIdParam } from '../lib/http/params.ts';
import { updateKey } from '../lib/workspaces/keys.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.updateKey, async (call) => ({
  data: await updateKey(call.store, call.principal, keyIdParam(call), call.body, call.auditor),
}));
