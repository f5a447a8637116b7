import { proposeChange } from '../lib/changes/service.ts';
import { changeRoutes } from '../lib/changes/routes.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';

export const handler = endpoint(changeRoutes.proposeChange, async (call) => {
  const { request, created } = await proposeChange(call.store, entityRef(call), call.body, call.auditor);
  return { data: request, status: created ? 201 : 200 };
});
