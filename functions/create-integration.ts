import { endpoint } from '../lib/http/endpoint.ts';
import { integrationRoutes } from '../lib/integrations/routes.ts';
import { createIntegration } from '../lib/integrations/service.ts';

export const handler = endpoint(integrationRoutes.createIntegration, async ({ body, principal, store, auditor }) => {
  const { integration, created } = await createIntegration(store, principal.workspace.id, body, { auditor });
  return { data: integration, status: created ? 201 : 200 };
});
