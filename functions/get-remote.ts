import { endpoint } from '../lib/http/endpoint.ts';
import { getRemote } from '../lib/remote/config.ts';
import { remoteConfigRoutes } from '../lib/remote/routes.ts';

export const handler = endpoint(remoteConfigRoutes.getRemote, async ({ principal, store }) => ({ data: await getRemote(store, principal.workspace.id) }));
