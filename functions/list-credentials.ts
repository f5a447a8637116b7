import { listCredentials } from '../lib/credentials/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { credentialRoutes } from '../lib/credentials/routes.ts';

export const handler = endpoint(credentialRoutes.listCredentials, ({ query, principal, store }) => listCredentials(store, principal.workspace.id, query));
