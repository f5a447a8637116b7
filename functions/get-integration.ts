import { endpoint } from '../lib/http/endpoint.ts';
import { integrationIdParam } from '../lib/http/params.ts';
import { integrationRoutes } from '../lib/integrations/routes.ts';
import { getIntegration, toView } from '../lib/integrations/service.ts';

export const handler = endpoint(integrationRoutes.getIntegration, async (call) => ({
  data: toView(await getIntegration(call.store, call.principal.workspace.id, integrationIdParam(call))),
}));
