import { listEntities } from '../lib/entities/list.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { entityScope } from '../lib/http/params.ts';
import { entityRoutes } from '../lib/entities/routes.ts';

export const handler = endpoint(entityRoutes.listEntitiesLegacy, (call) => listEntities(call.store, entityScope(call), call.query));
