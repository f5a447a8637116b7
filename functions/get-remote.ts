import { endpoint } from '../lib/http/endpoint.ts';
import { getRemote } from '../lib/pull/remote.ts';
import { pullRoutes } from '../lib/pull/routes.ts';

export const handler = endpoint(pullRoutes.getRemote, async ({ principal, store }) => ({ data: await getRemote(store, principal.workspace.id) }));
