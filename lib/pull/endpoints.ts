/** Handlers shared by the legacy and /dev/v1 forms of the pull operations. */
import { endpoint } from '../http/endpoint.ts';
import { taskIdParam } from '../http/params.ts';
import { storeFromEnv } from '../store/index.ts';
import { queueFromEnv } from '../tasks/queue.ts';
import { getTask, taskView } from './remote.ts';
import type { pullRoutes } from './routes.ts';
import { startPull } from './start.ts';

export const pullEndpoint = (route: (typeof pullRoutes)['pullRemote' | 'pullRemoteV1']) =>
  // The body is never read: the legacy form ignores any, the v1 form takes none (its schema only refuses fields).
  endpoint<typeof route.query, typeof route.body>(route, async ({ principal, branch }) => {
    const task = await startPull({ store: storeFromEnv().store, queue: queueFromEnv() }, principal.workspace.id, branch);
    const { taskId, taskState } = taskView(task);
    return { data: { taskId, taskState } };
  });

export const taskEndpoint = (route: (typeof pullRoutes)['getPullTask' | 'getTask']) =>
  endpoint(route, async (call) => ({ data: await getTask(call.store, call.principal.workspace.id, taskIdParam(call)) }));
