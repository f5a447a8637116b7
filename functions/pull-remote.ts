import { pullEndpoint } from '../lib/pull/endpoints.ts';
import { pullRoutes } from '../lib/pull/routes.ts';

export const handler = pullEndpoint(pullRoutes.pullRemote);
