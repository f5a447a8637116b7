import { endpoint } from '../lib/http/endpoint.ts';
import { createKey } from '../lib/workspaces/keys.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.createKey, async ({ body, principal, store, auditor }) => ({
  data: await createKey(store, principal, body, auditor),
  status: 201,
}));
