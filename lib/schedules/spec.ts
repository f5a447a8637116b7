/**
 * A rule's schedule as the API takes it (in the field names of the platform
 * the spec comes from), checked for what EventBridge Scheduler can express
 * and what can fire at all, and turned into what is stored, the expression
 * Scheduler is sent and the next run times. Pure: the clock and the rule's
 * time zone come in as arguments, so the same body gives the same stored
 * schedule and expression (saving it again changes nothing).
 *
 * `unit` names the repetition; a spec field the body leaves out (or sends as
 * null) takes what the unit implies, as cron's @hourly, @daily, @weekly and
 * @monthly have it:
 *
 *   unit    minute hour dayOfMonth month dayOfWeek
 *   minute  *      *    *          *     *
 *   hour    0      *    *          *     *
 *   day     0      0    *          *     *
 *   week    0      0    *          *     SUN
 *   month   0      0    1          *     *
 *
 * Fields the body gives are cron fields over those defaults (an hour
 * schedule with minute "30" runs at :30 every hour; a minute schedule with
 * minute "*\/15" every quarter hour). A week schedule runs on days of the
 * week and a month schedule on days of the month, so the other day field is
 * refused there; and no schedule may restrict both, which Scheduler's cron
 * cannot express.
 */
import * as z from 'zod/mini';
import { maxExpressionLength, maxFieldLength, monthsWithoutDays, parseField, runTimes, toSchedulerExpression, type CronFields, type CronPlan } from './cron.ts';
import { cronFieldNames, scheduleUnits, type CronFieldName, type ScheduleSpec, type ScheduleUnit, type StoredSchedule } from '../vocabulary/schedule.ts';
import { jsonBoundsProblem } from '../vocabulary/json-bounds.ts';
import { unknownFields } from '../http/queries.ts';
import { checkTimeZone, formatInZone, formatUtc, maxZoneNameLength } from './zone.ts';

const unitDefaults: Record<ScheduleUnit, ScheduleSpec> = {
  minute: { minute: '*', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '*' },
  hour: { minute: '0', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '*' },
  day: { minute: '0', hour: '0', dayOfMonth: '*', month: '*', dayOfWeek: '*' },
  week: { minute: '0', hour: '0', dayOfMonth: '*', month: '*', dayOfWeek: 'SUN' },
  month: { minute: '0', hour: '0', dayOfMonth: '1', month: '*', dayOfWeek: '*' },
};

/** Bounds on inputParam, the rule's params for each run: they travel in every run's event. */
export const inputParamBounds = { maxBytes: 8192, maxDepth: 32 };

/** ISO 8601 date and time with an offset (Z or ±hh:mm), seconds and fractions optional. */
const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;
const firstYear = 1970;
const lastYear = 2199;

/** Strict (/dev/v1): a field it does not know is refused by name. Lenient (the legacy path): such fields are ignored. */
export type BodyMode = 'strict' | 'lenient';

const object = <S extends z.core.$ZodLooseShape>(mode: BodyMode, shape: S, what: string) =>
  mode === 'strict'
    ? z.strictObject(shape, {
        error: (issue) => (issue.code === 'unrecognized_keys' ? unknownFields(issue.keys) : `must be ${what}`),
      })
    : z.object(shape, { error: `must be ${what}` });

const specField = z.nullish(
  z
    .string({ error: 'must be a string such as "5", "*/15", "1-5", "1,15" or "MON-FRI"' })
    .check(z.maxLength(maxFieldLength, { error: `must be at most ${maxFieldLength} characters` })),
);

const dateTime = () =>
  z.nullish(
    z
      .string({ error: 'must be an ISO 8601 date and time with an offset, such as 2026-04-01T09:00:00+02:00' })
      .check(z.maxLength(40, { error: 'must be at most 40 characters' })),
  );

/**
 * The body of a schedule save, strict or lenient (see BodyMode). Optional
 * fields may also be null (as not sent).
 */
