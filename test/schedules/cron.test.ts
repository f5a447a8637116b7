/**
 * The cron core: Scheduler's expression read back gives the same fields
 * (the local runtime fires on what was deployed), and run times agree with
 * a brute-force walk over every minute that knows nothing of croner or of
 * how zone.ts maps wall-clock times to instants (it reads each minute's
 * wall-clock time from its instant): a minute runs when its wall-clock time
 * matches and was not seen before (the spring gap never shows up, the
 * autumn's repeated times only once). Zones with one-hour, half-hour and
 * midnight changes, near their changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cronerPattern, parseField, parseSchedulerExpression, runTimes, toSchedulerExpression, type CronFields } from '../../lib/schedules/cron.ts';
import { wallClockAt } from '../../lib/schedules/zone.ts';

const subset = (min: number, max: number) =>
  fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: max - min + 1 }).map((values) => values.sort((a, b) => a - b));

/** Fields as parseField gives them: a day field that covers every day is unrestricted, and at most one is restricted. */
const fieldsArbitrary: fc.Arbitrary<CronFields> = fc
  .record({
    minute: subset(0, 59),
    hour: subset(0, 23),
    month: subset(1, 12),
    day: fc.oneof(fc.constant(undefined), fc.record({ dayOfMonth: subset(1, 31) }), fc.record({ dayOfWeek: subset(0, 6) })),
  })
  .map(({ day, ...rest }) => {
    const fields: CronFields = { ...rest };
    if (day && 'dayOfMonth' in day && day.dayOfMonth.length < 31) fields.dayOfMonth = day.dayOfMonth;
    if (day && 'dayOfWeek' in day && day.dayOfWeek.length < 7) fields.dayOfWeek = day.dayOfWeek;
    return fields;
  });

