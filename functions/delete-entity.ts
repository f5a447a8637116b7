import { authoringRoutes } from '../lib/authoring/routes.ts';
import { deleteEntity } from '../lib/publishing/delete.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { entityRef } from '../lib/http/params.ts';
import { schedulerFromEnv } from '../lib/schedules/aws-scheduler.ts';

export const handler = endpoint(authoringRoutes.deleteEntity, async (call) => ({
  data: await deleteEntity(call.store, entityRef(call), schedulerFromEnv(), call.auditor),
}));
