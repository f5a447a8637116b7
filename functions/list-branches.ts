import { endpoint } from '../lib/http/endpoint.ts';
import { listBranches } from '../lib/workspaces/branches.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.listBranches, async ({ principal, store }) => ({
  data: await listBranches(store, principal.workspace, principal.branches),
}));
