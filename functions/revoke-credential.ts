import { revokeCredential } from '../lib/credentials/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { credentialIdParam } from '../lib/http/params.ts';
import { routes } from '../lib/http/routes.ts';

export const handler = endpoint(routes.revokeCredential, async (call) => ({
  data: await revokeCredential(call.store, call.principal.workspace.id, credentialIdParam(call)),
}));