const scheduleBody = (mode: BodyMode) =>
  object(
    mode,
    {
      unit: z
        .nullish(z.enum(scheduleUnits, { error: 'must be minute, hour, day, week or month' }))
        .register(z.globalRegistry, { description: 'how often it runs; required unless isDelete is true' }),
      isEnabled: z
        ._default(z.boolean({ error: 'must be true or false' }), true)
        .register(z.globalRegistry, { description: 'false keeps the schedule without running it' }),
      isDelete: z
        ._default(z.boolean({ error: 'must be true or false' }), false)
        .register(z.globalRegistry, { description: 'true deletes the schedule (the other fields are then not used)' }),
      startAt: dateTime().register(z.globalRegistry, { description: 'no run before it' }),
      endAt: dateTime().register(z.globalRegistry, { description: 'no run at or after it' }),
      timezone: z
        .nullish(
          z
            .string({ error: 'must be an IANA time zone name such as "Europe/Berlin"' })
            .check(z.maxLength(maxZoneNameLength, { error: `must be at most ${maxZoneNameLength} characters` })),
        )
        .register(z.globalRegistry, { description: "the IANA time zone the spec is read in; the rule's settings.timezone when absent, else UTC" }),
      spec: z
        .nullish(
          object(
            mode,
            { minute: specField, hour: specField, dayOfMonth: specField, month: specField, dayOfWeek: specField },
            'an object of minute, hour, dayOfMonth, month and dayOfWeek',
          ),
        )
        .register(z.globalRegistry, {
          description:
            'cron fields over what the unit implies (an hour schedule with minute "30" runs at :30 every hour); restrict dayOfMonth or dayOfWeek, not both',
        }),
      inputParam: z
        .nullish(
          z.record(z.string(), z.unknown(), { error: "must be a JSON object (the rule's params for each run)" }).check(
            z.superRefine((value, ctx) => {
              const problem = jsonBoundsProblem(value, inputParamBounds);
              if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
            }),
          ),
        )
        .register(z.globalRegistry, {
          description: `the rule's params for every run, checked against its declared inputs when saved; {} when absent (at most ${inputParamBounds.maxBytes} bytes as JSON, nested at most ${inputParamBounds.maxDepth} levels)`,
        }),
    },
    'a JSON object',
  );

export const scheduleBodySchema = scheduleBody('strict');
export const legacyScheduleBodySchema = scheduleBody('lenient');
export type ScheduleBody = z.output<typeof scheduleBodySchema>;

export interface PreparedSchedule {
  schedule: StoredSchedule;
  /** As EventBridge Scheduler is sent it: cron(0 9 ? * MON-FRI *). */
  expression: string;
}

export interface ScheduleIssue {
  /** Path in the body: unit, spec.dayOfMonth, endAt. */
  field: string;
  message: string;
}

export type PrepareResult = { ok: true; isDelete: true } | { ok: true; isDelete: false; prepared: PreparedSchedule } | { ok: false; issues: ScheduleIssue[] };

export interface PrepareContext {
  /** Epoch ms: a schedule must have a run after it. */
  now: number;
  /** The rule's settings.timezone, taken when the body has none. */
  defaultTimezone?: string;
}

/** Epoch ms of an ISO 8601 date-time with offset, or why it is not one. */
function parseDateTime(text: string): { at: number } | { problem: string } {
  const m = dateTimePattern.exec(text);
  const problem = 'must be an ISO 8601 date and time with an offset, such as 2026-04-01T09:00:00+02:00 or 2026-04-01T07:00:00Z';
  if (!m) return { problem };
  const [year, month, day, hour, minute, second = '0', , offsetHours = '0', offsetMinutes = '0'] = m.slice(1) as (string | undefined)[];
  const y = Number(year),
    mo = Number(month),
    d = Number(day),
    h = Number(hour),
    mi = Number(minute),
    s = Number(second);
  const valid =
    mo >= 1 &&
    mo <= 12 &&
    d >= 1 &&
    d <= new Date(Date.UTC(y, mo, 0)).getUTCDate() &&
    h <= 23 &&
    mi <= 59 &&
    s <= 59 &&
    Number(offsetHours) <= 23 &&
    Number(offsetMinutes) <= 59;
  if (!valid) return { problem: `${problem} (no such date or time)` };
  if (y < firstYear || y > lastYear) return { problem: `must be in the years ${firstYear} to ${lastYear}` };
  return { at: Date.parse(text) };
}

/** The fields of a stored spec (which were checked when it was stored). */
export function specFields(spec: ScheduleSpec): CronFields {
  const fields: Partial<Record<CronFieldName, number[] | undefined>> = {};
  for (const name of cronFieldNames) {
    const parsed = parseField(name, spec[name], 'platform');
    if ('problem' in parsed) throw new Error(`stored spec.${name} "${spec[name]}" is not valid: ${parsed.problem}`);
    fields[name] = parsed.values;
  }
  return fields as CronFields;
}

/** The stored schedule in time: its fields, zone and bounds. */
export const planOf = (schedule: StoredSchedule): CronPlan => ({
  fields: specFields(schedule.spec),
  timezone: schedule.timezone,
  ...(schedule.startAt && { startAt: Date.parse(schedule.startAt) }),
  ...(schedule.endAt && { endAt: Date.parse(schedule.endAt) }),
});

