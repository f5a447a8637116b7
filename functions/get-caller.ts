import { endpoint } from '../lib/http/endpoint.ts';
import { callerView } from '../lib/workspaces/keys.ts';
import { workspaceRoutes } from '../lib/workspaces/routes.ts';

export const handler = endpoint(workspaceRoutes.getCaller, async ({ principal }) => ({ data: callerView(principal) }));
