import { listCredentials } from '../lib/credentials/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { routes } from '../lib/http/routes.ts';

export const handler = endpoint(routes.listCredentials, ({ query, principal, store }) => listCredentials(store, principal.workspace.id, query));
