/** What a key may read of its workspace itself: its branches (the console's branch switcher lists them). */
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';

export const workspaceRoutes = {
  listBranches: {
    operationId: 'listBranches',
    method: 'GET',
    path: '/dev/v1/branches',
    handler: 'list-branches',
    summary: "The workspace's branches",
    description:
      "Every branch of the key's workspace, the default branch (used when a request names none) first, then by name. Any of them may be named in Service-Branch.",
    branch: 'none',
    query: emptyQuery,
    tableAccess: 'read',
  },
} satisfies Record<string, Route>;
