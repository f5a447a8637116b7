import { authoringRoutes } from '../lib/authoring/routes.ts';
import { updateEntity } from '../lib/authoring/save.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { actorOf, entityRef } from '../lib/http/params.ts';

export const handler = endpoint(authoringRoutes.updateEntity, async (call) => ({
  data: await updateEntity(call.store, entityRef(call), call.body, actorOf(call), call.auditor),
}));
