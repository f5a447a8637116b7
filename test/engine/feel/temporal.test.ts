/**
 * Dates, times, dates and times and durations (DMN 1.5 10.3.2.3): their
 * arithmetic, order and equality, their parts, their ISO text, and time zones
 * with daylight-saving changes (Europe/Berlin springs forward at 02:00 on
 * 2025-03-30 and falls back at 03:00 on 2025-10-26; America/New_York on
 * 2025-03-09 and 2025-11-02), where local times are skipped or repeated.
 */
import { describe, expect, it } from 'vitest';
import { FeelDate, FeelDateTime, FeelDuration, FeelTime } from '../../../lib/engine/feel/temporal.ts';
import { toPlain } from '../../../lib/engine/feel/values.ts';
import { date, dateTime, duration, feel, run, time } from './helpers.ts';

describe('date arithmetic', () => {
  it('adds and subtracts days', () => {
    expect(feel('@"2025-01-31" + @"P1D"')).toBe('2025-02-01');
    expect(feel('@"2025-03-01" - @"P1D"')).toBe('2025-02-28');
    expect(feel('@"2024-03-01" - @"P1D"')).toBe('2024-02-29');
    expect(feel('@"2025-01-01" + @"P365D"')).toBe('2026-01-01');
  });

  it('keeps a date a date when the duration has hours, counting whole days from midnight', () => {
    expect(feel('@"2025-01-31" + @"PT36H"')).toBe('2025-02-01');
    expect(feel('@"2025-01-31" - @"PT1H"')).toBe('2025-01-30');
  });

  it('adds months, clamping to the last day of the month', () => {
    expect(feel('@"2025-01-31" + @"P1M"')).toBe('2025-02-28');
    expect(feel('@"2024-01-31" + @"P1M"')).toBe('2024-02-29');
    expect(feel('@"2024-02-29" + @"P1Y"')).toBe('2025-02-28');
    expect(feel('@"2025-03-31" - @"P1M"')).toBe('2025-02-28');
    expect(feel('@"2025-11-15" + @"P3M"')).toBe('2026-02-15');
  });

  it('subtracts dates to a days and time duration', () => {
    expect(feel('@"2025-03-01" - @"2025-02-01"')).toBe('P28D');
    expect(feel('@"2025-01-01" - @"2025-01-02"')).toBe('-P1D');
    expect(feel('@"2025-01-01" - @"2024-01-01"')).toBe('P366D');
  });

  it('adds a duration on either side, but subtracts only from a date', () => {
    expect(feel('@"P1D" + @"2025-01-31"')).toBe('2025-02-01');
    expect(feel('@"P1D" - @"2025-01-31"')).toBeNull();
  });

  it('gives null with a note for dates added to dates', () => {
    expect(run('@"2025-01-01" + @"2025-01-02"').notes[0]).toMatch(/cannot apply \+ to date/);
  });
});

describe('date and time arithmetic', () => {
  it('adds durations to local date-times, across days and months', () => {
    expect(feel('@"2025-01-31T23:30:00" + @"PT1H"')).toBe('2025-02-01T00:30:00');
    expect(feel('@"2025-01-31T10:00:00" + @"P1M"')).toBe('2025-02-28T10:00:00');
    expect(feel('@"2025-01-01T00:00:00" - @"PT0.5S"')).toBe('2024-12-31T23:59:59.5');
  });

  it('keeps the offset of a date-time with one', () => {
    expect(feel('@"2025-01-31T23:30:00+01:00" + @"PT1H"')).toBe('2025-02-01T00:30:00+01:00');
  });

  it('subtracts date-times as instants', () => {
    expect(feel('@"2025-01-01T10:00:00Z" - @"2025-01-01T10:00:00+01:00"')).toBe('PT1H');
    expect(feel('@"2025-01-02T00:00:00" - @"2025-01-01T12:30:00"')).toBe('PT11H30M');
  });

  it('gives null for a local date-time minus a zoned one', () => {
    expect(feel('@"2025-01-01T10:00:00" - @"2025-01-01T09:00:00Z"')).toBeNull();
  });
});

