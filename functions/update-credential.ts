import { keyringFromEnv } from '../lib/credentials/keyring.ts';
import { updateCredential } from '../lib/credentials/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { credentialIdParam } from '../lib/http/params.ts';
import { routes } from '../lib/http/routes.ts';

export const handler = endpoint(routes.updateCredential, async (call) => ({
  data: await updateCredential({ store: call.store, keyring: keyringFromEnv() }, call.principal.workspace.id, credentialIdParam(call), call.body),
}));
