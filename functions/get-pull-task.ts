import { taskRoutes } from '../lib/tasks/routes.ts';
import { taskEndpoint } from '../lib/tasks/endpoints.ts';

export const handler = taskEndpoint(taskRoutes.getPullTask);
