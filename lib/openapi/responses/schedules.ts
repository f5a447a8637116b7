/** The answers of a rule's schedule (lib/schedules): as stored, its cron expression and next runs; getEntity shows the stored one too (./entities.ts). */
import { z } from 'zod';
import type { scheduleRoutes } from '../../schedules/routes.ts';
import { scheduleUnits } from '../../vocabulary/schedule.ts';
import { timestamp, type ResponsesOf } from './shared.ts';

export const storedScheduleSchema = z
  .object({
    unit: z.enum(scheduleUnits),
    isEnabled: z.boolean(),
    startAt: z.string().optional().describe('as sent'),
    endAt: z.string().optional().describe('as sent'),
    timezone: z.string().describe('the IANA time zone the spec is read in'),
    spec: z
      .object({ minute: z.string(), hour: z.string(), dayOfMonth: z.string(), month: z.string(), dayOfWeek: z.string() })
      .describe('the cron fields, defaults of the unit applied'),
    inputParam: z.record(z.string(), z.unknown()).describe("the rule's params for every run"),
  })
  .describe('the schedule as stored: the body with every default applied');
export const scheduleExpressionSchema = z
  .string()
  .describe('the cron expression as EventBridge Scheduler is sent it, read in the timezone: cron(0 9 ? * MON-FRI *)');
const scheduleViewSchema = z.object({
  schedule: storedScheduleSchema,
  expression: scheduleExpressionSchema,
  nextRuns: z
    .array(z.object({ local: z.string().datetime({ offset: true }).describe("in the schedule's time zone, with its offset then"), utc: timestamp }))
    .describe('the next three runs; none while the schedule is disabled'),
});
/** What a save with isDelete answers. */
const scheduleDeletedSchema = z.union([
  z.object({ deleted: z.literal(true), schedule: storedScheduleSchema, expression: scheduleExpressionSchema }).describe('the schedule deleted'),
  z.object({ deleted: z.literal(false) }).describe('there was no schedule to delete'),
]);

export const scheduleResponses = {
  saveSchedule: { data: z.union([scheduleViewSchema, scheduleDeletedSchema]) },
  saveScheduleLegacy: { data: z.union([scheduleViewSchema, scheduleDeletedSchema]) },
  getSchedule: { data: scheduleViewSchema },
} satisfies ResponsesOf<typeof scheduleRoutes>;
