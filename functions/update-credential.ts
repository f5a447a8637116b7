import { keyringFromEnv } from '../lib/credentials/keyring.ts';
import { updateCredential } from '../lib/credentials/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { credentialIdParam } from '../lib/http/params.ts';
import { credentialRoutes } from '../lib/credentials/routes.ts';

export const handler = endpoint(credentialRoutes.updateCredential, async (call) => ({
  data: await updateCredential({ store: call.store, keyring: keyringFromEnv() }, call.principal.workspace.id, credentialIdParam(call), call.body, call.auditor),
}));
