import { endpoint } from '../lib/http/endpoint.ts';
import { scheduleRef } from '../lib/http/params.ts';
import { scheduleRoutes } from '../lib/schedules/routes.ts';
import { getSchedule } from '../lib/schedules/service.ts';

export const handler = endpoint(scheduleRoutes.getSchedule, async (call) => ({ data: await getSchedule(call.store, scheduleRef(call)) }));