describe('a date and a date and time subtracted (DMN 1.5: the date is midnight UTC, as the DMN TCK has it)', () => {
  it('a zoned date and time minus a date, by offset or by zone, in winter and summer', () => {
    expect(feel('@"2025-01-02T10:30:00+01:00" - @"2025-01-01"')).toBe('P1DT9H30M');
    expect(feel('@"2025-01-02T10:30:00@Europe/Berlin" - @"2025-01-01"')).toBe('P1DT9H30M');
    expect(feel('@"2025-07-02T10:30:00@Europe/Berlin" - @"2025-07-01"')).toBe('P1DT8H30M');
    expect(feel('@"2025-01-01T00:00:00Z" - @"1995-01-01"')).toBe('P10958D');
  });

  it('a date minus a zoned date and time', () => {
    expect(feel('@"2025-01-02" - @"2025-01-01T10:30:00+11:00"')).toBe('P1DT30M');
    expect(feel('@"2025-01-01" - @"2025-01-01T10:30:00@America/New_York"')).toBe('-PT15H30M');
  });

  it('UTC midnight of the same day is no time apart, either way round', () => {
    expect(feel('@"2025-01-02T00:00:00Z" - @"2025-01-02"')).toBe('PT0S');
    expect(feel('@"2025-01-02" - @"2025-01-02T00:00:00Z"')).toBe('PT0S');
    expect(feel('@"2025-01-02T01:00:00+01:00" - @"2025-01-02"')).toBe('PT0S');
  });

  it('gives null for a local date and time with a date, as for a local one with a zoned one', () => {
    expect(feel('@"2025-01-02T06:00:00" - @"2025-01-01"')).toBeNull();
    expect(feel('@"2025-01-02" - @"2025-01-01T06:00:00"')).toBeNull();
  });

  it('now() minus a date, now() being in UTC', () => {
    expect(feel('now() - date("2025-05-31")')).toBe('P1DT12H');
    expect(feel('date("2025-06-02") - now()')).toBe('PT12H');
  });

  it('a date minus a date is still whole days', () => {
    expect(feel('@"2025-01-02" - @"2025-01-01"')).toBe('P1D');
    expect(feel('(@"2025-01-02" - @"2024-01-01").days')).toBe(367);
  });
});

