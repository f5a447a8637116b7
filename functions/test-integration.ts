import { keyringFromEnv } from '../lib/credentials/keyring.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { integrationIdParam } from '../lib/http/params.ts';
import { integrationRoutes } from '../lib/integrations/routes.ts';
import { testIntegration } from '../lib/integrations/service.ts';
import { createOutboundClient } from '../lib/outbound/index.ts';

const outbound = createOutboundClient();

export const handler = endpoint(integrationRoutes.testIntegration, async (call) => ({
  data: await testIntegration(
    { store: call.store, keyring: keyringFromEnv(), send: outbound.send },
    call.principal.workspace.id,
    integrationIdParam(call),
    call.body,
  ),
}));
