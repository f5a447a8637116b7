/**
 * FEEL's dates, times, dates and times, and the two kinds of duration, with
 * their order, arithmetic and ISO text, written for this engine so that an
 * evaluation needs no Temporal polyfill. Time zones are IANA names, resolved
 * with the platform's Intl data (daylight-saving changes included).
 */

const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, '0');
const SECONDS_PER_DAY = 86_400;

/** Days since 1970-01-01 of a proleptic Gregorian date. */
const epochDay = (y: number, m: number, d: number) => Math.floor(Date.UTC(y, m - 1, d) / 86_400_000) + (y >= 0 && y < 100 ? yearFix(y, m, d) : 0);
// Date.UTC maps years 0..99 to 1900..1999: correct for that.
const yearFix = (y: number, m: number, d: number) => {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return Math.floor(date.getTime() / 86_400_000) - Math.floor(Date.UTC(y, m - 1, d) / 86_400_000);
};

function fromEpochDay(day: number): [number, number, number] {
  const date = new Date(day * 86_400_000);
  return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
}

const daysInMonth = (y: number, m: number) => fromEpochDay(epochDay(y, m + 1, 1) - 1)[2];

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

/** The offset (seconds east of UTC) that `zone` has at the instant `epochSeconds`. */
function zoneOffsetAt(zone: string, epochSeconds: number): number {
  const parts = Object.fromEntries(
    zoneFormat(zone)!
      .formatToParts(new Date(epochSeconds * 1000))
      .map((p) => [p.type, p.value]),
  );
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const local =
    epochDay(year, Number(parts.month), Number(parts.day)) * SECONDS_PER_DAY + Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  return local - Math.floor(epochSeconds);
}

/** The offset `zone` has at a local time: the earlier one when the clock repeats, the one before the gap when it skips. */
function zoneOffsetForLocal(zone: string, localSeconds: number): number {
  // The offsets in force a day before and a day after: those that map the local time back to themselves fit it.
  const before = zoneOffsetAt(zone, localSeconds - SECONDS_PER_DAY);
  const after = zoneOffsetAt(zone, localSeconds + SECONDS_PER_DAY);
  const fits = [before, after].filter((offset) => zoneOffsetAt(zone, localSeconds - offset) === offset);
  // Both fit when the clock repeats: the larger offset is the earlier instant. None fits in a gap.
  return fits.length ? Math.max(...fits) : before;
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
  readonly day: number;
  constructor(
    readonly y: number,
    readonly m: number,
    readonly d: number,
  ) {
    super();
    this.day = epochDay(y, m, d);
  }

  static of(y: number, m: number, d: number): FeelDate | null {
    if (![y, m, d].every(Number.isInteger) || m < 1 || m > 12 || d < 1 || y < -999_999_999 || y > 999_999_999) return null;
    return d <= daysInMonth(y, m) ? new FeelDate(y, m, d) : null;
  }

  static fromDay(day: number): FeelDate {
    const [y, m, d] = fromEpochDay(day);
    return new FeelDate(y, m, d);
  }

  static parse(text: string): FeelDate | null {
    const match = /^(-?\d{4,9})-(\d\d)-(\d\d)$/.exec(text);
    return match ? FeelDate.of(Number(match[1]), Number(match[2]), Number(match[3])) : null;
  }

  compareTo(other: unknown): number | null {
    return other instanceof FeelDate ? Math.sign(this.day - other.day) : null;
  }

  /** ISO weekday: 1 for Monday to 7 for Sunday. */
  get weekday() {
    return ((((this.day + 3) % 7) + 7) % 7) + 1;
  }

  plusMonths(months: number): FeelDate {
    const total = this.y * 12 + (this.m - 1) + months;
    const y = Math.floor(total / 12);
    const m = total - y * 12 + 1;
    return new FeelDate(y, m, Math.min(this.d, daysInMonth(y, m)));
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
    if (this.zone) return zoneOffsetForLocal(this.zone, Math.floor(Date.now() / 86_400_000) * SECONDS_PER_DAY + this.seconds);
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
    return new FeelDateTime(endOfDay ? FeelDate.fromDay(date.day + 1) : date, endOfDay ? 0 : time.seconds, time.zone.offset, time.zone.zone);
  }

  static of(date: FeelDate, time: FeelTime): FeelDateTime {
    return new FeelDateTime(date, time.seconds, time.offset, time.zone);
  }

  get local(): number {
    return this.date.day * SECONDS_PER_DAY + this.seconds;
  }

  /** The offset in force at this date and time, or null for a local one. */
  get effectiveOffset(): number | null {
    return this.zone ? zoneOffsetForLocal(this.zone, this.local) : this.offset;
  }

  /** Seconds since the epoch, or null for a local date and time. */
  get instant(): number | null {
    const offset = this.effectiveOffset;
    return offset === null ? null : this.local - offset;
  }

  compareTo(other: unknown): number | null {
    if (!(other instanceof FeelDateTime)) return null;
    const [a, b] = [this.instant, other.instant];
    if (a === null && b === null) return Math.sign(atValueResolution(this.local) - atValueResolution(other.local));
    if (a === null || b === null) return null;
    return Math.sign(atValueResolution(a) - atValueResolution(b));
  }

  withLocal(local: number): FeelDateTime {
    const day = Math.floor(local / SECONDS_PER_DAY);
    return new FeelDateTime(FeelDate.fromDay(day), local - day * SECONDS_PER_DAY, this.offset, this.zone);
  }

  plusSeconds(seconds: number): FeelDateTime {
    if (!this.zone) return this.withLocal(this.local + seconds);
    // Exact time: move the instant, then read the zone's local time there.
    const instant = this.instant! + seconds;
    return this.withLocal(instant + zoneOffsetAt(this.zone, instant));
  }

  plusMonths(months: number): FeelDateTime {
    return new FeelDateTime(this.date.plusMonths(months), this.seconds, this.offset, this.zone);
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
