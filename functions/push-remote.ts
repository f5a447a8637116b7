import { endpoint } from '../lib/http/endpoint.ts';
import { remoteSyncRoutes } from '../lib/remote/routes.ts';
import { startPush } from '../lib/remote/start.ts';
import { queueFromEnv } from '../lib/tasks/queue.ts';

export const handler = endpoint(remoteSyncRoutes.pushRemote, async ({ principal, branch, store, auditor }) => {
  const { taskId, taskState } = await startPush({ store, queue: queueFromEnv() }, principal.workspace.id, branch, auditor);
  return { status: 202, data: { taskId, taskState } };
});
