import { endpoint } from '../lib/http/endpoint.ts';
import { putRemote } from '../lib/remote/config.ts';
import { remoteConfigRoutes } from '../lib/remote/routes.ts';

export const handler = endpoint(remoteConfigRoutes.putRemote, async ({ principal, store, body, auditor }) => ({
  data: await putRemote(store, principal.workspace.id, body, auditor),
}));
