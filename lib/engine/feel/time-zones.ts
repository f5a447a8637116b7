/**
 * Offsets of IANA time zones, in one place for FEEL's dates and times (temporal.ts) and the schedules' cron times
 * (lib/schedules/zone.ts): the offset a zone has at an instant, and the offset that gives a wall-clock date and time
 * in the zone its instant. Only the platform's Intl data is read (the tz database the runtime carries), so the engine
 * stays pure.
 *
 * The rule for a wall-clock time that a change of offset skips or repeats is java.time's (ZonedDateTime.of), which
 * the Java FEEL engines share:
 * - skipped (the gap of a spring change): the offset before the gap, so the time moves forward by the gap's length
 *   (02:30 in New York on the spring day is 07:30 UTC, 03:30 on the clock; 02:15 at Lord Howe, 30 minutes later);
 * - repeated (the overlap of an autumn change): the earlier of its two instants, still on the offset before the
 *   change (01:30 in New York on the autumn day is 05:30 UTC, on summer time).
 *
 * Times are seconds since 1970-01-01 within a Date's range (about ±275,760 years): FEEL brings the years beyond it
 * into the range itself, as the calendar and the zones' rules repeat there.
 */

const SECONDS_PER_DAY = 86_400;

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(zone: string): Intl.DateTimeFormat | undefined {
  let format = zoneFormats.get(zone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      });
    } catch {
      return undefined;
    }
    zoneFormats.set(zone, format);
  }
  return format;
}

export const isTimeZone = (zone: string) => zoneFormat(zone) !== undefined;

/** The offset (seconds east of UTC) that `zone` has at `instant`, in seconds since the epoch. */
export function offsetAtInstant(zone: string, instant: number): number {
  const parts = Object.fromEntries(
    zoneFormat(zone)!
      .formatToParts(new Date(instant * 1000))
      .map((p) => [p.type, p.value]),
  );
  const wall = new Date(0);
  // Set field by field, as Date.UTC reads the years 0 to 99 as 1900 to 1999.
  wall.setUTCFullYear(parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year), Number(parts.month) - 1, Number(parts.day));
  wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall.getTime() / 1000 - Math.floor(instant);
}

/**
 * The offset that, by the rule above, gives the wall-clock time `wall` (seconds since the epoch on a clock without
 * zones) its instant in `zone`: `wall` less the offset. Assumes at most one change of offset within a day either
 * side, as every zone has it.
 */
export function offsetAtWallClock(zone: string, wall: number): number {
  // The offsets in force a day before and a day after: those that map the wall-clock time back to themselves fit it.
  const before = offsetAtInstant(zone, wall - SECONDS_PER_DAY);
  const after = offsetAtInstant(zone, wall + SECONDS_PER_DAY);
  const fits = [before, after].filter((offset) => offsetAtInstant(zone, wall - offset) === offset);
  // Both fit when the clock repeats: the larger offset is the earlier instant. None fits in a gap.
  return fits.length ? Math.max(...fits) : before;
}
