import { endpoint } from '../lib/http/endpoint.ts';
import { putRemote } from '../lib/pull/remote.ts';
import { pullRoutes } from '../lib/pull/routes.ts';

export const handler = endpoint(pullRoutes.putRemote, async ({ principal, store, body, auditor }) => ({
  data: await putRemote(store, principal.workspace.id, body, auditor),
}));
