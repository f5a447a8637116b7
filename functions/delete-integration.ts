import { endpoint } from '../lib/http/endpoint.ts';
import { integrationIdParam } from '../lib/http/params.ts';
import { integrationRoutes } from '../lib/integrations/routes.ts';
import { deleteIntegration } from '../lib/integrations/service.ts';

export const handler = endpoint(integrationRoutes.deleteIntegration, async (call) => ({
  data: await deleteIntegration(call.store, call.principal.workspace.id, integrationIdParam(call), call.auditor),
}));
