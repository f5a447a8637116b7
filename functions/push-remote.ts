import { endpoint } from '../lib/http/endpoint.ts';
import { pullRoutes } from '../lib/pull/routes.ts';
import { startPush } from '../lib/pull/start.ts';
import { queueFromEnv } from '../lib/tasks/queue.ts';

export const handler = endpoint(pullRoutes.pushRemote, async ({ principal, branch, store, auditor }) => {
  const { taskId, taskState } = await startPush({ store, queue: queueFromEnv() }, principal.workspace.id, branch, auditor);
  return { status: 202, data: { taskId, taskState } };
});