describe('years out to ±999,999,999 (DMN 1.5, XML Schema), past a JavaScript Date', () => {
  it('reads and writes them: four digits at least, more with no leading zero, a minus sign before year 0', () => {
    expect(feel('string(date("999999999-12-31"))')).toBe('999999999-12-31');
    expect(feel('string(date("-999999999-01-01"))')).toBe('-999999999-01-01');
    expect(feel('date(999999999, 12, 31)')).toBe('999999999-12-31');
    expect(feel('date(-999999999, 1, 1)')).toBe('-999999999-01-01');
    expect(feel('date("10000-01-01")')).toBe('10000-01-01');
    expect(feel('date("-0001-12-31")')).toBe('-0001-12-31');
    expect(feel('date("0000-02-29")')).toBe('0000-02-29');
    expect(feel('date("-0000-01-01")')).toBe('0000-01-01');
    expect(feel('string(date and time("-999999999-01-01T00:00:00"))')).toBe('-999999999-01-01T00:00:00');
    expect(feel('string(date and time("-999999999-12-31T23:59:59.999999999+02:00"))')).toBe('-999999999-12-31T23:59:59.999999999+02:00');
    expect(feel('string(date and time("999999999-12-31T23:59:59.999999999@Europe/Paris"))')).toBe('999999999-12-31T23:59:59.999999999@Europe/Paris');
  });

  it('gives null beyond them, and for text XML Schema refuses', () => {
    expect(feel('date("1000000000-01-01")')).toBeNull();
    expect(feel('date(1000000000, 1, 1)')).toBeNull();
    expect(feel('date(-1000000000, 12, 31)')).toBeNull();
    expect(feel('date("01211-12-31")')).toBeNull();
    expect(feel('date("+2025-01-01")')).toBeNull();
    expect(feel('date("999999999-02-29")')).toBeNull();
    expect(feel('date and time("01211-12-31T11:22:33")')).toBeNull();
    expect(feel('date and time("999999999-12-31T24:00:00")')).toBeNull();
  });

  it('have their parts', () => {
    expect(feel('[d.year, d.month, d.day]', { d: date('999999999-12-31') })).toEqual([999_999_999, 12, 31]);
    expect(feel('date and time("-999999999-01-01T00:00:00").year')).toBe(-999_999_999);
    expect(feel('date and time("-999999999-01-01T10:20:30").hour')).toBe(10);
    // The calendar repeats every 400 years: 999,999,999 is 399 past a multiple of 400, -999,999,999 is 1.
    expect(feel('date("999999999-12-31").weekday = date("2399-12-31").weekday')).toBe(true);
    expect(feel('date("-999999999-01-01").weekday = date("2001-01-01").weekday')).toBe(true);
    expect(feel('day of year(date("999999999-12-31"))')).toBe(365);
    expect(feel('last day of month(date("999999999-12-05"))')).toBe(31);
  });

  it('order and subtract', () => {
    expect(feel('date("-999999999-01-01") < date("999999999-12-31")')).toBe(true);
    expect(feel('date("999999999-12-31") - date("-999999999-01-01")')).toBe('P730484999633D');
    expect(feel('date and time("999999999-12-31T23:59:59Z") > date and time("999999999-12-31T23:59:58Z")')).toBe(true);
    expect(feel('date and time("999999999-12-31T23:59:59.5Z") = date and time("999999999-12-31T23:59:59Z")')).toBe(true);
    expect(feel('date and time("-999999999-01-01T00:00:00") < date and time("-999999999-01-01T00:00:01")')).toBe(true);
  });

  it('keep fractions of a second in differences, however far out', () => {
    expect(feel('date and time("999999999-12-31T23:59:59.5Z") - date and time("999999999-12-31T23:59:59Z")')).toBe('PT0.5S');
    expect(feel('date and time("-999999999-01-01T00:00:00.25") - date and time("-999999999-01-01T00:00:00")')).toBe('PT0.25S');
    expect(feel('date and time("999999999-12-31T12:00:00Z") - date("999999999-12-31")')).toBe('PT12H');
  });

  it('add and subtract durations up to the ends, and give null past them', () => {
    expect(feel('date("999999999-12-31") - duration("P1D")')).toBe('999999999-12-30');
    expect(feel('date("999999999-12-31") + duration("P1D")')).toBeNull();
    expect(feel('date("-999999999-01-01") - duration("P1D")')).toBeNull();
    expect(feel('date("999999999-01-31") + duration("P1M")')).toBe('999999999-02-28');
    expect(feel('date("999999999-01-31") + duration("P1Y")')).toBeNull();
    expect(feel('date("-999999999-01-01") + duration("P1999999998Y11M")')).toBe('999999999-12-01');
    expect(feel('date("-0001-01-01") + duration("P1Y")')).toBe('0000-01-01');
    expect(feel('date and time("999999999-12-31T23:00:00") - duration("PT1H")')).toBe('999999999-12-31T22:00:00');
    expect(feel('date and time("999999999-12-31T23:00:00") + duration("PT1H")')).toBeNull();
    expect(feel('date and time("-999999999-01-01T00:00:00Z") - duration("PT0.5S")')).toBeNull();
    expect(feel('date and time("-999999999-01-01T00:00:00") + duration("P1M")')).toBe('-999999999-02-01T00:00:00');
    expect(feel('date and time("999999999-12-01T00:00:00@Europe/Paris") + duration("P1M")')).toBeNull();
  });

  it('read a zone there by its rules that far out: its last ones ahead, its local mean time behind', () => {
    expect(feel('date and time("999999999-07-01T12:00:00@Europe/Paris").time offset')).toBe('PT2H');
    expect(feel('date and time("999999999-01-01T12:00:00@Europe/Paris").time offset')).toBe('PT1H');
    expect(feel('date and time("999999999-07-01T12:00:00@Europe/Paris") = date and time("999999999-07-01T10:00:00Z")')).toBe(true);
    expect(feel('date and time("999999999-07-01T12:00:00@Europe/Paris") + duration("PT24H")')).toBe('999999999-07-02T12:00:00@Europe/Paris');
    expect(feel('date and time("-999999999-07-01T12:00:00@Europe/Paris").time offset')).toBe('PT9M21S');
  });

  it('count days as the platform calendar does wherever a Date reaches', () => {
    const msPerDay = 86_400_000;
    for (let day = -100_000_000; day <= 100_000_000; day += 9_973) {
      const js = new Date(day * msPerDay);
      const feelDate = FeelDate.fromDay(day);
      expect([feelDate.y, feelDate.m, feelDate.d]).toEqual([js.getUTCFullYear(), js.getUTCMonth() + 1, js.getUTCDate()]);
      expect(new FeelDate(feelDate.y, feelDate.m, feelDate.d).day).toBe(day);
    }
  });

  it('count days back and forth the same to the ends of the range', () => {
    for (const [y, m, d] of [
      [999_999_999, 12, 31],
      [-999_999_999, 1, 1],
      [-1, 12, 31],
      [0, 2, 29],
      [0, 3, 1],
    ] as const) {
      const feelDate = FeelDate.fromDay(FeelDate.of(y, m, d)!.day);
      expect([feelDate.y, feelDate.m, feelDate.d]).toEqual([y, m, d]);
    }
    expect(FeelDate.of(0, 3, 1)!.day - FeelDate.of(0, 2, 28)!.day).toBe(2);
  });
});

