import { getCredential } from '../lib/credentials/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { credentialIdParam } from '../lib/http/params.ts';
import { credentialRoutes } from '../lib/credentials/routes.ts';

export const handler = endpoint(credentialRoutes.getCredential, async (call) => ({
  data: await getCredential(call.store, call.principal.workspace.id, credentialIdParam(call)),
}));
