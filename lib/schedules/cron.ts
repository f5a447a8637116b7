/**
 * Cron semantics shared by the API, the AWS adapter and the local runtime.
 *
 * A schedule's five fields are parsed into sets of values, and everything
 * else is derived from the sets: EventBridge Scheduler's six-field
 * expression (canonical, so equal schedules give equal expressions), the
 * five-field pattern croner enumerates wall-clock matches with, and the
 * instants those wall-clock times name in the schedule's time zone (zone.ts:
 * skipped in the spring gap, once in the autumn overlap, as Scheduler does).
 * The local runtime parses the expression Scheduler was sent back into the
 * same sets, so it fires on exactly what was deployed.
 *
 * Two dialects differ only in day-of-week numbers: the platform's fields
 * are Unix cron's (0 and 7 Sunday, 1 Monday … 6 Saturday); Scheduler's are
 * 1 Sunday … 7 Saturday. Scheduler's expressions are written with day names,
 * so no number crosses between the two.
 */
import { Cron } from 'croner';
import { cronFieldNames, type CronFieldName } from '../vocabulary/schedule.ts';
import { instantOf, wallClockAt } from './zone.ts';

/** Each field's values, ascending; day of week 0 (Sunday) to 6. A day field that is undefined is unrestricted (`*` or `?`). */
export interface CronFields {
  minute: number[];
  hour: number[];
  dayOfMonth?: number[];
  month: number[];
  dayOfWeek?: number[];
}

export type CronDialect = 'platform' | 'scheduler';

const monthNames = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const dayNames = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface FieldRule {
  min: number;
  max: number;
  /** What its values are, for messages. */
  what: string;
  names?: string[];
  /** The number of the first name (JAN is 1; SUN is 0 in the platform's numbering, 1 in Scheduler's). */
  nameBase?: number;
}

function fieldRule(field: CronFieldName, dialect: CronDialect): FieldRule {
  switch (field) {
    case 'minute':
      return { min: 0, max: 59, what: 'minutes are 0-59' };
    case 'hour':
      return { min: 0, max: 23, what: 'hours are 0-23' };
    case 'dayOfMonth':
      return { min: 1, max: 31, what: 'days of the month are 1-31' };
    case 'month':
      return { min: 1, max: 12, what: 'months are 1-12 or JAN-DEC', names: monthNames, nameBase: 1 };
    case 'dayOfWeek':
      return dialect === 'platform'
        ? { min: 0, max: 7, what: 'days of the week are 0-7 (0 and 7 are Sunday) or SUN-SAT', names: dayNames, nameBase: 0 }
        : { min: 1, max: 7, what: 'days of the week are 1-7 (1 is Sunday) or SUN-SAT', names: dayNames, nameBase: 1 };
  }
}

/** Longest text a field may be: room for a list of every minute. */
export const maxFieldLength = 200;

/** A field's values, or why the text is not one. `undefined` values: an unrestricted day field. */
export type FieldParse = { values: number[] | undefined } | { problem: string };

/**
 * One field: `*`, `?` (day fields), a value (`5`, `MON`, `JAN`), a range
 * (`1-5`, `MON-FRI`), a step over all values, a range or from a value
 * (`*\/15`, `0-30/10`, `5/15`: 5, 20, 35, 50), and comma lists of those.
 * A range runs upwards (FRI-MON is refused: write FRI-SAT,SUN). Names are
 * case-insensitive. `L`, `W` and `#` are not supported.
 */
