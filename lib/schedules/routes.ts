/**
 * A rule's schedule: save (or delete) and read it. Beside the entity
 * operations' paths, for both entity types, so that a workflow gets the
 * answer that it cannot be scheduled (schedule_not_supported) rather than
 * "no such path". Apart from the rule-running routes, so that only these
 * functions bundle the body schema and the Scheduler client.
 */
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { legacyScheduleBodySchema, scheduleBodySchema } from './spec.ts';

const save = {
  method: 'POST',
  branch: 'optional',
  query: emptyQuery,
  tableAccess: 'readWrite',
  schedulerAccess: true,
} as const;

const saved =
  "Answers the schedule as stored (every default applied), its cron expression as EventBridge Scheduler is sent it, and its next three runs in the schedule's time zone and in UTC (none while disabled). The body is checked whole: each field at fault is named with why. The rule must have a published version (409 rule_not_published): each run executes the latest one, with inputParam as its params, and is recorded (trigger schedule). One schedule per rule and branch: saving replaces it, and saving what is stored changes nothing. With isDelete true, deletes it: `deleted` says whether there was one, so deleting again answers 200 too. Workflows are not scheduled (400 schedule_not_supported).";

export const scheduleRoutes = {
  saveSchedule: {
    ...save,
    operationId: 'saveSchedule',
    permission: 'write',
    path: '/dev/v1/{entityType}/{entityId}/schedule',
    handler: 'save-schedule',
    summary: "Save or delete a rule's schedule",
    description: saved,
    body: scheduleBodySchema,
  },
  saveScheduleLegacy: {
    ...save,
    operationId: 'saveScheduleLegacy',
    permission: 'write',
    path: '/dev/{entityType}/{entityId}/schedule',
    handler: 'save-schedule-legacy',
    summary: "Save or delete a rule's schedule (legacy path)",
    description: `${saved} Kept for existing clients, it ignores body fields it does not know: use saveSchedule (/dev/v1), which refuses them.`,
    deprecated: true,
    body: legacyScheduleBodySchema,
  },
  getSchedule: {
    method: 'GET',
    branch: 'optional',
    query: emptyQuery,
    operationId: 'getSchedule',
    permission: 'read',
    path: '/dev/v1/{entityType}/{entityId}/schedule',
    handler: 'get-schedule',
    summary: "Get a rule's schedule with its next runs",
    description:
      "The rule's schedule as stored, its cron expression as EventBridge Scheduler is sent it, and its next three runs in the schedule's time zone and in UTC (none while disabled); 404 schedule_not_found when the rule has none. Its runs are listed by listExecutions.",
    tableAccess: 'read',
  },
} satisfies Record<string, Route>;