describe('time arithmetic', () => {
  it('adds days and time durations, around midnight', () => {
    expect(feel('@"23:30:00" + @"PT1H"')).toBe('00:30:00');
    expect(feel('@"00:30:00" - @"PT1H"')).toBe('23:30:00');
    expect(feel('@"10:00:00" + @"P1D"')).toBe('10:00:00');
  });

  it('subtracts times to a duration', () => {
    expect(feel('@"10:00:00" - @"08:30:00"')).toBe('PT1H30M');
    expect(feel('@"10:00:00Z" - @"10:00:00+01:00"')).toBe('PT1H');
  });

  it('gives null for a years and months duration added to a time', () => {
    expect(feel('@"10:00:00" + @"P1M"')).toBeNull();
  });
});

describe('duration arithmetic', () => {
  it('adds and subtracts durations of one kind', () => {
    expect(feel('@"P1Y" + @"P2M"')).toBe('P1Y2M');
    expect(feel('@"P1D" - @"PT1H"')).toBe('PT23H');
    expect(feel('@"P1Y" - @"P1Y"')).toBe('P0M');
    expect(feel('@"PT1H" - @"PT1H"')).toBe('PT0S');
  });

  it('gives null for durations of two kinds', () => {
    expect(feel('@"P1D" + @"P1M"')).toBeNull();
  });

  it('multiplies and divides by numbers, and divides durations', () => {
    expect(feel('@"P1D" * 2')).toBe('P2D');
    expect(feel('3 * @"PT20M"')).toBe('PT1H');
    expect(feel('@"P1Y" * 1.5')).toBe('P1Y6M');
    expect(feel('@"P1D" / 4')).toBe('PT6H');
    expect(feel('@"P1D" / @"PT1H"')).toBe(24);
    expect(feel('@"P1D" / 0')).toBeNull();
  });

  it('negates', () => {
    expect(feel('-@"P1D"')).toBe('-P1D');
    expect(feel('-@"-P1Y2M"')).toBe('P1Y2M');
  });
});

