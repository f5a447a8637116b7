/**
 * A rule's schedule as it is stored: the names of its repetition units and
 * cron fields, and the stored shape. The store keeps it and lib/schedules
 * makes it (lib/schedules/spec.ts checks a body and turns it into this).
 */

export const scheduleUnits = ['minute', 'hour', 'day', 'week', 'month'] as const;
export type ScheduleUnit = (typeof scheduleUnits)[number];

export const cronFieldNames = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;
export type CronFieldName = (typeof cronFieldNames)[number];

export type ScheduleSpec = Record<CronFieldName, string>;

/** What is stored for a rule's schedule on a branch: the body with every default applied, in a fixed key order. */
export interface StoredSchedule {
  unit: ScheduleUnit;
  isEnabled: boolean;
  /** As the body gave it (ISO 8601 with offset). */
  startAt?: string;
  endAt?: string;
  /** IANA name: the body's, else the rule's settings.timezone, else UTC. */
  timezone: string;
  spec: ScheduleSpec;
  inputParam: Record<string, unknown>;
}