describe("Scheduler's expression", () => {
  it('reads back as the fields it was written from', () => {
    fc.assert(
      fc.property(fieldsArbitrary, (fields) => {
        const expression = toSchedulerExpression(fields);
        expect(expression.length).toBeLessThanOrEqual(256);
        const parsed = parseSchedulerExpression(expression);
        expect(parsed).toEqual({ fields });
      }),
      { numRuns: 500 },
    );
  });

  it('is what the platform field lists parse to, day-of-week numbering aside', () => {
    fc.assert(
      fc.property(fieldsArbitrary, (fields) => {
        const platform = (values: number[] | undefined) => (values ? values.join(',') : '*');
        const reparsed = Object.fromEntries(
          (['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const).map((name) => {
            const result = parseField(name, platform(fields[name]), 'platform');
            return [name, 'values' in result ? result.values : result.problem];
          }),
        );
        expect(JSON.parse(JSON.stringify(reparsed))).toEqual(fields);
      }),
      { numRuns: 300 },
    );
  });

  it('cannot restrict both day fields', () => {
    expect(() => toSchedulerExpression({ minute: [0], hour: [0], month: [1], dayOfMonth: [13], dayOfWeek: [5] })).toThrow(/both/);
  });

  it.each([
    ['rate(5 minutes)', /is not cron\(/],
    ['at(2026-04-01T00:00:00)', /is not cron\(/],
    ['cron(0 0 * * ? 2026)', /the year field must be \*/],
    ['cron(0 0 ? * ? *)', /one of day-of-month and day-of-week must be \?/],
    ['cron(0 0 * * MON *)', /one of day-of-month and day-of-week must be \?/],
    ['cron(0 0 L * ? *)', /dayOfMonth: .*L, W and # are not supported/],
    ['cron(0 0 ? * 0 *)', /dayOfWeek: 0 is out of range: days of the week are 1-7 \(1 is Sunday\)/],
    ['cron(0 0 * * ?)', /is not cron\(/],
  ])('refuses %s', (expression, problem) => {
    const parsed = parseSchedulerExpression(expression);
    expect('problem' in parsed && parsed.problem).toMatch(problem);
  });

  it("reads Scheduler's day numbers (1 is Sunday) and its other forms", () => {
    expect(parseSchedulerExpression('cron(0/15 9-17 ? * 2-6 *)')).toEqual({
      fields: {
        minute: [0, 15, 30, 45],
        hour: [9, 10, 11, 12, 13, 14, 15, 16, 17],
        month: expect.any(Array),
        dayOfMonth: undefined,
        dayOfWeek: [1, 2, 3, 4, 5],
      },
    });
    expect(parseSchedulerExpression('cron(*/30 0-23/6 1,15 JAN-MAR ? *)')).toEqual({
      fields: { minute: [0, 30], hour: [0, 6, 12, 18], dayOfMonth: [1, 15], month: [1, 2, 3], dayOfWeek: undefined },
    });
  });

  it('has a five-field croner equivalent in Unix numbers', () => {
    expect(cronerPattern({ minute: [0, 30], hour: [9], month: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], dayOfWeek: [1, 2, 3, 4, 5] })).toBe(
      '0,30 9 * * 1,2,3,4,5',
    );
  });
});

/** Zones and instants near their changes: one hour (Berlin, New York, Sydney), half an hour (Lord Howe), at midnight (Santiago), none (Kolkata, UTC). */
const changes: [string, string][] = [
  ['Europe/Berlin', '2026-03-29T01:00:00Z'],
  ['Europe/Berlin', '2026-10-25T01:00:00Z'],
  ['America/New_York', '2026-03-08T07:00:00Z'],
  ['America/New_York', '2026-11-01T06:00:00Z'],
  ['Australia/Sydney', '2026-04-04T16:00:00Z'],
  ['Australia/Sydney', '2026-10-03T16:00:00Z'],
  ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
  ['Australia/Lord_Howe', '2026-10-03T15:30:00Z'],
  ['America/Santiago', '2026-04-05T03:00:00Z'],
  ['America/Santiago', '2026-09-06T04:00:00Z'],
  ['Asia/Kolkata', '2026-03-29T01:00:00Z'],
  ['UTC', '2026-03-29T01:00:00Z'],
];

const minute = 60_000;
/** The wall-clock fields at `instant`, read forwards from the instant (zone.ts's wallClockAt), the way no rule is needed for. */
const wallAt = (zone: string, instant: number) => {
  const w = new Date(wallClockAt(zone, instant));
  return { key: w.getTime(), minute: w.getUTCMinutes(), hour: w.getUTCHours(), day: w.getUTCDate(), month: w.getUTCMonth() + 1, weekday: w.getUTCDay() };
};

/** The first `count` minutes from `after` (exclusive) to `until` that run: the wall-clock time matches, and no earlier minute had that wall-clock time. */
function bruteForce(fields: CronFields, zone: string, after: number, until: number, count: number): number[] {
  const seen = new Set<number>();
  const runs: number[] = [];
  for (let t = Math.floor(after / minute) * minute - 3 * 3_600_000; t < until && runs.length < count; t += minute) {
    const w = wallAt(zone, t);
    const matches =
      fields.minute.includes(w.minute) &&
      fields.hour.includes(w.hour) &&
      fields.month.includes(w.month) &&
      (!fields.dayOfMonth || fields.dayOfMonth.includes(w.day)) &&
      (!fields.dayOfWeek || fields.dayOfWeek.includes(w.weekday));
    if (matches && !seen.has(w.key) && t > after) runs.push(t);
    seen.add(w.key);
  }
  return runs;
}

describe('run times', () => {
  it('agree with a walk over every minute, across daylight-saving changes', () => {
    const frequent = fc.record({
      minute: subset(0, 59),
      hour: fc.oneof(subset(0, 23), fc.constant([...Array(24).keys()])),
      month: fc.constant([...Array(12).keys()].map((m) => m + 1)),
      dayOfWeek: fc.oneof(fc.constant(undefined), subset(0, 6)),
    });
    fc.assert(
      fc.property(frequent, fc.constantFrom(...changes), fc.integer({ min: -180, max: 180 }), (fieldsIn, [zone, change], shift) => {
        const fields: CronFields = { minute: [...fieldsIn.minute], hour: [...fieldsIn.hour], month: [...fieldsIn.month] };
        if (fieldsIn.dayOfWeek && fieldsIn.dayOfWeek.length < 7) fields.dayOfWeek = [...fieldsIn.dayOfWeek];
        const after = Date.parse(change) + shift * minute - 17_000;
        const until = after + 2 * 86_400_000;
        const expected = bruteForce(fields, zone, after, until, 6);
        const actual = runTimes({ fields, timezone: zone }, after, 6).filter((t) => t < until);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('keep to the start (inclusive) and the end (exclusive)', () => {
    const fields: CronFields = { minute: [0], hour: [...Array(24).keys()], month: [...Array(12).keys()].map((m) => m + 1) };
    const at = (iso: string) => Date.parse(iso);
    expect(
      runTimes({ fields, timezone: 'UTC', startAt: at('2026-01-01T05:00:00Z'), endAt: at('2026-01-01T08:00:00Z') }, at('2025-01-01T00:00:00Z'), 10),
    ).toEqual(['2026-01-01T05:00:00Z', '2026-01-01T06:00:00Z', '2026-01-01T07:00:00Z'].map(at));
  });

  it('end with 2199, as Scheduler cron years do', () => {
    const fields: CronFields = { minute: [0], hour: [0], dayOfMonth: [1], month: [1] };
    expect(runTimes({ fields, timezone: 'UTC' }, Date.parse('2198-06-01T00:00:00Z'), 5)).toEqual([Date.parse('2199-01-01T00:00:00Z')]);
  });
});
