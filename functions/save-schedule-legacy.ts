import { endpoint } from '../lib/http/endpoint.ts';
import { scheduleRef } from '../lib/http/params.ts';
import { schedulerFromEnv } from '../lib/schedules/aws-scheduler.ts';
import { scheduleRoutes } from '../lib/schedules/routes.ts';
import { saveSchedule } from '../lib/schedules/service.ts';

export const handler = endpoint(scheduleRoutes.saveScheduleLegacy, async (call) => ({
  data: await saveSchedule(call.store, schedulerFromEnv(), scheduleRef(call), call.body, call.auditor),
}));
