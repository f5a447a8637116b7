import { approveChange } from '../lib/changes/service.ts';
import { changeRoutes } from '../lib/changes/routes.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { changeRequestIdParam, entityRef } from '../lib/http/params.ts';

export const handler = endpoint(changeRoutes.approveChange, async (call) => ({
  data: await approveChange(call.store, entityRef(call), changeRequestIdParam(call), call.body?.comment ?? '', call.auditor, call.principal.person),
}));
