/**
 * Wall-clock time in a zone as Scheduler reads cron fields (lib/schedules/zone.ts),
 * at the changes of offset in the table FEEL's test shares
 * (test/engine/feel/dst-cases.ts): a skipped time names no instant and never
 * runs, where FEEL moves it forward by the gap; a repeated one, and any other,
 * names the instant FEEL gives it and runs there, once. Then offsets, local
 * times with them, and zone names.
 */
import { describe, expect, it } from 'vitest';
import { runTimes } from '../../lib/schedules/cron.ts';
import { checkTimeZone, formatInZone, instantOf, offsetAt } from '../../lib/schedules/zone.ts';
import { dstCases } from '../engine/feel/dst-cases.ts';

const hourMs = 3_600_000;
const everyMonth = [...Array(12).keys()].map((m) => m + 1);

describe('a wall-clock time at a change of offset', () => {
  it.each(dstCases)('$wall@$zone ($change)', ({ zone, wall, change, instant }) => {
    const expected = change === 'skipped' ? undefined : Date.parse(instant);
    const wallClock = Date.parse(`${wall}Z`);
    expect(instantOf(zone, wallClock)).toBe(expected);
    // A daily schedule at that time runs on the day at that instant, or not at all that day.
    const at = new Date(wallClock);
    const fields = { minute: [at.getUTCMinutes()], hour: [at.getUTCHours()], month: everyMonth };
    const from = Date.parse(instant) - 12 * hourMs;
    const runs = runTimes({ fields, timezone: zone }, from, 2).filter((t) => t < from + 24 * hourMs);
    expect(runs).toEqual(expected === undefined ? [] : [expected]);
  });
});

describe('time zones', () => {
  it('offsets and local times with them', () => {
    expect(offsetAt('Europe/Berlin', Date.parse('2026-01-01T00:00:00Z'))).toBe(3_600_000);
    expect(formatInZone('Asia/Kolkata', Date.parse('2026-01-01T00:00:00Z'))).toBe('2026-01-01T05:30:00+05:30');
    expect(formatInZone('America/St_Johns', Date.parse('2026-01-01T00:00:00Z'))).toBe('2025-12-31T20:30:00-03:30');
    expect(formatInZone('Australia/Lord_Howe', Date.parse('2026-01-01T00:00:00Z'))).toBe('2026-01-01T11:00:00+11:00');
  });

  it('checks names', () => {
    expect(checkTimeZone('UTC')).toEqual({ zone: 'UTC' });
    expect(checkTimeZone('america/new_york')).toEqual({ zone: 'America/New_York' });
    expect(checkTimeZone('Asia/Calcutta')).toEqual({ zone: 'Asia/Calcutta' });
    expect(checkTimeZone('')).toHaveProperty('problem');
    expect(checkTimeZone('Europe/../Berlin')).toHaveProperty('problem');
    expect(checkTimeZone('Nowhere/Land')).toHaveProperty('problem');
  });
});
