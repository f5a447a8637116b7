import { keyringFromEnv } from '../lib/credentials/keyring.ts';
import { testCredential } from '../lib/credentials/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { credentialIdParam } from '../lib/http/params.ts';
import { credentialRoutes } from '../lib/credentials/routes.ts';
import { createOutboundClient } from '../lib/outbound/index.ts';

const outbound = createOutboundClient();

export const handler = endpoint(credentialRoutes.testCredential, async (call) => ({
  data: await testCredential(
    { store: call.store, keyring: keyringFromEnv(), send: outbound.send },
    call.principal.workspace.id,
    credentialIdParam(call),
    call.body,
  ),
}));