export function parseField(field: CronFieldName, text: string, dialect: CronDialect): FieldParse {
  const rule = fieldRule(field, dialect);
  const dayField = field === 'dayOfMonth' || field === 'dayOfWeek';
  if (text.length === 0) return { problem: 'must not be empty' };
  if (text.length > maxFieldLength) return { problem: `must be at most ${maxFieldLength} characters` };
  if (/\s/.test(text)) return { problem: 'must not contain spaces' };
  if (/[LW#]/i.test(text.replace(/[A-Z]{3}/gi, (name) => (rule.names?.includes(name.toUpperCase()) ? '' : name))))
    return { problem: `"${text}": L, W and # are not supported (use *, ?, values, ranges, steps and lists)` };
  if (text === '?') return dayField ? { values: undefined } : { problem: '? is only for dayOfMonth and dayOfWeek' };
  if (text === '*') return { values: dayField ? undefined : range(rule.min, rule.max, 1) };

  const value = (token: string): number | string => {
    let n: number;
    if (/^\d{1,2}$/.test(token)) n = Number(token);
    else {
      const index = rule.names?.indexOf(token.toUpperCase()) ?? -1;
      if (index < 0) return `"${token}" is not a value: ${rule.what}`;
      n = index + rule.nameBase!;
    }
    if (n < rule.min || n > rule.max) return `${token} is out of range: ${rule.what}`;
    return n;
  };

  const values = new Set<number>();
  for (const item of text.split(',')) {
    const match = /^([^/-]+)(?:-([^/-]+))?(?:\/(\d{1,2}))?$/.exec(item);
    if (!match) return { problem: `"${item}" is not a value, range or step (such as 5, 1-5, */15 or MON-FRI)` };
    const [, startText, endText, stepText] = match as unknown as [string, string, string | undefined, string | undefined];
    let start: number, end: number;
    if (startText === '*' || startText === '?') {
      if (startText === '?' || endText !== undefined || (text.includes(',') && stepText === undefined))
        return { problem: `"${item}": ${startText === '?' ? '? stands alone' : '* stands alone, or as */step'}` };
      start = rule.min;
      end = rule.max;
    } else {
      const first = value(startText);
      if (typeof first === 'string') return { problem: first };
      start = first;
      if (endText !== undefined) {
        const last = value(endText);
        if (typeof last === 'string') return { problem: last };
        if (last < start) return { problem: `"${item}" runs backwards: a range goes from the smaller value to the larger (write it as two ranges)` };
        end = last;
      } else end = stepText === undefined ? start : rule.max;
    }
    const span = rule.max - rule.min;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1 || step > span) return { problem: `"${item}": a step must be from 1 to ${span}` };
    for (const n of range(start, end, step)) values.add(field === 'dayOfWeek' ? toSunday0(n, dialect) : n);
  }
  const sorted = [...values].sort((a, b) => a - b);
  // A day field that covers every day restricts nothing: `1-31` is `*`, and `?` can go in it.
  if (dayField && sorted.length === (field === 'dayOfMonth' ? 31 : 7)) return { values: undefined };
  return { values: sorted };
}

const toSunday0 = (n: number, dialect: CronDialect) => (dialect === 'platform' ? n % 7 : n - 1);

function range(start: number, end: number, step: number): number[] {
  const out: number[] = [];
  for (let n = start; n <= end; n += step) out.push(n);
  return out;
}

/** Longest day each month has (February: 29, in leap years). */
const monthLength = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Months of `month` that have none of the days of `dayOfMonth`: all of them means the schedule can never fire. */
export const monthsWithoutDays = (fields: Pick<CronFields, 'dayOfMonth' | 'month'>): number[] =>
  fields.dayOfMonth ? fields.month.filter((m) => !fields.dayOfMonth!.some((d) => d <= monthLength[m - 1]!)) : [];

/**
 * A set as Scheduler's field text: `*` for every value, `a/n` for a step
 * that runs to the field's end (three values at least), else ranges and
 * values in a list.
 */
function schedulerField(values: number[], min: number, max: number, name?: (n: number) => string): string {
  if (values.length === max - min + 1) return '*';
  const label = name ?? String;
  if (!name && values.length >= 3) {
    const step = values[1]! - values[0]!;
    const progression = values.every((v, i) => v === values[0]! + i * step);
    if (progression && step > 1 && values.at(-1)! + step > max) return `${values[0]}/${step}`;
  }
  const parts: string[] = [];
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j]! + 1) j++;
    parts.push(j > i ? `${label(values[i]!)}-${label(values[j]!)}` : label(values[i]!));
    i = j + 1;
  }
  return parts.join(',');
}

/** Scheduler's limit on ScheduleExpression. */
export const maxExpressionLength = 256;

/**
 * EventBridge Scheduler's `cron(minutes hours day-of-month month day-of-week year)`:
 * `?` in the day field that is not restricted (day-of-week when neither is),
 * days of the week by name, year `*` (start and end dates bound it instead).
 * Both day fields restricted cannot be written (Scheduler needs `?` in one).
 */
