import { endpoint } from '../lib/http/endpoint.ts';
import { createPersonalKey } from '../lib/workspaces/keys.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.createPersonalKey, async (call) => ({
  status: 201,
  data: await createPersonalKey(call.store, call.principal, call.body, call.auditor),
}));
