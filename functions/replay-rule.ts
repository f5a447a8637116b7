import { endpoint } from '../lib/http/endpoint.ts';
import { replayRef } from '../lib/http/params.ts';
import { replayRoutes } from '../lib/replay/routes.ts';
import { startReplay } from '../lib/replay/start.ts';
import { queueFromEnv } from '../lib/tasks/queue.ts';

export const handler = endpoint(replayRoutes.replayRule, async (call) => ({
  status: 202,
  data: await startReplay({ store: call.store, queue: queueFromEnv() }, replayRef(call), call.body),
}));
