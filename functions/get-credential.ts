import { getCredential, toView } from '../lib/credentials/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { credentialIdParam } from '../lib/http/params.ts';
import { routes } from '../lib/http/routes.ts';

export const handler = endpoint(routes.getCredential, async (call) => ({
  data: toView(await getCredential(call.store, call.principal.workspace.id, credentialIdParam(call))),
}));
