/**
 * Wall-clock time in an IANA time zone, as EventBridge Scheduler reads a cron
 * schedule's fields there. The offsets are the engine's
 * (lib/engine/feel/time-zones.ts), the one computation FEEL uses too, and so
 * is its rule for a wall time the autumn change repeats: the first of its two
 * instants (the earlier, still on summer time). Scheduler's schedule "runs
 * only once and doesn't repeat its invocation" then; the first occurrence is
 * our reading of "once", and the one a run stays on when its time comes. A
 * wall time the spring change skips is where Scheduler differs from the rule,
 * which moves it forward by the gap (02:30 would run at 03:30): "your schedule
 * invocation gets skipped if the cron expression falls on a non-existent date
 * and time" (AWS, https://repost.aws/knowledge-center/eventbridge-scheduler-adjust-dst;
 * the user guide's "Daylight savings time on EventBridge Scheduler",
 * https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html#daylist-savings-time),
 * so instantOf names no instant for it.
 */
import { offsetAtInstant, offsetAtWallClock } from '../engine/feel/time-zones.ts';

const minuteMs = 60_000;

/** How a name may be spelled: IANA names and aliases (Europe/Berlin, America/Argentina/Buenos_Aires, Etc/GMT+5, UTC); not offsets such as +01:00. */
const zoneNamePattern = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9][A-Za-z0-9_+-]*)*$/;

/** Scheduler's limit on ScheduleExpressionTimezone. */
export const maxZoneNameLength = 50;

/**
 * The name as the schedule keeps it, or why it is not a time zone. A name
 * the runtime knows in another letter case takes its spelling
 * ("europe/berlin" becomes "Europe/Berlin"); an alias stays as written
 * ("US/Eastern" is not rewritten to "America/New_York"), since which alias
 * Intl resolves to differs between Node versions.
 */
export function checkTimeZone(name: string): { zone: string } | { problem: string } {
  if (name.length === 0 || name.length > maxZoneNameLength || !zoneNamePattern.test(name))
    return {
      problem: `"${name}" is not an IANA time zone name such as "Europe/Berlin" or "UTC" (letters, digits, "/", "_", "+", "-", at most ${maxZoneNameLength} characters)`,
    };
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return { problem: `"${name}" is not a time zone this service knows (an IANA name such as "Europe/Berlin" or "UTC")` };
  }
  return { zone: resolved !== name && resolved.toLowerCase() === name.toLowerCase() ? resolved : name };
}

/** The zone's offset from UTC at `instant`, in milliseconds (+3 600 000 for Berlin in winter). */
export const offsetAt = (zone: string, instant: number): number => offsetAtInstant(zone, instant / 1000) * 1000;

/** The wall-clock time at `instant`, as milliseconds on a clock without time zones (the UTC fields of the result are the wall-clock fields). */
export const wallClockAt = (zone: string, instant: number): number => instant + offsetAt(zone, instant);

/** The instant a wall-clock time names in the zone: the first of the two when a change back repeats it, none when a change to summer time skips it. */
export function instantOf(zone: string, wall: number): number | undefined {
  const instant = wall - offsetAtWallClock(zone, wall / 1000) * 1000;
  // The engine's rule moves a skipped time forward by the gap, so its instant shows another wall-clock time: Scheduler skips it.
  return wallClockAt(zone, instant) === wall ? instant : undefined;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO 8601 with the zone's offset at that instant, to the second: 2026-03-30T02:30:00+02:00. */
export function formatInZone(zone: string, instant: number): string {
  const offset = offsetAt(zone, instant);
  const wall = new Date(instant + offset);
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(offset) / minuteMs;
  return (
    `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
    `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
  );
}

/** ISO 8601 in UTC to the second, as Scheduler writes <aws.scheduler.scheduled-time>: 2026-03-30T00:30:00Z. */
export const formatUtc = (instant: number): string => new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z');
