import { pullEndpoint } from '../lib/remote/pull-endpoints.ts';
import { remoteSyncRoutes } from '../lib/remote/routes.ts';

export const handler = pullEndpoint(remoteSyncRoutes.pullRemote);
