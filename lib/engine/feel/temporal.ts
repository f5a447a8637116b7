/**
 * FEEL's dates, times, dates and times, and the two kinds of duration, with
 * their order, arithmetic and ISO text, written for this engine so that an
 * evaluation needs no Temporal polyfill. Time zones are IANA names, whose
 * offsets time-zones.ts reads from the platform's Intl data (daylight-saving
 * changes included, with its rule for a time a change skips or repeats).
 *
 * DMN 1.5 allows years from -999,999,999 to 999,999,999, far beyond the
 * ±275,760 years of a JavaScript Date; so the calendar here is arithmetic on
 * day numbers, not Date, and a date and time is its date's day number and the
 * seconds into that day rather than one count of seconds since the epoch,
 * which past about ±285 million years no longer holds whole seconds exactly.
 */

import { isTimeZone, offsetAtInstant, offsetAtWallClock } from './time-zones.ts';

const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, '0');
const SECONDS_PER_DAY = 86_400;
/** Days in 400 Gregorian years, after which the calendar, weekdays included, repeats. */
const DAYS_PER_CYCLE = 146_097;
/** Days from 0000-03-01, where the cycle counted below starts, to 1970-01-01. */
const EPOCH_FROM_MARCH_0 = 719_468;

const MIN_YEAR = -999_999_999;
const MAX_YEAR = 999_999_999;

/**
 * Days since 1970-01-01 of a proleptic Gregorian date, astronomical years (0 is 1 BC). Years are
 * counted from March, so that the leap day ends one, and in 400-year cycles, so that the
 * arithmetic is exact for every year DMN allows and as fast as Date.UTC.
 */
function epochDay(y: number, m: number, d: number): number {
  const year = m > 2 ? y : y - 1;
  const cycle = Math.floor(year / 400);
  const yearOfCycle = year - cycle * 400;
  const dayOfYear = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const dayOfCycle = yearOfCycle * 365 + Math.floor(yearOfCycle / 4) - Math.floor(yearOfCycle / 100) + dayOfYear;
  return cycle * DAYS_PER_CYCLE + dayOfCycle - EPOCH_FROM_MARCH_0;
}