export function toSchedulerExpression(fields: CronFields): string {
  if (fields.dayOfMonth && fields.dayOfWeek) throw new Error('Scheduler cannot restrict both day of month and day of week');
  const minute = schedulerField(fields.minute, 0, 59);
  const hour = schedulerField(fields.hour, 0, 23);
  const month = schedulerField(fields.month, 1, 12);
  const dayOfMonth = fields.dayOfWeek ? '?' : fields.dayOfMonth ? schedulerField(fields.dayOfMonth, 1, 31) : '*';
  const dayOfWeek = fields.dayOfWeek ? schedulerField(fields.dayOfWeek, 0, 6, (n) => dayNames[n]!) : '?';
  return `cron(${minute} ${hour} ${dayOfMonth} ${month} ${dayOfWeek} *)`;
}

/**
 * The fields of a Scheduler cron expression in the forms toSchedulerExpression
 * writes, and the platform's forms in Scheduler's numbering; anything else
 * (rate(), at(), L, W, #, a year other than `*`) is refused with why.
 */
export function parseSchedulerExpression(expression: string): { fields: CronFields } | { problem: string } {
  const match = /^cron\((\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\)$/.exec(expression);
  if (!match) return { problem: `"${expression}" is not cron(minutes hours day-of-month month day-of-week year)` };
  const [, ...texts] = match as unknown as [string, string, string, string, string, string, string];
  if (texts[5] !== '*') return { problem: `the year field must be * (here "${texts[5]}")` };
  const fields: Partial<Record<CronFieldName, number[] | undefined>> = {};
  for (const [i, name] of cronFieldNames.entries()) {
    const parsed = parseField(name, texts[i]!, 'scheduler');
    if ('problem' in parsed) return { problem: `${name}: ${parsed.problem}` };
    fields[name] = parsed.values;
  }
  if ((texts[2] === '?') === (texts[4] === '?')) return { problem: 'one of day-of-month and day-of-week must be ?, and only one' };
  return { fields: fields as CronFields };
}

/** The same schedule as a five-field Unix cron pattern in numbers, for croner (which reads `*` in a day field as "no restriction"). */
export function cronerPattern(fields: CronFields): string {
  const list = (values: number[] | undefined, full: number) => (!values || values.length === full ? '*' : values.join(','));
  return [list(fields.minute, 60), list(fields.hour, 24), list(fields.dayOfMonth, 31), list(fields.month, 12), list(fields.dayOfWeek, 7)].join(' ');
}

/** A schedule in time: its fields, the zone they are read in, and the instants it may run between. */
export interface CronPlan {
  fields: CronFields;
  timezone: string;
  /** Epoch ms: no run before it. */
  startAt?: number;
  /** Epoch ms: every run before it. */
  endAt?: number;
}

/** Scheduler's cron years end with 2199. */
const lastInstant = Date.UTC(2200, 0, 1);
const matchers = new Map<string, Cron>();

/**
 * The plan's next `count` runs after `after` (epoch ms, exclusive), at or
 * after its start and before its end: croner walks the wall-clock times that
 * match (on a clock without time zones), and each becomes the instant it
 * names in the zone, or none in a spring gap (zone.ts).
 */
export function runTimes(plan: CronPlan, after: number, count: number): number[] {
  const pattern = cronerPattern(plan.fields);
  let matcher = matchers.get(pattern);
  if (!matcher) {
    matcher = new Cron(pattern, { utcOffset: 0, mode: '5-part', paused: true });
    if (matchers.size > 1000) matchers.clear();
    matchers.set(pattern, matcher);
  }
  const from = plan.startAt === undefined ? after : Math.max(after, plan.startAt - 1);
  const until = Math.min(plan.endAt ?? lastInstant, lastInstant);
  const runs: number[] = [];
  let wall = wallClockAt(plan.timezone, from);
  // A wall-clock time maps to an instant no later than any later wall-clock time does,
  // so the walk can stop at the first instant past the end.
  for (let steps = 0; runs.length < count && steps < 10_000; steps++) {
    const next = matcher.nextRun(new Date(wall));
    if (!next) break;
    wall = next.getTime();
    const instant = instantOf(plan.timezone, wall);
    if (instant === undefined || instant <= from) continue;
    if (instant >= until) break;
    runs.push(instant);
  }
  return runs;
}
