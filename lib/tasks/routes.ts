/** Following a task, whatever its kind: the operation that tasks of every kind share, and its legacy form, the pull's. */
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';

const getTask = {
  operationId: 'getTask',
  permission: 'read',
  method: 'GET',
  path: '/dev/v1/tasks/{taskId}',
  handler: 'get-task',
  summary: 'Follow a task',
  // As published when pulls were the only tasks: a new text is a change of the API document (lib/openapi/openapi.json).
  description: 'A pull task: pending, in-progress, then completed (with the commit and what changed) or failed (with why).',
  branch: 'none',
  query: emptyQuery,
  tableAccess: 'read',
} satisfies Route;

export const taskRoutes = {
  // The legacy form of getTask, served by the same handler (lib/tasks/endpoints.ts).
  getPullTask: {
    ...getTask,
    operationId: 'getPullTask',
    permission: 'read',
    path: '/dev/remote/pull/{taskId}',
    handler: 'get-pull-task',
    summary: 'Follow a pull task',
  },
  getTask,
} satisfies Record<string, Route>;
