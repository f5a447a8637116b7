import { taskEndpoint } from '../lib/pull/endpoints.ts';
import { pullRoutes } from '../lib/pull/routes.ts';

export const handler = taskEndpoint(pullRoutes.getTask);
