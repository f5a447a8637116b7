import { listEntities } from '../lib/entities/list.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { entityScope } from '../lib/http/params.ts';
import { routes } from '../lib/http/routes.ts';

export const handler = endpoint(routes.listEntities, (call) => listEntities(call.store, entityScope(call), call.query));
