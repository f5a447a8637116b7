/**
 * The schedule body: every field form and unit to Scheduler's expression,
 * what is refused and why (by field), start and end bounds, time zones and
 * Europe/Berlin's daylight-saving changes in the next run times, and that
 * the same body always gives the same stored schedule.
 */
import { describe, expect, it } from 'vitest';
import { nextRuns, parseScheduleBody, scheduleView, type PreparedSchedule, type PrepareContext } from '../../lib/schedules/spec.ts';

/** Friday 20 March 2026, noon UTC. */
const now = Date.parse('2026-03-20T12:00:00Z');

function prepare(body: unknown, context: Partial<PrepareContext> = {}): PreparedSchedule {
  const result = parseScheduleBody(body, { now, ...context });
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.issues)}`);
  if (result.isDelete) throw new Error('a delete');
  return result.prepared;
}

function issues(body: unknown, context: Partial<PrepareContext> = {}) {
  const result = parseScheduleBody(body, { now, ...context });
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result)}`);
  return result.issues;
}

const expression = (body: unknown) => prepare(body).expression;
const runs = (body: unknown, at = now, context: Partial<PrepareContext> = {}) => {
  const view = scheduleView(prepare(body, context), at);
  return view.nextRuns;
};
const utcRuns = (body: unknown, at = now) => runs(body, at).map((r) => r.utc);
const localRuns = (body: unknown, at = now) => runs(body, at).map((r) => r.local);

describe('field forms to Scheduler cron', () => {
  it.each([
    ['*', 'cron(* * * * ? *)'],
    ['5', 'cron(5 * * * ? *)'],
    ['05', 'cron(5 * * * ? *)'],
    ['*/15', 'cron(0/15 * * * ? *)'],
    ['5/15', 'cron(5/15 * * * ? *)'],
    ['0-30/10', 'cron(0,10,20,30 * * * ? *)'],
    ['1-5', 'cron(1-5 * * * ? *)'],
    ['1,15', 'cron(1,15 * * * ? *)'],
    ['1,2,3,10-12,40', 'cron(1-3,10-12,40 * * * ? *)'],
    ['0-59', 'cron(* * * * ? *)'],
    ['*/1', 'cron(* * * * ? *)'],
    ['15,5,5', 'cron(5,15 * * * ? *)'],
  ])('minute %s', (minute, cron) => {
    expect(expression({ unit: 'minute', spec: { minute } })).toBe(cron);
  });

  it.each([
    ['*/2', 'cron(0 0/2 * * ? *)'],
    ['9-17', 'cron(0 9-17 * * ? *)'],
    ['9,17', 'cron(0 9,17 * * ? *)'],
    ['23', 'cron(0 23 * * ? *)'],
  ])('hour %s', (hour, cron) => {
    expect(expression({ unit: 'hour', spec: { hour } })).toBe(cron);
  });

  it.each([
    ['1,15', 'cron(0 0 1,15 * ? *)'],
    ['*/5', 'cron(0 0 1/5 * ? *)'],
    ['10-20', 'cron(0 0 10-20 * ? *)'],
    ['1-31', 'cron(0 0 * * ? *)'],
    ['?', 'cron(0 0 * * ? *)'],
  ])('dayOfMonth %s', (dayOfMonth, cron) => {
    expect(expression({ unit: 'day', spec: { dayOfMonth } })).toBe(cron);
  });

  it.each([
    ['JAN', 'cron(0 0 * 1 ? *)'],
    ['jan-mar', 'cron(0 0 * 1-3 ? *)'],
    ['JAN,JUL', 'cron(0 0 * 1,7 ? *)'],
    ['*/3', 'cron(0 0 * 1/3 ? *)'],
    ['FEB-DEC/2', 'cron(0 0 * 2/2 ? *)'],
    ['12', 'cron(0 0 * 12 ? *)'],
  ])('month %s', (month, cron) => {
    expect(expression({ unit: 'day', spec: { month } })).toBe(cron);
  });

  it.each([
    ['MON-FRI', 'cron(0 0 ? * MON-FRI *)'],
    ['1-5', 'cron(0 0 ? * MON-FRI *)'],
    ['mon', 'cron(0 0 ? * MON *)'],
    ['0', 'cron(0 0 ? * SUN *)'],
    ['7', 'cron(0 0 ? * SUN *)'],
    ['SAT,SUN', 'cron(0 0 ? * SUN,SAT *)'],
    ['5-7', 'cron(0 0 ? * SUN,FRI-SAT *)'],
    ['*/2', 'cron(0 0 ? * SUN,TUE,THU,SAT *)'],
    ['1/2', 'cron(0 0 ? * SUN-MON,WED,FRI *)'],
    ['TUE,THU', 'cron(0 0 ? * TUE,THU *)'],
    ['0-7', 'cron(0 0 * * ? *)'],
    ['?', 'cron(0 0 * * ? *)'],
  ])('dayOfWeek %s (Unix numbering: 0 and 7 are Sunday; Scheduler gets names)', (dayOfWeek, cron) => {
    expect(expression({ unit: 'day', spec: { dayOfWeek } })).toBe(cron);
  });

  it('writes ? in the day field that is not restricted, and day-of-week when neither is', () => {
    expect(expression({ unit: 'day', spec: { dayOfMonth: '1' } })).toBe('cron(0 0 1 * ? *)');
    expect(expression({ unit: 'day', spec: { dayOfWeek: 'FRI' } })).toBe('cron(0 0 ? * FRI *)');
    expect(expression({ unit: 'day' })).toBe('cron(0 0 * * ? *)');
  });

  it('combines every field', () => {
    expect(expression({ unit: 'minute', spec: { minute: '*/15', hour: '9-17', dayOfWeek: 'MON-FRI', month: 'JAN-JUN' } })).toBe(
      'cron(0/15 9-17 ? 1-6 MON-FRI *)',
    );
  });
});