describe('order and equality', () => {
  it('read 24:00:00, the end of a day, as the next midnight; no other time of hour 24', () => {
    expect(feel('time("24:00:00") = time("00:00:00")')).toBe(true);
    expect(feel('string(date and time("2018-12-31T24:00:00"))')).toBe('2019-01-01T00:00:00');
    expect(feel('string(date and time("2018-12-08T24:00:00Z"))')).toBe('2018-12-09T00:00:00Z');
    expect(feel('time("24:00:01")')).toBeNull();
    expect(feel('time("24:30:00")')).toBeNull();
  });

  it('compare times and dates and times at their value resolution, the second, as the DMN TCK has it', () => {
    expect(feel('time("10:30:00.0001") = time("10:30:00.0002")')).toBe(true);
    expect(feel('time("10:30:00.0001") < time("10:30:00.0002")')).toBe(false);
    expect(feel('time("10:30:01") > time("10:30:00.9")')).toBe(true);
    expect(feel('date and time("2018-12-08T10:30:00.1Z") = date and time("2018-12-08T10:30:00.9Z")')).toBe(true);
    expect(feel('date and time("2018-12-08") = date and time("2018-12-08T00:00:00")')).toBe(true);
  });

  it('orders dates, date-times, times and durations of one kind', () => {
    expect(feel('@"2025-01-01" < @"2025-01-02"')).toBe(true);
    expect(feel('@"2025-01-01T10:00:00Z" < @"2025-01-01T10:30:00+01:00"')).toBe(false);
    expect(feel('@"10:00:00" < @"10:00:01"')).toBe(true);
    expect(feel('@"P1D" > @"PT23H"')).toBe(true);
    expect(feel('@"P1Y" > @"P11M"')).toBe(true);
  });

  it('equates one instant written with different offsets or a zone', () => {
    expect(feel('@"2025-01-01T10:00:00Z" = @"2025-01-01T11:00:00+01:00"')).toBe(true);
    expect(feel('@"2025-01-01T10:00:00@Europe/Berlin" = @"2025-01-01T09:00:00Z"')).toBe(true);
    expect(feel('@"2025-07-01T10:00:00@Europe/Berlin" = @"2025-07-01T08:00:00Z"')).toBe(true);
  });

  it('equates durations of one kind by their amount', () => {
    expect(feel('@"P1Y" = @"P12M"')).toBe(true);
    expect(feel('@"P1D" = @"PT24H"')).toBe(true);
    expect(feel('@"PT0S" = @"P0D"')).toBe(true);
  });

  it('orders times with one offset on one day, not wrapped around midnight in UTC', () => {
    expect(feel('@"08:00:00-05:00" < @"20:00:00-05:00"')).toBe(true);
    expect(feel('@"23:00:00+01:00" = @"22:00:00Z"')).toBe(true);
    expect(feel('@"00:30:00+01:00" = @"23:30:00Z"')).toBe(false);
  });

  it('gives null with a note comparing values of different temporal types', () => {
    expect(run('@"2025-01-01" = @"2025-01-01T00:00:00"').notes[0]).toMatch(/cannot compare date/);
    expect(feel('@"2025-01-01" < @"2025-01-02T00:00:00"')).toBeNull();
    expect(feel('@"P1Y" > @"P1D"')).toBeNull();
    expect(feel('@"P1M" = @"P30D"')).toBeNull();
  });

  it('gives null comparing a local value with a zoned one', () => {
    expect(feel('@"2025-01-01T10:00:00" = @"2025-01-01T10:00:00Z"')).toBeNull();
    expect(feel('@"10:00:00" < @"11:00:00Z"')).toBeNull();
  });
});

describe('parts', () => {
  it('of dates and date-times', () => {
    expect(feel('[d.year, d.month, d.day, d.weekday]', { d: date('2024-02-29') })).toEqual([2024, 2, 29, 4]);
    expect(feel('[t.hour, t.minute, t.second]', { t: dateTime('2025-01-31T08:15:30.5') })).toEqual([8, 15, 30.5]);
  });

  it('time offset and timezone', () => {
    expect(feel('@"2025-01-31T08:15:00+05:30".time offset')).toBe('PT5H30M');
    expect(feel('@"2025-01-31T08:15:00".time offset')).toBeNull();
    expect(feel('@"2025-01-31T08:15:00@Europe/Berlin".timezone')).toBe('Europe/Berlin');
    expect(feel('@"2025-07-31T08:15:00@Europe/Berlin".time offset')).toBe('PT2H');
  });

  it('of durations, signed', () => {
    expect(feel('[p.years, p.months]', { p: duration('-P1Y3M') })).toEqual([-1, -3]);
    expect(feel('[p.days, p.hours, p.minutes, p.seconds]', { p: duration('P1DT2H3M4.5S') })).toEqual([1, 2, 3, 4.5]);
    expect(feel('@"P1Y".days')).toBeNull();
  });
});

describe('ISO text', () => {
  it('writes values as they are read, in canonical form', () => {
    expect(toPlain(FeelDate.parse('0999-01-01'))).toBe('0999-01-01');
    expect(toPlain(FeelDateTime.parse('2025-01-31T08:15:00.125Z'))).toBe('2025-01-31T08:15:00.125Z');
    expect(toPlain(FeelDateTime.parse('2025-01-31T08:15:00+00:00'))).toBe('2025-01-31T08:15:00Z');
    expect(toPlain(FeelTime.parse('23:59:59.5-05:30'))).toBe('23:59:59.5-05:30');
    expect(toPlain(FeelDuration.parse('P0Y'))).toBe('P0M');
    expect(toPlain(FeelDuration.parse('PT0.000001S'))).toBe('PT0.000001S');
    expect(toPlain(FeelDuration.parse('P1DT25H'))).toBe('P2DT1H');
  });

  it('refuses text that is no value', () => {
    expect(FeelDate.parse('2025-1-1')).toBeNull();
    expect(FeelDate.parse('2025-02-29')).toBeNull();
    expect(FeelTime.parse('24:00:01')).toBeNull();
    expect(FeelTime.parse('10:00')).toBeNull();
    expect(FeelDateTime.parse('2025-01-01T10:00:00@Not/AZone')).toBeNull();
    expect(FeelDateTime.parse('2025-01-01T10:00:00+19:00')).toBeNull();
    expect(FeelDuration.parse('P')).toBeNull();
    expect(FeelDuration.parse('PT')).toBeNull();
    expect(FeelDuration.parse('P1Y1D')).toBeNull();
  });
});

