import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';
import { exportEntity } from '../lib/interchange/transfer.ts';
import { interchangeRoutes } from '../lib/interchange/routes.ts';

const route = interchangeRoutes.exportRule;

export const handler = endpoint(route, async (call) => {
  const { format, version, dmnVersion } = call.query;
  const file = await exportEntity(call.store, entityRef(call, route.entityTypes), format, version, { dmnVersion });
  return { file: { contentType: file.contentType, body: file.body, headers: { 'content-disposition': `attachment; filename="${file.fileName}"` } } };
});
