import { getChangeRequest } from '../lib/changes/service.ts';
import { changeRoutes } from '../lib/changes/routes.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { changeRequestIdParam, entityRef } from '../lib/http/params.ts';

export const handler = endpoint(changeRoutes.getChangeRequest, async (call) => ({
  data: await getChangeRequest(call.store, entityRef(call), changeRequestIdParam(call)),
}));