/** Checks a parsed body and turns it into the stored schedule and Scheduler's expression, or the reasons it cannot be saved. */
export function prepareSchedule(body: ScheduleBody, context: PrepareContext): PrepareResult {
  if (body.isDelete) return { ok: true, isDelete: true };
  const issues: ScheduleIssue[] = [];
  const issue = (field: string, message: string) => issues.push({ field, message });

  const unit = body.unit;
  if (!unit) issue('unit', 'is required: minute, hour, day, week or month');

  const zoneName = body.timezone ?? context.defaultTimezone ?? 'UTC';
  const zone = checkTimeZone(zoneName);
  if ('problem' in zone)
    issue('timezone', body.timezone == null ? `is not given, and the rule's settings.timezone ${zone.problem}: send a timezone` : zone.problem);

  const spec = { ...unitDefaults[unit ?? 'minute'] };
  for (const name of cronFieldNames) spec[name] = body.spec?.[name] ?? spec[name];
  const fields: Partial<Record<CronFieldName, number[] | undefined>> = {};
  let fieldsValid = true;
  for (const name of cronFieldNames) {
    const parsed = parseField(name, spec[name], 'platform');
    if ('problem' in parsed) {
      fieldsValid = false;
      issue(`spec.${name}`, parsed.problem);
    } else fields[name] = parsed.values;
  }
  if (fieldsValid && unit) {
    const { dayOfMonth, dayOfWeek } = fields as CronFields;
    if (unit === 'week' && dayOfMonth)
      issue('spec.dayOfMonth', 'a week schedule runs on days of the week (spec.dayOfWeek): leave dayOfMonth out or *, or use unit month');
    else if (unit === 'month' && dayOfWeek)
      issue('spec.dayOfWeek', 'a month schedule runs on days of the month (spec.dayOfMonth): leave dayOfWeek out or *, or use unit week');
    else if (dayOfMonth && dayOfWeek)
      issue(
        'spec.dayOfWeek',
        `cannot be restricted together with spec.dayOfMonth ("${spec.dayOfMonth}"): EventBridge Scheduler's cron needs ? in one of the two, so it cannot run on, say, Friday the 13th; restrict only one`,
      );
    else if (monthsWithoutDays(fields as CronFields).length === (fields.month as number[]).length)
      issue('spec.dayOfMonth', `"${spec.dayOfMonth}" never falls in the months of spec.month ("${spec.month}"): the schedule could never run`);
  }

  const bound = (field: 'startAt' | 'endAt') => {
    const text = body[field];
    if (text == null) return undefined;
    const parsed = parseDateTime(text);
    if ('problem' in parsed) issue(field, parsed.problem);
    return 'at' in parsed ? parsed.at : undefined;
  };
  const startAt = bound('startAt');
  const endAt = bound('endAt');
  if (endAt !== undefined && startAt !== undefined && endAt <= startAt) issue('endAt', 'must be after startAt');
  else if (endAt !== undefined && endAt <= context.now) issue('endAt', 'is in the past: the schedule could never run (delete it instead)');

  if (issues.length || !unit || 'problem' in zone) return { ok: false, issues };

  const cronFields = fields as CronFields;
  const expression = toSchedulerExpression(cronFields);
  // A guard: five fields within their bounds write at most about 200 characters.
  if (expression.length > maxExpressionLength)
    return {
      ok: false,
      issues: [
        {
          field: 'spec',
          message: `is too long as Scheduler's expression (${expression.length} characters, at most ${maxExpressionLength}): use ranges or steps instead of long lists`,
        },
      ],
    };

  const schedule: StoredSchedule = {
    unit,
    isEnabled: body.isEnabled,
    ...(body.startAt != null && { startAt: body.startAt }),
    ...(body.endAt != null && { endAt: body.endAt }),
    timezone: zone.zone,
    spec,
    inputParam: body.inputParam ?? {},
  };
  if (runTimes(planOf(schedule), context.now, 1).length === 0)
    return {
      ok: false,
      issues: [
        endAt !== undefined
          ? { field: 'endAt', message: `no run of the schedule falls between ${startAt !== undefined && startAt > context.now ? 'startAt' : 'now'} and endAt` }
          : { field: 'spec', message: `the schedule has no run before ${lastYear + 1}` },
      ],
    };
  return { ok: true, isDelete: false, prepared: { schedule, expression } };
}

const fieldPath = (path: readonly PropertyKey[]) =>
  path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`)).join('') || 'body';

/** The body as the API receives it (parsed JSON): its shape, then what prepareSchedule checks. */
export function parseScheduleBody(body: unknown, context: PrepareContext): PrepareResult {
  const parsed = z.safeParse(scheduleBodySchema, body);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => ({ field: fieldPath(i.path), message: i.message })) };
  return prepareSchedule(parsed.data, context);
}

export interface RunTime {
  /** In the schedule's time zone, with its offset then: 2026-03-30T02:30:00+02:00. */
  local: string;
  /** 2026-03-30T00:30:00Z */
  utc: string;
}

/** The schedule's next `count` runs after `now`, within startAt and endAt (Scheduler's DST behaviour: see zone.ts). */
export const nextRuns = (schedule: StoredSchedule, now: number, count = 3): RunTime[] =>
  runTimes(planOf(schedule), now, count).map((at) => ({ local: formatInZone(schedule.timezone, at), utc: formatUtc(at) }));

/** A success's data: the stored schedule, its expression as Scheduler is sent it, and its next three runs (none while it is disabled). */
export const scheduleView = (prepared: PreparedSchedule, now: number) => ({
  schedule: prepared.schedule,
  expression: prepared.expression,
  nextRuns: prepared.schedule.isEnabled ? nextRuns(prepared.schedule, now) : [],
});
