import { endpoint } from '../lib/http/endpoint.ts';
import { listKeys } from '../lib/workspaces/keys.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.listKeys, async ({ principal, store }) => ({ data: await listKeys(store, principal) }));
