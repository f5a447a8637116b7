import { getEntity } from '../lib/entities/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';
import { routes } from '../lib/http/routes.ts';

export const handler = endpoint(routes.getEntity, async (call) => ({
  data: await getEntity(call.store, entityRef(call), { version: call.query.version, detailed: true }),
}));
