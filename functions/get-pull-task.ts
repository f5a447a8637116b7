import { pullRoutes } from '../lib/pull/routes.ts';
import { taskEndpoint } from '../lib/tasks/endpoints.ts';

export const handler = taskEndpoint(pullRoutes.getPullTask);
