import { endpoint } from '../lib/http/endpoint.ts';
import { integrationIdParam } from '../lib/http/params.ts';
import { integrationRoutes } from '../lib/integrations/routes.ts';
import { updateIntegration } from '../lib/integrations/service.ts';

export const handler = endpoint(integrationRoutes.updateIntegration, async (call) => ({
  data: await updateIntegration(call.store, call.principal.workspace.id, integrationIdParam(call), call.body, call.auditor),
}));
