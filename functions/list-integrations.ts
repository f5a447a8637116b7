import { endpoint } from '../lib/http/endpoint.ts';
import { integrationRoutes } from '../lib/integrations/routes.ts';
import { listIntegrations } from '../lib/integrations/service.ts';

export const handler = endpoint(integrationRoutes.listIntegrations, ({ query, principal, store }) => listIntegrations(store, principal.workspace.id, query));
