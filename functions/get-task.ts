import { taskEndpoint } from '../lib/tasks/endpoints.ts';
import { taskRoutes } from '../lib/tasks/routes.ts';

export const handler = taskEndpoint(taskRoutes.getTask);
