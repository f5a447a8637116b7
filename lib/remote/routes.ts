/** The Git remote's operations: starting a pull or a push, and the remote's configuration (their tasks are followed with lib/tasks/routes.ts). */
import * as z from 'zod/mini';
import { emptyQuery, strictBody } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { putRemoteSchema } from './config.ts';

/** The legacy form takes no body or an empty one, as it always has: a body that is not JSON is refused, any JSON is ignored. */
const ignoredBody = z.optional(z.unknown());
/** The /dev/v1 form is strict, as every v1 operation: no body, `{}`, or a 400 naming the fields. */
const noFields = z.optional(strictBody({}));

const pull = {
  method: 'POST',
  branch: 'required',
  query: emptyQuery,
  body: ignoredBody,
  tableAccess: 'readWrite',
  queueAccess: 'send',
  // The pull's errors carry an empty object (null for 401), not details: the error shape the pull has always answered with.
  bareErrors: true,
} as const;

const pullDescription =
  "Starts pulling the remote's branch of the same name into the branch (the Service-Branch header) and answers at once with the task; follow it with its taskId. While a pull of the branch is open, asking again returns that task.";

/** Pulls and pushes: each starts a task. */
export const remoteSyncRoutes = {
  pullRemote: {
    ...pull,
    operationId: 'pullRemote',
    permission: 'write',
    path: '/dev/remote/pull',
    handler: 'pull-remote',
    summary: 'Pull the branch from the Git remote (asynchronous)',
    description: pullDescription,
  },
  pullRemoteV1: {
    ...pull,
    body: noFields,
    operationId: 'pullRemoteV1',
    permission: 'write',
    path: '/dev/v1/remote/pull',
    handler: 'pull-remote-v1',
    summary: 'Pull the branch from the Git remote (asynchronous)',
    description: pullDescription,
  },
  pushRemote: {
    operationId: 'pushRemote',
    // Like publishing, a push takes the branch's content out of the drafts' reach: into a repository others read and deploy from,
    // whose history the service cannot take back. Editors change drafts and pull; publishers decide what leaves.
    permission: 'publish',
    method: 'POST',
    path: '/dev/v1/remote/push',
    handler: 'push-remote',
    summary: 'Push the branch to the Git remote (asynchronous)',
    description:
      "Starts committing the branch's rules and workflows (the Service-Branch header) to the remote's branch of the same name, in the layout a pull reads, and pushing it with the remote's credential; answers at once, 202, with the task: follow it with its taskId. While a push of the branch is open, asking again returns that task. Never forced: a remote whose branch moved since the last pull or push of the branch is refused, and pulling first lets the next push through. From a protected branch, only approved content leaves: while a rule or workflow there holds a draft other than what it serves, the push is refused (409 branch_protected), and its run sends nothing if that became so after it was asked for.",
    branch: 'required',
    query: emptyQuery,
    body: noFields,
    tableAccess: 'readWrite',
    queueAccess: 'send',
  },
} satisfies Record<string, Route>;

/** The workspace's remote: where it is, the credential it sends, the format pushes write. */
export const remoteConfigRoutes = {
  getRemote: {
    operationId: 'getRemote',
    permission: 'read',
    method: 'GET',
    path: '/dev/v1/remote',
    handler: 'get-remote',
    summary: "The workspace's Git remote",
    description:
      'The URL pulls fetch from and pushes send to, the id of the credential sent to it, and the format pushes write decision tables in; 404 until a remote is set.',
    branch: 'none',
    query: emptyQuery,
    tableAccess: 'read',
  },
  putRemote: {
    operationId: 'putRemote',
    workspaceWide: true,
    permission: 'manage',
    method: 'PUT',
    path: '/dev/v1/remote',
    handler: 'put-remote',
    summary: "Set the workspace's Git remote and the credential sent to it",
    description:
      "The repository's HTTPS clone URL (no user name, password, query or fragment: a token goes in the credential), optionally a header credential sent with every fetch and push, and the format pushes write decision tables in (json, the default, or dmn). Replaces the remote set before.",
    branch: 'none',
    query: emptyQuery,
    body: putRemoteSchema,
    tableAccess: 'readWrite',
  },
} satisfies Record<string, Route>;