describe('daylight saving (Europe/Berlin)', () => {
  it('an hour after 01:30 on the spring-forward day is 03:30', () => {
    expect(feel('@"2025-03-30T01:30:00@Europe/Berlin" + @"PT1H"')).toBe('2025-03-30T03:30:00@Europe/Berlin');
  });

  it('01:30 to 03:30 on the spring-forward day is one hour', () => {
    expect(feel('@"2025-03-30T03:30:00@Europe/Berlin" - @"2025-03-30T01:30:00@Europe/Berlin"')).toBe('PT1H');
  });

  it('24 hours across the change end an hour later on the clock; a month keeps the clock time', () => {
    expect(feel('@"2025-03-29T10:00:00@Europe/Berlin" + @"PT24H"')).toBe('2025-03-30T11:00:00@Europe/Berlin');
    expect(feel('@"2025-03-29T10:00:00@Europe/Berlin" + @"P1D"')).toBe('2025-03-30T11:00:00@Europe/Berlin');
    expect(feel('@"2025-03-29T10:00:00@Europe/Berlin" + @"P1M"')).toBe('2025-04-29T10:00:00@Europe/Berlin');
  });

  it('a skipped local time (02:30) is read with the offset before the gap, so it is 01:30 UTC', () => {
    expect(feel('@"2025-03-30T02:30:00@Europe/Berlin" = @"2025-03-30T01:30:00Z"')).toBe(true);
    expect(feel('@"2025-03-30T02:30:00@Europe/Berlin" = @"2025-03-30T03:30:00@Europe/Berlin"')).toBe(true);
  });

  it('a repeated local time (02:30 on the fall-back day) is read as the earlier one', () => {
    expect(feel('@"2025-10-26T02:30:00@Europe/Berlin" = @"2025-10-26T00:30:00Z"')).toBe(true);
    expect(feel('@"2025-10-26T02:30:00@Europe/Berlin".time offset')).toBe('PT2H');
  });

  it('01:30 to 03:30 on the fall-back day is three hours', () => {
    expect(feel('@"2025-10-26T03:30:00@Europe/Berlin" - @"2025-10-26T01:30:00@Europe/Berlin"')).toBe('PT3H');
    expect(feel('@"2025-10-26T01:30:00@Europe/Berlin" + @"PT1H"')).toBe('2025-10-26T02:30:00@Europe/Berlin');
  });

  it('the offset in force follows the season', () => {
    expect(feel('@"2025-03-30T01:59:59@Europe/Berlin".time offset')).toBe('PT1H');
    expect(feel('@"2025-03-30T03:00:00@Europe/Berlin".time offset')).toBe('PT2H');
    expect(feel('@"2025-10-26T03:00:00@Europe/Berlin".time offset')).toBe('PT1H');
  });
});

describe('daylight saving (America/New_York, west of UTC)', () => {
  it('a skipped local time is read with the offset before the gap', () => {
    expect(feel('@"2025-03-09T02:30:00@America/New_York" = @"2025-03-09T07:30:00Z"')).toBe(true);
  });

  it('a repeated local time is read as the earlier one', () => {
    expect(feel('@"2025-11-02T01:30:00@America/New_York" = @"2025-11-02T05:30:00Z"')).toBe(true);
  });

  it('a day of 25 hours', () => {
    expect(feel('@"2025-11-03T00:00:00@America/New_York" - @"2025-11-02T00:00:00@America/New_York"')).toBe('P1DT1H');
  });
});

describe('temporal inputs', () => {
  it('compute with values passed in as variables', () => {
    const vars = { start: dateTime('2025-01-31T08:00:00Z'), shift: duration('PT8H30M'), opens: time('09:00:00Z') };
    expect(feel('start + shift')).toBeNull();
    expect(run('start + shift', vars).value).toBe('2025-01-31T16:30:00Z');
    expect(run('time(start) < opens', vars).value).toBe(true);
  });
});
