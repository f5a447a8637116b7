/** Remote pull (spec 4.4), its task tracking, and the remote's configuration. */
import * as z from 'zod/mini';
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/routes.ts';
import { putRemoteSchema } from './remote.ts';

/** Spec 4.4: no body or an empty one; a body that is not JSON is refused, any JSON is ignored. */
const ignoredBody = z.optional(z.unknown());

const pull = {
  method: 'POST',
  branch: 'required',
  query: emptyQuery,
  body: ignoredBody,
  tableAccess: 'readWrite',
  queueAccess: 'send',
  // Spec 7: the pull's errors carry an empty object (null for 401), not details.
  bareErrors: true,
} as const;

const taskRead = { method: 'GET', branch: 'none', query: emptyQuery, tableAccess: 'read' } as const;

export const pullRoutes = {
  pullRemote: { ...pull, operationId: 'pullRemote', path: '/dev/remote/pull', handler: 'pull-remote', summary: 'Pull the branch from the Git remote (asynchronous)' },
  pullRemoteV1: { ...pull, operationId: 'pullRemoteV1', path: '/dev/v1/remote/pull', handler: 'pull-remote-v1', summary: 'Pull the branch from the Git remote (asynchronous)' },
  getPullTask: { ...taskRead, operationId: 'getPullTask', path: '/dev/remote/pull/{taskId}', handler: 'get-pull-task', summary: 'Follow a pull task' },
  getTask: { ...taskRead, operationId: 'getTask', path: '/dev/v1/tasks/{taskId}', handler: 'get-task', summary: 'Follow a task' },
  getRemote: { ...taskRead, operationId: 'getRemote', path: '/dev/v1/remote', handler: 'get-remote', summary: "The workspace's Git remote" },
  putRemote: {
    operationId: 'putRemote',
    method: 'PUT',
    path: '/dev/v1/remote',
    handler: 'put-remote',
    summary: "Set the workspace's Git remote and the credential sent to it",
    branch: 'none',
    query: emptyQuery,
    body: putRemoteSchema,
    tableAccess: 'readWrite',
  },
} satisfies Record<string, Route>;