/** The year, month and day of `epochDay`'s day number: the same steps backwards. */
function fromEpochDay(day: number): [number, number, number] {
  const fromMarch0 = day + EPOCH_FROM_MARCH_0;
  const cycle = Math.floor(fromMarch0 / DAYS_PER_CYCLE);
  const dayOfCycle = fromMarch0 - cycle * DAYS_PER_CYCLE;
  // Leave out the leap days so far (one each four years, but none at a century's end save the cycle's last day), then count 365-day years.
  const yearOfCycle = Math.floor((dayOfCycle - Math.floor(dayOfCycle / 1460) + Math.floor(dayOfCycle / 36_524) - Math.floor(dayOfCycle / 146_096)) / 365);
  const dayOfYear = dayOfCycle - (yearOfCycle * 365 + Math.floor(yearOfCycle / 4) - Math.floor(yearOfCycle / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const d = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const m = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  return [cycle * 400 + yearOfCycle + (m <= 2 ? 1 : 0), m, d];
}

const isLeapYear = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export const daysInMonth = (y: number, m: number) => (m === 2 && isLeapYear(y) ? 29 : MONTH_DAYS[m - 1]!);

/** Whether a year is one DMN allows; arithmetic that leaves the range gives null. */
const inYearRange = (y: number) => y >= MIN_YEAR && y <= MAX_YEAR;

function formatSeconds(seconds: number): string {
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const fraction = seconds - whole;
  const fractionText = fraction > 0 ? (Math.round(fraction * 1e9) / 1e9).toFixed(9).slice(1).replace(/0+$/, '') : '';
  return `${pad(h)}:${pad(m)}:${pad(s)}${fractionText}`;
}

function formatOffset(offset: number): string {
  if (offset === 0) return 'Z';
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const seconds = abs % 60;
  return `${sign}${pad(Math.floor(abs / 3600))}:${pad(Math.floor((abs % 3600) / 60))}${seconds ? `:${pad(seconds)}` : ''}`;
}

/** Days from the epoch that a Date reaches, less a margin for the neighbouring days that time-zones.ts looks at. */
const DATE_DAYS = 99_999_000;

/**
 * Seconds since the epoch of the time `seconds` after the UTC midnight that starts day `day`, as time-zones.ts reads
 * zones: past a Date's range, the same time whole 400-year cycles nearer, since the calendar repeats, and so do the
 * zone's rules that far out (its last rules ahead, its local mean time behind).
 */
function inDateRange(day: number, seconds: number): number {
  const shift = Math.abs(day) <= DATE_DAYS ? 0 : Math.sign(day) * Math.ceil((Math.abs(day) - DATE_DAYS) / DAYS_PER_CYCLE) * DAYS_PER_CYCLE;
  return (day - shift) * SECONDS_PER_DAY + seconds;
}

/**
 * DMN compares times and date-times at their value resolution, the second, as the DMN TCK has it
 * (`time("10:30:00.0001") = time("10:30:00.0002")`): each side's seconds are cut to whole ones first.
 */
const atValueResolution = (seconds: number) => Math.floor(seconds);

export abstract class FeelTemporal {
  abstract compareTo(other: unknown): number | null;
  abstract toString(): string;
  toJSON() {
    return this.toString();
  }
}

export class FeelDate extends FeelTemporal {
  constructor(
    readonly y: number,
    readonly m: number,
    readonly d: number,
    /** Days since 1970-01-01; given by a caller that has counted them already. */
    readonly day = epochDay(y, m, d),
  ) {
    super();
  }

  static of(y: number, m: number, d: number): FeelDate | null {
    if (![y, m, d].every(Number.isInteger) || m < 1 || m > 12 || d < 1 || !inYearRange(y)) return null;
    return d <= daysInMonth(y, m) ? new FeelDate(y, m, d) : null;
  }

  /** The date of a day number, in the range DMN allows or not: callers that need the range use `plusDays`. */
  static fromDay(day: number): FeelDate {
    const [y, m, d] = fromEpochDay(day);
    return new FeelDate(y, m, d, day);
  }

  /**
   * XML Schema's lexical form: a year of four digits, or more without a leading zero (`01211` is no year), and
   * a minus sign before a year before year 0 (astronomical years: `-0001` is 2 BC); the value bounds it to nine.
   */
  static parse(text: string): FeelDate | null {
    const match = /^(-?(?:[1-9]\d{4,}|\d{4}))-(\d\d)-(\d\d)$/.exec(text);
    // `+ 0` turns the year of "-0000" from -0 into 0.
    return match ? FeelDate.of(Number(match[1]) + 0, Number(match[2]), Number(match[3])) : null;
  }

  compareTo(other: unknown): number | null {
    return other instanceof FeelDate ? Math.sign(this.day - other.day) : null;
  }

  /** ISO weekday: 1 for Monday to 7 for Sunday. */
  get weekday() {
    return ((((this.day + 3) % 7) + 7) % 7) + 1;
  }

  /** The date `days` later, or null past the years DMN allows. */
  plusDays(days: number): FeelDate | null {
    const date = FeelDate.fromDay(this.day + days);
    return inYearRange(date.y) ? date : null;
  }

  /** The date `months` later, on the same day or the month's last, or null past the years DMN allows. */
  plusMonths(months: number): FeelDate | null {
    const total = this.y * 12 + (this.m - 1) + months;
    const y = Math.floor(total / 12);
    const m = total - y * 12 + 1;
    return inYearRange(y) ? new FeelDate(y, m, Math.min(this.d, daysInMonth(y, m))) : null;
  }

  toString() {
    return `${this.y < 0 ? '-' : ''}${pad(this.y, 4)}-${pad(this.m)}-${pad(this.d)}`;
  }
}

/** Offset in seconds east of UTC, or null for a local time; a zone name implies the offset in force. */
interface Zone {
  offset: number | null;
  zone: string | null;
}

const ZONE_SUFFIX = /(Z|[+-]\d\d:\d\d(?::\d\d)?|@[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*)?$/;
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)/;

function parseTimeParts(text: string): { seconds: number; zone: Zone } | null {
  const match = TIME.exec(text);
  if (!match) return null;
  const rest = text.slice(match[0].length);
  const suffix = ZONE_SUFFIX.exec(rest);
  if (!suffix || suffix.index !== 0) return null;
  const [h, m, s] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // 24:00:00, the end of a day (XML Schema, DMN 1.5), is the next day's midnight; no other time of hour 24 is.
  if ((h > 23 && !(h === 24 && m === 0 && s === 0)) || m > 59 || s >= 60) return null;
  const z = suffix[1];
  let zone: Zone = { offset: null, zone: null };
  if (z === 'Z') zone = { offset: 0, zone: null };
  else if (z?.startsWith('@')) {
    if (!isTimeZone(z.slice(1))) return null;
    zone = { offset: null, zone: z.slice(1) };
  } else if (z) {
    const [hh, mm, ss = '0'] = z.slice(1).split(':');
    if (Number(hh) > 18 || Number(mm) > 59) return null;
    zone = { offset: (z[0] === '-' ? -1 : 1) * (Number(hh) * 3600 + Number(mm) * 60 + Number(ss)), zone: null };
  }
  return { seconds: h * 3600 + m * 60 + s, zone };
}

const zoneText = ({ offset, zone }: Zone) => (zone ? `@${zone}` : offset === null ? '' : formatOffset(offset));

export class FeelTime extends FeelTemporal {
  constructor(
    /** Seconds since midnight, with fraction. */
    readonly seconds: number,
    readonly offset: number | null,
    readonly zone: string | null,
  ) {
    super();
  }

  static parse(text: string): FeelTime | null {
    const parts = parseTimeParts(text);
    return parts && new FeelTime(parts.seconds % SECONDS_PER_DAY, parts.zone.offset, parts.zone.zone);
  }

  /** Offset in force: a zone's is taken at today's date, as a time alone has none. */
  private effectiveOffset(): number | null {
    if (this.zone) return offsetAtWallClock(this.zone, inDateRange(Math.floor(Date.now() / 86_400_000), this.seconds));
    return this.offset;
  }

  compareTo(other: unknown): number | null {
    if (!(other instanceof FeelTime)) return null;
    const [a, b] = [this.effectiveOffset(), other.effectiveOffset()];
    if ((a === null) !== (b === null)) return null;
    // As XML Schema orders times: on one reference day, in UTC, not wrapped around midnight (08:00-05:00 is before 20:00-05:00).
    return Math.sign(atValueResolution(this.seconds - (a ?? 0)) - atValueResolution(other.seconds - (b ?? 0)));
  }

  plusSeconds(seconds: number): FeelTime {
    return new FeelTime((((this.seconds + seconds) % SECONDS_PER_DAY) + SECONDS_PER_DAY) % SECONDS_PER_DAY, this.offset, this.zone);
  }

  get hour() {
    return Math.floor(this.seconds / 3600);
  }
  get minute() {
    return Math.floor((this.seconds % 3600) / 60);
  }
  get second() {
    return this.seconds % 60;
  }
  get timeOffset() {
    const offset = this.effectiveOffset();
    return offset === null ? null : FeelDuration.daysTime(offset);
  }

  toString() {
    return `${formatSeconds(this.seconds)}${zoneText(this)}`;
  }
}

export class FeelDateTime extends FeelTemporal {
  constructor(
    readonly date: FeelDate,
    /** Seconds since the date's midnight, with fraction. */
    readonly seconds: number,
    readonly offset: number | null,
    readonly zone: string | null,
  ) {
    super();
  }

  static parse(text: string): FeelDateTime | null {
    const t = text.indexOf('T');
    if (t < 0) {
      const date = FeelDate.parse(text);
      return date && new FeelDateTime(date, 0, null, null);
    }
    const date = FeelDate.parse(text.slice(0, t));
    const time = parseTimeParts(text.slice(t + 1));
    if (!date || !time) return null;
    const endOfDay = time.seconds === SECONDS_PER_DAY;
    const day = endOfDay ? date.plusDays(1) : date;
    return day && new FeelDateTime(day, endOfDay ? 0 : time.seconds, time.zone.offset, time.zone.zone);
  }

  static of(date: FeelDate, time: FeelTime): FeelDateTime {
    return new FeelDateTime(date, time.seconds, time.offset, time.zone);
  }

  /** A date where a date and time is needed, as in subtraction: DMN 1.5 (10.3.2.3.5) takes it at midnight UTC. */
  static atUtcMidnight(date: FeelDate): FeelDateTime {
    return new FeelDateTime(date, 0, 0, null);
  }

  /** The offset in force at this date and time, or null for a local one. */
  get effectiveOffset(): number | null {
    return this.zone ? offsetAtWallClock(this.zone, inDateRange(this.date.day, this.seconds)) : this.offset;
  }

  /**
   * Seconds from `other` to this: between the instants, or between the local dates and times when neither has an
   * offset; null when one has and the other has not. Days and seconds are subtracted apart, not as counts of
   * seconds since the epoch, which lose the fraction of a second long before the years DMN allows end.
   */
  since(other: FeelDateTime): number | null {
    const [a, b] = [this.effectiveOffset, other.effectiveOffset];
    if ((a === null) !== (b === null)) return null;
    return (this.date.day - other.date.day) * SECONDS_PER_DAY + (this.seconds - (a ?? 0) - (other.seconds - (b ?? 0)));
  }

  compareTo(other: unknown): number | null {
    if (!(other instanceof FeelDateTime)) return null;
    const [a, b] = [this.effectiveOffset, other.effectiveOffset];
    if ((a === null) !== (b === null)) return null;
    const days = this.date.day - other.date.day;
    return Math.sign(days * SECONDS_PER_DAY + atValueResolution(this.seconds - (a ?? 0)) - atValueResolution(other.seconds - (b ?? 0)));
  }

  /** The date and time `seconds` after the midnight that starts day `day`, with this one's offset or zone; null past the years DMN allows. */
  private at(day: number, seconds: number): FeelDateTime | null {
    const days = Math.floor(seconds / SECONDS_PER_DAY);
    const date = FeelDate.fromDay(day + days);
    return inYearRange(date.y) ? new FeelDateTime(date, seconds - days * SECONDS_PER_DAY, this.offset, this.zone) : null;
  }

  plusSeconds(seconds: number): FeelDateTime | null {
    if (!this.zone) return this.at(this.date.day, this.seconds + seconds);
    // Exact time: move the instant (counted from this date's UTC midnight), then read the zone's local time there.
    const utc = this.seconds - this.effectiveOffset! + seconds;
    return this.at(this.date.day, utc + offsetAtInstant(this.zone, inDateRange(this.date.day, utc)));
  }

  plusMonths(months: number): FeelDateTime | null {
    const date = this.date.plusMonths(months);
    return date && new FeelDateTime(date, this.seconds, this.offset, this.zone);
  }

  get time(): FeelTime {
    return new FeelTime(this.seconds, this.offset, this.zone);
  }

  toString() {
    return `${this.date}T${formatSeconds(this.seconds)}${zoneText(this)}`;
  }
}

export class FeelDuration extends FeelTemporal {
  private constructor(
    readonly kind: 'yearsMonths' | 'daysTime',
    /** Months for a years-and-months duration, seconds for a days-and-time one. */
    readonly amount: number,
  ) {
    super();
  }

  static yearsMonths(months: number) {
    return new FeelDuration('yearsMonths', Math.trunc(months));
  }

  static daysTime(seconds: number) {
    return new FeelDuration('daysTime', seconds);
  }

  static parse(text: string): FeelDuration | null {
    const match = /^(-)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text);
    if (!match || text.endsWith('P') || text.endsWith('T')) return null;
    const [, minus, y, mo, d, h, mi, s] = match;
    const sign = minus ? -1 : 1;
    const hasYearsMonths = y !== undefined || mo !== undefined;
    const hasDaysTime = d !== undefined || h !== undefined || mi !== undefined || s !== undefined;
    if (hasYearsMonths && hasDaysTime) return null;
    if (hasYearsMonths) return FeelDuration.yearsMonths(sign * (Number(y ?? 0) * 12 + Number(mo ?? 0)));
    return FeelDuration.daysTime(sign * (Number(d ?? 0) * SECONDS_PER_DAY + Number(h ?? 0) * 3600 + Number(mi ?? 0) * 60 + Number(s ?? 0)));
  }

  compareTo(other: unknown): number | null {
    return other instanceof FeelDuration && other.kind === this.kind ? Math.sign(this.amount - other.amount) : null;
  }

  plus(other: FeelDuration, sign = 1): FeelDuration | null {
    return other.kind === this.kind ? new FeelDuration(this.kind, this.amount + sign * other.amount) : null;
  }

  times(factor: number): FeelDuration {
    return new FeelDuration(this.kind, this.kind === 'yearsMonths' ? Math.trunc(this.amount * factor) : this.amount * factor);
  }

  get years() {
    return this.kind === 'yearsMonths' ? Math.trunc(this.amount / 12) : null;
  }
  get months() {
    return this.kind === 'yearsMonths' ? Math.trunc(this.amount % 12) : null;
  }
  get days() {
    return this.kind === 'daysTime' ? Math.trunc(this.amount / SECONDS_PER_DAY) : null;
  }
  get hours() {
    return this.kind === 'daysTime' ? Math.trunc((this.amount % SECONDS_PER_DAY) / 3600) : null;
  }
  get minutes() {
    return this.kind === 'daysTime' ? Math.trunc((this.amount % 3600) / 60) : null;
  }
  get seconds() {
    return this.kind === 'daysTime' ? this.amount % 60 : null;
  }

  toString() {
    const sign = this.amount < 0 ? '-' : '';
    const abs = Math.abs(this.amount);
    if (this.kind === 'yearsMonths') {
      const [y, m] = [Math.floor(abs / 12), abs % 12];
      return abs === 0 ? 'P0M' : `${sign}P${y ? `${y}Y` : ''}${m ? `${m}M` : ''}`;
    }
    if (abs === 0) return 'PT0S';
    const d = Math.floor(abs / SECONDS_PER_DAY);
    const rest = abs - d * SECONDS_PER_DAY;
    const h = Math.floor(rest / 3600);
    const m = Math.floor((rest % 3600) / 60);
    const s = Math.round((rest % 60) * 1e9) / 1e9;
    const time = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s ? `${s}S` : ''}`;
    return `${sign}P${d ? `${d}D` : ''}${time ? `T${time}` : ''}`;
  }
}
