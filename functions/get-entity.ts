import { getEntity } from '../lib/entities/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';
import { entityRoutes } from '../lib/entities/routes.ts';

export const handler = endpoint(entityRoutes.getEntity, async (call) => ({
  data: await getEntity(call.store, entityRef(call), { version: call.query.version, detailed: true }),
}));
