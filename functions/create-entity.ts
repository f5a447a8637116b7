import { authoringRoutes } from '../lib/authoring/routes.ts';
import { createEntity } from '../lib/authoring/save.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { actorOf, entityScope } from '../lib/http/params.ts';

export const handler = endpoint(authoringRoutes.createEntity, async (call) => {
  const { saved, created } = await createEntity(call.store, entityScope(call), call.body, actorOf(call), call.auditor);
  return { data: saved, status: created ? 201 : 200 };
});
