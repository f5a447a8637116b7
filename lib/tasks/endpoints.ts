/** The handler of the task operations: the /dev/v1 one and the legacy form of the pull's (./routes.ts). */
import { endpoint } from '../http/endpoint.ts';
import { taskIdParam } from '../http/params.ts';
import type { taskRoutes } from './routes.ts';
import { getTask } from './view.ts';

export const taskEndpoint = (route: typeof taskRoutes.getTask) =>
  endpoint(route, async (call) => ({ data: await getTask(call.store, call.principal.workspace.id, taskIdParam(call), call.principal.branches) }));
