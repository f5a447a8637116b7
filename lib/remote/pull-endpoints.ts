/** The handler shared by the legacy and /dev/v1 forms of the pull. */
import { endpoint } from '../http/endpoint.ts';
import { storeFromEnv } from '../store/index.ts';
import { queueFromEnv } from '../tasks/queue.ts';
import { taskView } from '../tasks/view.ts';
import type { remoteSyncRoutes } from './routes.ts';
import { startPull } from './start.ts';

export const pullEndpoint = (route: (typeof remoteSyncRoutes)['pullRemote' | 'pullRemoteV1']) =>
  // The body is never read: the legacy form ignores any, the v1 form takes none (its schema only refuses fields).
  endpoint<typeof route.query, typeof route.body>(route, async ({ principal, branch, auditor }) => {
    const task = await startPull({ store: storeFromEnv().store, queue: queueFromEnv() }, principal.workspace.id, branch, auditor);
    const { taskId, taskState } = taskView(task);
    return { data: { taskId, taskState } };
  });