describe('refused fields, by name and reason', () => {
  it.each([
    ['minute', '60', /^60 is out of range: minutes are 0-59$/],
    ['minute', '61', /^61 is out of range: minutes are 0-59$/],
    ['minute', '100', /"100" is not a value: minutes are 0-59/],
    ['hour', '24', /^24 is out of range: hours are 0-23$/],
    ['dayOfMonth', '0', /out of range: days of the month are 1-31/],
    ['dayOfMonth', '32', /out of range: days of the month are 1-31/],
    ['month', '13', /out of range: months are 1-12 or JAN-DEC/],
    ['month', 'FOO', /"FOO" is not a value: months are 1-12 or JAN-DEC/],
    ['dayOfWeek', '8', /out of range: days of the week are 0-7 \(0 and 7 are Sunday\) or SUN-SAT/],
    ['dayOfWeek', 'SUNDAY', /"SUNDAY" is not a value/],
    ['minute', '*/0', /a step must be from 1 to 59/],
    ['minute', '*/60', /a step must be from 1 to 59/],
    ['hour', '5-1', /runs backwards/],
    ['dayOfWeek', 'FRI-MON', /runs backwards: .*two ranges/],
    ['minute', '', /^must not be empty$/],
    ['minute', ' 5', /^must not contain spaces$/],
    ['dayOfMonth', 'L', /L, W and # are not supported/],
    ['dayOfMonth', '15W', /L, W and # are not supported/],
    ['dayOfWeek', 'MON#2', /L, W and # are not supported/],
    ['dayOfWeek', '5L', /L, W and # are not supported/],
    ['minute', '?', /\? is only for dayOfMonth and dayOfWeek/],
    ['minute', '*,5', /\* stands alone, or as \*\/step/],
    ['dayOfWeek', '?,MON', /"\?": \? stands alone$/],
    ['minute', '1,,2', /"" is not a value, range or step/],
    ['minute', '1-2-3', /"1-2-3" is not a value, range or step/],
    ['minute', 'x'.repeat(201), /must be at most 200 characters/],
  ])('spec.%s "%s"', (field, value, message) => {
    const found = issues({ unit: 'minute', spec: { [field]: value } });
    expect(found).toHaveLength(1);
    expect(found[0]!.field).toBe(`spec.${field}`);
    expect(found[0]!.message).toMatch(message);
  });

  it('names every field that is wrong at once', () => {
    expect(issues({ unit: 'minute', spec: { minute: '61', hour: '25' }, endAt: '2026-03-01T00:00:00Z' }).map((i) => i.field)).toEqual([
      'spec.minute',
      'spec.hour',
      'endAt',
    ]);
  });

  it('refuses a field that is not a string, unknown fields by name, and an unknown unit', () => {
    expect(issues({ unit: 'minute', spec: { minute: 5 } })).toEqual([{ field: 'spec.minute', message: expect.stringMatching(/must be a string such as "5"/) }]);
    expect(issues({ unit: 'day', cron: '* * * * *', repeat: 2 })).toEqual([{ field: 'body', message: 'unknown fields: cron, repeat' }]);
    expect(issues({ unit: 'day', spec: { second: '0' } })).toEqual([{ field: 'spec', message: 'unknown fields: second' }]);
    expect(issues({ unit: 'year' })).toEqual([{ field: 'unit', message: 'must be minute, hour, day, week or month' }]);
    expect(issues({ spec: {} })).toEqual([{ field: 'unit', message: 'is required: minute, hour, day, week or month' }]);
    expect(issues({ unit: 'day', isEnabled: 'no' })).toEqual([{ field: 'isEnabled', message: 'must be true or false' }]);
    expect(issues([])).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
    expect(issues({ unit: 'day', spec: [] })).toEqual([{ field: 'spec', message: 'must be an object of minute, hour, dayOfMonth, month and dayOfWeek' }]);
  });

  it('refuses both day fields restricted: Scheduler needs ? in one of them', () => {
    expect(issues({ unit: 'day', spec: { dayOfMonth: '13', dayOfWeek: 'FRI' } })).toEqual([
      {
        field: 'spec.dayOfWeek',
        message: expect.stringMatching(/cannot be restricted together with spec.dayOfMonth \("13"\): EventBridge Scheduler's cron needs \? in one of the two/),
      },
    ]);
    // Covering every day is no restriction: the other field may be restricted.
    expect(expression({ unit: 'day', spec: { dayOfMonth: '1-31', dayOfWeek: 'FRI' } })).toBe('cron(0 0 ? * FRI *)');
    expect(expression({ unit: 'day', spec: { dayOfMonth: '13', dayOfWeek: '0-6' } })).toBe('cron(0 0 13 * ? *)');
  });

  it.each([
    ['31', '2'],
    ['30', 'FEB'],
    ['30,31', 'FEB'],
    ['31', 'APR,JUN,SEP,NOV'],
  ])('refuses dayOfMonth %s in month %s: it can never fire', (dayOfMonth, month) => {
    expect(issues({ unit: 'month', spec: { dayOfMonth, month } })).toEqual([
      { field: 'spec.dayOfMonth', message: `"${dayOfMonth}" never falls in the months of spec.month ("${month}"): the schedule could never run` },
    ]);
  });

  it('takes a day some of the months have, and 29 February in leap years', () => {
    expect(utcRuns({ unit: 'month', spec: { dayOfMonth: '31', month: 'FEB,MAR' } })).toEqual([
      '2026-03-31T00:00:00Z',
      '2027-03-31T00:00:00Z',
      '2028-03-31T00:00:00Z',
    ]);
    expect(utcRuns({ unit: 'month', spec: { dayOfMonth: '29', month: 'FEB' } })).toEqual([
      '2028-02-29T00:00:00Z',
      '2032-02-29T00:00:00Z',
      '2036-02-29T00:00:00Z',
    ]);
  });
});

describe('units', () => {
  it.each([
    ['minute', 'cron(* * * * ? *)', ['2026-03-20T12:01:00Z', '2026-03-20T12:02:00Z', '2026-03-20T12:03:00Z']],
    ['hour', 'cron(0 * * * ? *)', ['2026-03-20T13:00:00Z', '2026-03-20T14:00:00Z', '2026-03-20T15:00:00Z']],
    ['day', 'cron(0 0 * * ? *)', ['2026-03-21T00:00:00Z', '2026-03-22T00:00:00Z', '2026-03-23T00:00:00Z']],
    ['week', 'cron(0 0 ? * SUN *)', ['2026-03-22T00:00:00Z', '2026-03-29T00:00:00Z', '2026-04-05T00:00:00Z']],
    ['month', 'cron(0 0 1 * ? *)', ['2026-04-01T00:00:00Z', '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z']],
  ])('%s fills the fields the body leaves out (cron(%s))', (unit, cron, next) => {
    expect(expression({ unit })).toBe(cron);
    expect(utcRuns({ unit })).toEqual(next);
  });

  it('an hour schedule with minute 30 runs at :30 every hour', () => {
    expect(expression({ unit: 'hour', spec: { minute: '30' } })).toBe('cron(30 * * * ? *)');
    expect(utcRuns({ unit: 'hour', spec: { minute: '30' } })).toEqual(['2026-03-20T12:30:00Z', '2026-03-20T13:30:00Z', '2026-03-20T14:30:00Z']);
  });

  it('a minute schedule repeats by its minute field; a week schedule on its days; a month schedule on its days and months', () => {
    expect(utcRuns({ unit: 'minute', spec: { minute: '*/20' } })).toEqual(['2026-03-20T12:20:00Z', '2026-03-20T12:40:00Z', '2026-03-20T13:00:00Z']);
    expect(utcRuns({ unit: 'week', spec: { dayOfWeek: 'MON,THU', hour: '9', minute: '15' } })).toEqual([
      '2026-03-23T09:15:00Z',
      '2026-03-26T09:15:00Z',
      '2026-03-30T09:15:00Z',
    ]);
    expect(utcRuns({ unit: 'month', spec: { dayOfMonth: '15', month: 'JAN,JUL', hour: '6' } })).toEqual([
      '2026-07-15T06:00:00Z',
      '2027-01-15T06:00:00Z',
      '2027-07-15T06:00:00Z',
    ]);
  });

  it('null spec fields take the unit default, as absent ones do', () => {
    expect(prepare({ unit: 'hour', spec: { minute: null, hour: null } })).toEqual(prepare({ unit: 'hour' }));
    expect(prepare({ unit: 'hour', spec: null, startAt: null, endAt: null, timezone: null, inputParam: null })).toEqual(prepare({ unit: 'hour' }));
  });

  it('a week schedule refuses a day of the month, a month schedule a day of the week', () => {
    expect(issues({ unit: 'week', spec: { dayOfMonth: '1' } })).toEqual([
      { field: 'spec.dayOfMonth', message: expect.stringMatching(/a week schedule runs on days of the week/) },
    ]);
    expect(issues({ unit: 'month', spec: { dayOfWeek: 'MON' } })).toEqual([
      { field: 'spec.dayOfWeek', message: expect.stringMatching(/a month schedule runs on days of the month/) },
    ]);
  });

  it('stores the body with every default applied, in a fixed order', () => {
    expect(prepare({ inputParam: { amount: 10 }, spec: { hour: '9' }, unit: 'day' })).toStrictEqual({
      schedule: {
        unit: 'day',
        isEnabled: true,
        timezone: 'UTC',
        spec: { minute: '0', hour: '9', dayOfMonth: '*', month: '*', dayOfWeek: '*' },
        inputParam: { amount: 10 },
      },
      expression: 'cron(0 9 * * ? *)',
    });
  });
});

describe('start and end', () => {
  const daily = { unit: 'day', spec: { hour: '9' } };

  it('runs from startAt, a run at startAt included', () => {
    expect(utcRuns({ ...daily, startAt: '2026-04-01T09:00:00Z' })).toEqual(['2026-04-01T09:00:00Z', '2026-04-02T09:00:00Z', '2026-04-03T09:00:00Z']);
    expect(utcRuns({ ...daily, startAt: '2026-04-01T09:00:01Z' })).toEqual(['2026-04-02T09:00:00Z', '2026-04-03T09:00:00Z', '2026-04-04T09:00:00Z']);
    expect(utcRuns({ ...daily, startAt: '2026-04-01T11:00:00+02:00' })).toEqual(['2026-04-01T09:00:00Z', '2026-04-02T09:00:00Z', '2026-04-03T09:00:00Z']);
  });

  it('a start in the past runs from now', () => {
    expect(utcRuns({ ...daily, startAt: '2020-01-01T00:00:00Z' })).toEqual(['2026-03-21T09:00:00Z', '2026-03-22T09:00:00Z', '2026-03-23T09:00:00Z']);
  });

  it('runs before endAt only, a run at endAt excluded', () => {
    expect(utcRuns({ ...daily, endAt: '2026-03-22T09:00:00Z' })).toEqual(['2026-03-21T09:00:00Z']);
    expect(utcRuns({ ...daily, endAt: '2026-03-22T09:00:01Z' })).toEqual(['2026-03-21T09:00:00Z', '2026-03-22T09:00:00Z']);
  });

  it('refuses an end before the start, an end in the past, and a window with no run', () => {
    expect(issues({ ...daily, startAt: '2026-05-01T00:00:00Z', endAt: '2026-04-01T00:00:00Z' })).toEqual([
      { field: 'endAt', message: 'must be after startAt' },
    ]);
    expect(issues({ ...daily, startAt: '2026-05-01T00:00:00Z', endAt: '2026-05-01T00:00:00Z' })).toEqual([
      { field: 'endAt', message: 'must be after startAt' },
    ]);
    expect(issues({ ...daily, endAt: '2026-03-20T11:00:00Z' })).toEqual([
      { field: 'endAt', message: 'is in the past: the schedule could never run (delete it instead)' },
    ]);
    expect(issues({ unit: 'month', startAt: '2026-04-02T00:00:00Z', endAt: '2026-04-30T00:00:00Z' })).toEqual([
      { field: 'endAt', message: 'no run of the schedule falls between startAt and endAt' },
    ]);
    expect(issues({ ...daily, endAt: '2026-03-21T08:00:00Z' })).toEqual([{ field: 'endAt', message: 'no run of the schedule falls between now and endAt' }]);
  });

  it.each([['2026-04-01 09:00:00Z'], ['2026-04-01T09:00:00'], ['2026-04-01'], ['2026-04-01T09:00:00+2'], ['2026-04-01t09:00:00z']])(
    'refuses %s: ISO 8601 with an offset only',
    (startAt) => {
      expect(issues({ ...daily, startAt })).toEqual([
        { field: 'startAt', message: expect.stringMatching(/^must be an ISO 8601 date and time with an offset/) },
      ]);
    },
  );

  it('refuses dates that do not exist and years Scheduler has no cron for', () => {
    expect(issues({ ...daily, startAt: '2026-02-30T00:00:00Z' })[0]!.message).toMatch(/no such date or time/);
    expect(issues({ ...daily, startAt: '2026-04-01T24:00:00Z' })[0]!.message).toMatch(/no such date or time/);
    expect(issues({ ...daily, endAt: '2200-01-01T00:00:00Z' })).toEqual([{ field: 'endAt', message: 'must be in the years 1970 to 2199' }]);
  });

  it('takes the other ISO 8601 forms and stores them as given', () => {
    const schedule = prepare({ ...daily, startAt: '2026-04-01T09:00Z', endAt: '2026-05-01T09:00:00.250-04:30' }).schedule;
    expect([schedule.startAt, schedule.endAt]).toEqual(['2026-04-01T09:00Z', '2026-05-01T09:00:00.250-04:30']);
  });
});

describe('time zones', () => {
  it('uses the body timezone, else the rule setting, else UTC', () => {
    expect(prepare({ unit: 'day' }).schedule.timezone).toBe('UTC');
    expect(prepare({ unit: 'day' }, { defaultTimezone: 'Europe/Berlin' }).schedule.timezone).toBe('Europe/Berlin');
    expect(prepare({ unit: 'day', timezone: 'Asia/Tokyo' }, { defaultTimezone: 'Europe/Berlin' }).schedule.timezone).toBe('Asia/Tokyo');
  });

  it('gives the runs in the schedule time zone and in UTC', () => {
    expect(runs({ unit: 'day', spec: { hour: '9' }, timezone: 'America/New_York' })).toEqual([
      { local: '2026-03-20T09:00:00-04:00', utc: '2026-03-20T13:00:00Z' },
      { local: '2026-03-21T09:00:00-04:00', utc: '2026-03-21T13:00:00Z' },
      { local: '2026-03-22T09:00:00-04:00', utc: '2026-03-22T13:00:00Z' },
    ]);
    expect(localRuns({ unit: 'day', spec: { hour: '9' }, timezone: 'Asia/Kolkata' })[0]).toBe('2026-03-21T09:00:00+05:30');
    expect(localRuns({ unit: 'day', spec: { hour: '9' } })[0]).toBe('2026-03-21T09:00:00+00:00');
  });

  it('corrects the letter case of a known name, keeps an alias as written, and refuses what is not a zone', () => {
    expect(prepare({ unit: 'day', timezone: 'europe/berlin' }).schedule.timezone).toBe('Europe/Berlin');
    expect(prepare({ unit: 'day', timezone: 'US/Eastern' }).schedule.timezone).toBe('US/Eastern');
    expect(prepare({ unit: 'day', timezone: 'Etc/GMT+5' }).schedule.timezone).toBe('Etc/GMT+5');
    expect(issues({ unit: 'day', timezone: '+01:00' })).toEqual([{ field: 'timezone', message: expect.stringMatching(/is not an IANA time zone name/) }]);
    expect(issues({ unit: 'day', timezone: 'Mars/Olympus' })).toEqual([
      { field: 'timezone', message: expect.stringMatching(/"Mars\/Olympus" is not a time zone this service knows/) },
    ]);
    expect(issues({ unit: 'day', timezone: 'x'.repeat(51) })).toEqual([{ field: 'timezone', message: 'must be at most 50 characters' }]);
    expect(issues({ unit: 'day' }, { defaultTimezone: 'Mars/Olympus' })).toEqual([
      {
        field: 'timezone',
        message: expect.stringMatching(/^is not given, and the rule's settings.timezone "Mars\/Olympus" is not a time zone .*: send a timezone$/),
      },
    ]);
  });
});

describe('daylight saving time (Europe/Berlin): skipped in the spring gap, once in the autumn overlap', () => {
  const berlin = (spec: Record<string, string>, unit = 'day') => ({ unit, spec, timezone: 'Europe/Berlin' });

  it('a daily 02:30 does not run on the last Sunday of March, when 02:00-03:00 does not exist', () => {
    expect(runs(berlin({ hour: '2', minute: '30' }), Date.parse('2026-03-27T12:00:00Z'))).toEqual([
      { local: '2026-03-28T02:30:00+01:00', utc: '2026-03-28T01:30:00Z' },
      { local: '2026-03-30T02:30:00+02:00', utc: '2026-03-30T00:30:00Z' },
      { local: '2026-03-31T02:30:00+02:00', utc: '2026-03-31T00:30:00Z' },
    ]);
  });

  it('a daily 02:30 runs once on the last Sunday of October, at the first 02:30 (summer time)', () => {
    expect(runs(berlin({ hour: '2', minute: '30' }), Date.parse('2026-10-23T12:00:00Z'))).toEqual([
      { local: '2026-10-24T02:30:00+02:00', utc: '2026-10-24T00:30:00Z' },
      { local: '2026-10-25T02:30:00+02:00', utc: '2026-10-25T00:30:00Z' },
      { local: '2026-10-26T02:30:00+01:00', utc: '2026-10-26T01:30:00Z' },
    ]);
  });

  it('an every-30-minutes schedule goes from 01:30 straight to 03:00 in the spring', () => {
    expect(localRuns(berlin({ minute: '*/30' }, 'minute'), Date.parse('2026-03-29T00:15:00Z'))).toEqual([
      '2026-03-29T01:30:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T03:30:00+02:00',
    ]);
  });

  it('an every-30-minutes schedule runs the repeated hour once in the autumn', () => {
    expect(runs(berlin({ minute: '*/30' }, 'minute'), Date.parse('2026-10-24T23:45:00Z'))).toEqual([
      { local: '2026-10-25T02:00:00+02:00', utc: '2026-10-25T00:00:00Z' },
      { local: '2026-10-25T02:30:00+02:00', utc: '2026-10-25T00:30:00Z' },
      { local: '2026-10-25T03:00:00+01:00', utc: '2026-10-25T02:00:00Z' },
    ]);
    // From inside the second 02:00-03:00 (winter time), its times have run already.
    expect(localRuns(berlin({ minute: '*/30' }, 'minute'), Date.parse('2026-10-25T01:10:00Z'))[0]).toBe('2026-10-25T03:00:00+01:00');
  });

  it('an hourly schedule at :30 skips 02:30 in the spring', () => {
    expect(localRuns(berlin({ minute: '30' }, 'hour'), Date.parse('2026-03-29T00:00:00Z'))).toEqual([
      '2026-03-29T01:30:00+01:00',
      '2026-03-29T03:30:00+02:00',
      '2026-03-29T04:30:00+02:00',
    ]);
  });
});

describe('enable, disable and delete', () => {
  it('is enabled unless isEnabled is false; a disabled schedule is kept with no next runs', () => {
    expect(prepare({ unit: 'day' }).schedule.isEnabled).toBe(true);
    const disabled = prepare({ unit: 'day', isEnabled: false });
    expect(disabled.schedule.isEnabled).toBe(false);
    expect(disabled.expression).toBe('cron(0 0 * * ? *)');
    expect(scheduleView(disabled, now).nextRuns).toEqual([]);
    expect(nextRuns(disabled.schedule, now, 1)).toEqual([{ local: '2026-03-21T00:00:00+00:00', utc: '2026-03-21T00:00:00Z' }]);
  });

  it('isDelete true is a delete, whatever else the body holds, but still a strict body', () => {
    const deletes = (body: unknown) => parseScheduleBody(body, { now });
    expect(deletes({ isDelete: true })).toEqual({ ok: true, isDelete: true });
    expect(deletes({ isDelete: true, unit: 'day', spec: { minute: '61' }, endAt: '2020-01-01T00:00:00Z' })).toEqual({ ok: true, isDelete: true });
    expect(deletes({ isDelete: true, remove: true })).toEqual({ ok: false, issues: [{ field: 'body', message: 'unknown fields: remove' }] });
    expect(deletes({ isDelete: 'yes' })).toEqual({ ok: false, issues: [{ field: 'isDelete', message: 'must be true or false' }] });
    expect(deletes({ isDelete: false, unit: 'day' })).toMatchObject({ ok: true, isDelete: false });
  });
});

describe('inputParam', () => {
  it('is stored as given, {} when absent', () => {
    expect(prepare({ unit: 'day', inputParam: { order: { total: 120, items: ['a'] } } }).schedule.inputParam).toEqual({ order: { total: 120, items: ['a'] } });
    expect(prepare({ unit: 'day' }).schedule.inputParam).toEqual({});
  });

  it('must be an object within the bounds', () => {
    expect(issues({ unit: 'day', inputParam: [1] })).toEqual([{ field: 'inputParam', message: "must be a JSON object (the rule's params for each run)" }]);
    expect(issues({ unit: 'day', inputParam: { text: 'x'.repeat(8200) } })).toEqual([
      { field: 'inputParam', message: expect.stringMatching(/bytes as JSON, more than the 8192 allowed/) },
    ]);
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 40; i++) deep = (deep.next = {}) as Record<string, unknown>;
    expect(issues({ unit: 'day', inputParam: root })).toEqual([{ field: 'inputParam', message: 'nests deeper than 32 levels' }]);
  });
});

describe('idempotence', () => {
  const body = {
    unit: 'minute',
    isEnabled: true,
    startAt: '2026-04-01T00:00:00+02:00',
    timezone: 'Europe/Berlin',
    spec: { minute: '*/15', dayOfWeek: 'MON-FRI' },
    inputParam: { b: 1, a: [2] },
  };

  it('the same body gives the same stored schedule and expression, whenever it is saved', () => {
    const first = prepare(body);
    const again = prepare(structuredClone(body), { now: now + 86_400_000 });
    expect(again).toStrictEqual(first);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
  });

  it('equivalent fields give the same expression', () => {
    expect(expression({ unit: 'day', spec: { dayOfWeek: '1-5' } })).toBe(expression({ unit: 'day', spec: { dayOfWeek: 'mon-fri' } }));
    expect(expression({ unit: 'minute', spec: { minute: '*/15' } })).toBe(expression({ unit: 'minute', spec: { minute: '0,15,30,45' } }));
    expect(expression({ unit: 'day', spec: { dayOfWeek: '0' } })).toBe(expression({ unit: 'day', spec: { dayOfWeek: '7' } }));
  });
});
