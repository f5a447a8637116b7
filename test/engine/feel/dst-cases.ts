/**
 * Wall-clock times that a change of offset skips or repeats, and some it
 * leaves alone, with the instant that lib/engine/feel/time-zones.ts's rule
 * gives each: one table for FEEL's dates and times
 * (test/engine/feel/time-zones.test.ts) and the schedules' cron times
 * (test/schedules/zone.test.ts), so that both are held to the same rule.
 * Changes of an hour (New York, London, Berlin), of half an hour (Lord Howe),
 * at midnight (Santiago), and a zone with none (Kolkata).
 */

export interface DstCase {
  zone: string;
  /** The wall-clock date and time, in the zone. */
  wall: string;
  /** What the zone's clock does at `wall` on that day. */
  change: 'skipped' | 'repeated' | 'none';
  /** The instant the rule gives it: a skipped time moves forward by the gap, a repeated one takes the earlier instant. */
  instant: string;
  /** The wall-clock time that instant shows, where it is not `wall`: a skipped time's, the gap later. */
  shows?: string;
}

export const dstCases: DstCase[] = [
  // New York springs forward at 02:00 (-05:00 to -04:00) on 2026-03-08, falls back at 02:00 (to -05:00) on 2026-11-01.
  { zone: 'America/New_York', wall: '2026-03-08T01:59:00', change: 'none', instant: '2026-03-08T06:59:00Z' },
  { zone: 'America/New_York', wall: '2026-03-08T02:00:00', change: 'skipped', instant: '2026-03-08T07:00:00Z', shows: '2026-03-08T03:00:00' },
  { zone: 'America/New_York', wall: '2026-03-08T02:30:00', change: 'skipped', instant: '2026-03-08T07:30:00Z', shows: '2026-03-08T03:30:00' },
  { zone: 'America/New_York', wall: '2026-03-08T03:00:00', change: 'none', instant: '2026-03-08T07:00:00Z' },
  { zone: 'America/New_York', wall: '2026-11-01T01:00:00', change: 'repeated', instant: '2026-11-01T05:00:00Z' },
  { zone: 'America/New_York', wall: '2026-11-01T01:30:00', change: 'repeated', instant: '2026-11-01T05:30:00Z' },
  { zone: 'America/New_York', wall: '2026-11-01T02:00:00', change: 'none', instant: '2026-11-01T07:00:00Z' },
  // London springs forward at 01:00 (Z to +01:00) on 2026-03-29, falls back at 02:00 on 2026-10-25.
  { zone: 'Europe/London', wall: '2026-03-29T01:30:00', change: 'skipped', instant: '2026-03-29T01:30:00Z', shows: '2026-03-29T02:30:00' },
  { zone: 'Europe/London', wall: '2026-03-29T02:00:00', change: 'none', instant: '2026-03-29T01:00:00Z' },
  { zone: 'Europe/London', wall: '2026-10-25T01:30:00', change: 'repeated', instant: '2026-10-25T00:30:00Z' },
  // Berlin springs forward at 02:00 (+01:00 to +02:00) on 2026-03-29, falls back at 03:00 on 2026-10-25.
  { zone: 'Europe/Berlin', wall: '2026-03-29T02:30:00', change: 'skipped', instant: '2026-03-29T01:30:00Z', shows: '2026-03-29T03:30:00' },
  { zone: 'Europe/Berlin', wall: '2026-03-29T03:00:00', change: 'none', instant: '2026-03-29T01:00:00Z' },
  { zone: 'Europe/Berlin', wall: '2026-10-25T02:30:00', change: 'repeated', instant: '2026-10-25T00:30:00Z' },
  // Lord Howe moves by half an hour: forward at 02:00 (+10:30 to +11:00) on 2026-10-04, back at 02:00 (to +10:30) on 2026-04-05.
  { zone: 'Australia/Lord_Howe', wall: '2026-10-04T02:15:00', change: 'skipped', instant: '2026-10-03T15:45:00Z', shows: '2026-10-04T02:45:00' },
  { zone: 'Australia/Lord_Howe', wall: '2026-10-04T02:30:00', change: 'none', instant: '2026-10-03T15:30:00Z' },
  { zone: 'Australia/Lord_Howe', wall: '2026-04-05T01:45:00', change: 'repeated', instant: '2026-04-04T14:45:00Z' },
  { zone: 'Australia/Lord_Howe', wall: '2026-04-05T02:00:00', change: 'none', instant: '2026-04-04T15:30:00Z' },
  // Santiago springs forward at midnight (-04:00 to -03:00) on 2026-09-06: the day starts at 01:00.
  { zone: 'America/Santiago', wall: '2026-09-06T00:30:00', change: 'skipped', instant: '2026-09-06T04:30:00Z', shows: '2026-09-06T01:30:00' },
  // Kolkata keeps +05:30 all year.
  { zone: 'Asia/Kolkata', wall: '2026-03-08T02:30:00', change: 'none', instant: '2026-03-07T21:00:00Z' },
  { zone: 'Asia/Kolkata', wall: '2026-11-01T01:30:00', change: 'none', instant: '2026-10-31T20:00:00Z' },
];
