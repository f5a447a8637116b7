/**
 * FEEL's numbers: DMN's decimal128 (34 significant digits, exponents to
 * ±6144, results rounded half-even), held so that rules pay for exactness only
 * where a double would round.
 *
 * A number is a `Num`: a JavaScript double or a `Decimal`. A double stands for
 * the decimal its shortest text names (`String(0.1)` is "0.1", so the double
 * 0.1 is the decimal 0.1). Every operation keeps that true: it answers a
 * double only when the exact decimal result is what the double's text says
 * (integers in the safe range; values of at most 15 significant digits, which
 * a double always carries exactly to text and back), and a `Decimal` (a BigInt
 * coefficient and a power of ten) otherwise. So rules over prices, counts and
 * ages run on doubles, at a double's speed, and `0.1 + 0.2` is 0.3.
 *
 * Each value has one form: a double whenever it can be one (`finish` and
 * `parseNumber` make sure), a `Decimal` otherwise; so a `Decimal` never equals
 * a double. Comparison of two doubles is exact as it is: shortest texts order
 * as the doubles do. Mixed operands go through `Decimal`.
 */

declare global {
  interface JSON {
    /** JSON text to write as it is (ES2025 JSON.parse source text access; Node 21+, browsers since 2023-2025). */
    rawJSON?(text: string): unknown;
  }
}

/** Significant digits of a result (decimal128). */
export const precision = 34;
/** The largest adjusted exponent (the power of ten of the first digit) a number may have. */
export const maxExponent = 6144;
/** The smallest exponent of the last digit: a result with digits below it is rounded there. */
export const minExponent = -6176;

/** An exact decimal `coefficient × 10^exponent`. Made here only; a finished one has at most 34 digits and no trailing zeros. */
export class Decimal {
  constructor(
    readonly coefficient: bigint,
    readonly exponent: number,
  ) {}

  toString(): string {
    return decimalText(this.coefficient, this.exponent);
  }

  /**
   * JSON carries all the digits (JSON.stringify of a double would round them).
   * Where JSON.rawJSON is missing (a browser older than 2025 running the
   * console's engine), the nearest double is the best JSON can do.
   */
  toJSON(): unknown {
    return typeof JSON.rawJSON === 'function' ? JSON.rawJSON(this.toString()) : Number(this.toString());
  }
}

export type Num = number | Decimal;

export const isNum = (value: unknown): value is Num => typeof value === 'number' || value instanceof Decimal;

/** Text as JavaScript writes numbers: plain between 1e-7 and 1e21, else with an exponent (`1.5e+25`). */
function decimalText(coefficient: bigint, exponent: number): string {
  const negative = coefficient < 0n;
  const digits = (negative ? -coefficient : coefficient).toString();
  const adjusted = exponent + digits.length - 1;
  let text: string;
  if (adjusted >= 21 || adjusted < -7) {
    const mantissa = digits.replace(/0+$/, '');
    text = `${mantissa[0]}${mantissa.length > 1 ? `.${mantissa.slice(1)}` : ''}e${adjusted < 0 ? '-' : '+'}${Math.abs(adjusted)}`;
  } else if (exponent >= 0) text = digits + '0'.repeat(exponent);
  else if (adjusted >= 0) text = `${digits.slice(0, digits.length + exponent)}.${digits.slice(digits.length + exponent)}`;
  else text = `0.${'0'.repeat(-adjusted - 1)}${digits}`;
  return negative ? `-${text}` : text;
}

/** The text of a number, as `string()` and messages give it. */
export const numberText = (n: Num): string => (typeof n === 'number' ? String(n + 0) : n.toString());

const numberPattern = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The number a text names (JSON's number syntax, and FEEL's `.5`, `5.`):
 * exact, rounded half-even to 34 digits; null when it is not a number or lies
 * beyond decimal128's range.
 */
export function parseNumber(text: string): Num | null {
  const match = numberPattern.exec(text);
  if (!match) return null;
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match;
  if (whole === '' && fraction === '') return null;
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0;
  const exponent = Number(exponentText) - fraction.length;
  const double = asDouble(sign === '-', digits, exponent);
  if (double !== undefined) return double;
  if (!Number.isSafeInteger(exponent)) return exponent + digits.length - 1 < 0 ? 0 : null;
  return finish(BigInt(sign + digits), exponent);
}

const powersOfTen = Array.from({ length: 23 }, (_, i) => 10 ** i);
const bigPowers: bigint[] = [];
/** 10^n as a BigInt (the small ones kept). */
export const tenTo = (n: number): bigint => (n < 64 ? (bigPowers[n] ??= 10n ** BigInt(n)) : 10n ** BigInt(n));

/** A number as a `Decimal` (which may have trailing zeros: for arithmetic, not for keeping). */
export function toDecimal(n: Num): Decimal {
  if (typeof n !== 'number') return n;
  if (Number.isSafeInteger(n)) return new Decimal(BigInt(n), 0);
  const match = numberPattern.exec(String(n))!;
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match;
  return new Decimal(BigInt(sign + whole + fraction), Number(exponentText) - fraction.length);
}

export type RoundingMode = 'halfEven' | 'halfUp' | 'halfDown' | 'up' | 'down' | 'floor' | 'ceiling';

/** `coefficient ÷ 10^drop`, rounded to an integer by `mode`. */
function dropDigits(coefficient: bigint, drop: number, mode: RoundingMode): bigint {
  const divisor = tenTo(drop);
  const quotient = coefficient / divisor;
  const remainder = coefficient % divisor;
  if (remainder === 0n) return quotient;
  const sign = coefficient < 0n ? -1n : 1n;
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  const half = twice < divisor ? -1 : twice > divisor ? 1 : 0;
  let away: boolean;
  switch (mode) {
    case 'down':
      away = false;
      break;
    case 'up':
      away = true;
      break;
    case 'floor':
      away = sign < 0n;
      break;
    case 'ceiling':
      away = sign > 0n;
      break;
    case 'halfUp':
      away = half >= 0;
      break;
    case 'halfDown':
      away = half > 0;
      break;
    case 'halfEven':
      away = half > 0 || (half === 0 && quotient % 2n !== 0n);
  }
  return away ? quotient + sign : quotient;
}

/** How many digits an integer has. */
export const digitCount = (c: bigint) => (c < 0n ? -c : c).toString().length;

/**
 * The number `digits × 10^exponent` (no leading zeros) as a double, when a
 * double holds it: one of at most 15 digits in a double's normal range (1e-307
 * to 1e307), or a safe integer of 16 digits (|n| ≤ 2^53 - 1). Each value thus
 * has one form: a double when it can be one, a `Decimal` otherwise.
 */
function asDouble(negative: boolean, digits: string, exponent: number): number | undefined {
  const adjusted = exponent + digits.length - 1;
  if (digits.length <= 15 ? adjusted <= -308 || adjusted >= 308 : digits.length !== 16 || exponent !== 0) return undefined;
  const n = Number(`${negative ? '-' : ''}${digits}e${exponent}`);
  return digits.length <= 15 || Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A result as a number: rounded half-even to 34 digits (and to the smallest
 * exponent), trailing zeros dropped, and held as a double when the double's
 * text is this number. Null when it is too large for decimal128.
 */
export function finish(coefficient: bigint, exponent: number): Num | null {
  if (coefficient === 0n) return 0;
  let length = digitCount(coefficient);
  const drop = Math.max(length - precision, minExponent - exponent);
  if (drop > 0) {
    coefficient = drop > length ? 0n : dropDigits(coefficient, drop, 'halfEven');
    exponent += drop;
    if (coefficient === 0n) return 0;
    length = digitCount(coefficient);
  }
  let text = (coefficient < 0n ? -coefficient : coefficient).toString();
  const trimmed = text.replace(/0+$/, '');
  if (trimmed.length < text.length) {
    exponent += text.length - trimmed.length;
    text = trimmed;
    coefficient = BigInt(coefficient < 0n ? `-${text}` : text);
  }
  if (exponent + text.length - 1 > maxExponent) return null;
  return asDouble(coefficient < 0n, text, exponent) ?? new Decimal(coefficient, exponent);
}

/**
 * The power of ten `s` (0–15) with `x = m / 10^s` for an integer `m` of at most
 * 15 digits, or -1: such an `x` is the decimal `m × 10^-s` exactly, and
 * operations on such `m` are integer operations.
 */
function scaleOf(x: number): number {
  if (Number.isInteger(x)) return Math.abs(x) < 1e15 ? 0 : -1;
  for (let s = 1; s <= 15; s++) {
    const m = x * powersOfTen[s]!;
    if (Number.isInteger(m)) return Math.abs(m) < 1e15 && m / powersOfTen[s]! === x ? s : -1;
  }
  return -1;
}

function addExact(a: Decimal, b: Decimal): Num | null {
  if (a.exponent === b.exponent) return finish(a.coefficient + b.coefficient, a.exponent);
  const [hi, lo] = a.exponent > b.exponent ? [a, b] : [b, a];
  return finish(hi.coefficient * tenTo(hi.exponent - lo.exponent) + lo.coefficient, lo.exponent);
}

/** `a + b`; null beyond decimal128's range. */
export function add(a: Num, b: Num): Num | null {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
      const r = a + b;
      if (Number.isSafeInteger(r)) return r;
    } else {
      const sa = scaleOf(a);
      const sb = sa < 0 ? -1 : scaleOf(b);
      if (sb >= 0) {
        const s = Math.max(sa, sb);
        const [x, y] = [Math.round(a * powersOfTen[s]!), Math.round(b * powersOfTen[s]!)];
        if (Math.abs(x) < 1e15 && Math.abs(y) < 1e15 && Math.abs(x + y) < 1e15) return (x + y) / powersOfTen[s]! + 0;
      }
    }
  }
  return addExact(toDecimal(a), toDecimal(b));
}

export const negate = (a: Num): Num => (typeof a === 'number' ? -a + 0 : new Decimal(-a.coefficient, a.exponent));

/** `a - b`; null beyond decimal128's range. */
export const subtract = (a: Num, b: Num): Num | null => add(a, negate(b));

/** `a × b`; null beyond decimal128's range. */
export function multiply(a: Num, b: Num): Num | null {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
      const r = a * b;
      if (Number.isSafeInteger(r)) return r + 0;
    } else {
      const sa = scaleOf(a);
      const sb = sa < 0 ? -1 : scaleOf(b);
      if (sb >= 0 && sa + sb <= 22) {
        const product = Math.round(a * powersOfTen[sa]!) * Math.round(b * powersOfTen[sb]!);
        if (Math.abs(product) < 1e15) return product / powersOfTen[sa + sb]! + 0;
      }
    }
  }
  const [x, y] = [toDecimal(a), toDecimal(b)];
  return finish(x.coefficient * y.coefficient, x.exponent + y.exponent);
}

/** `c1·10^e1 ÷ c2·10^e2` to at least `digits` digits, with a last digit that keeps rounding right when the quotient is not exact. */
export function divideTo(c1: bigint, e1: number, c2: bigint, e2: number, digits: number): { coefficient: bigint; exponent: number } {
  const shift = Math.max(0, digits + 1 + digitCount(c2) - digitCount(c1));
  const numerator = c1 * tenTo(shift);
  const quotient = numerator / c2;
  if (numerator % c2 === 0n) return { coefficient: quotient, exponent: e1 - e2 - shift };
  // A sticky 1 below the last digit: the quotient lies strictly between two of its roundings.
  return { coefficient: quotient * 10n + (numerator < 0n !== c2 < 0n ? -1n : 1n), exponent: e1 - e2 - shift - 1 };
}

/** `a ÷ b`, rounded half-even to 34 digits; null for division by zero or beyond decimal128's range. */
export function divide(a: Num, b: Num): Num | null {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b) && b !== 0 && a % b === 0) return a / b + 0;
  const [x, y] = [toDecimal(a), toDecimal(b)];
  if (y.coefficient === 0n) return null;
  if (x.coefficient === 0n) return 0;
  const q = divideTo(x.coefficient, x.exponent, y.coefficient, y.exponent, precision + 1);
  return finish(q.coefficient, q.exponent);
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
export function compare(a: Num, b: Num): -1 | 0 | 1 {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  const [x, y] = [toDecimal(a), toDecimal(b)];
  const [sx, sy] = [sign(x), sign(y)];
  if (sx !== sy) return sx < sy ? -1 : 1;
  if (sx === 0) return 0;
  const [lx, ly] = [x.exponent + digitCount(x.coefficient), y.exponent + digitCount(y.coefficient)];
  if (lx !== ly) return (lx > ly ? sx : -sx) as -1 | 1;
  const shift = x.exponent - y.exponent;
  const [cx, cy] = shift >= 0 ? [x.coefficient * tenTo(shift), y.coefficient] : [x.coefficient, y.coefficient * tenTo(-shift)];
  return cx < cy ? -1 : cx > cy ? 1 : 0;
}

const sign = (d: Decimal) => (d.coefficient < 0n ? -1 : d.coefficient > 0n ? 1 : 0);

export const numbersEqual = (a: Num, b: Num): boolean => (typeof a === 'number' && typeof b === 'number' ? a === b : compare(a, b) === 0);

export const isInteger = (n: Num): boolean => (typeof n === 'number' ? Number.isInteger(n) : n.exponent >= 0 || n.coefficient % tenTo(-n.exponent) === 0n);

export const isNegative = (n: Num): boolean => (typeof n === 'number' ? n < 0 : n.coefficient < 0n);

export const absolute = (n: Num): Num => (isNegative(n) ? negate(n) : n);

/** A whole number as a JavaScript number (for positions, lengths, date parts): exact when it is in the safe range. */
export const toInteger = (n: Num): number => (typeof n === 'number' ? n : Number(n.toString()));

/**
 * `n` rounded to `scale` digits after the point (a negative scale rounds to
 * tens, hundreds, …) by `mode`: DMN's `decimal`, `floor`, `ceiling`,
 * `round up`, `round down`, `round half up` and `round half down`.
 */
export function roundToScale(n: Num, scale: number, mode: RoundingMode): Num | null {
  if (typeof n === 'number') {
    const s = scaleOf(n);
    if (s >= 0 && s <= scale) return n;
  }
  const d = toDecimal(n);
  if (-d.exponent <= scale) return finish(d.coefficient, d.exponent);
  const drop = -scale - d.exponent;
  const length = digitCount(d.coefficient);
  // Far below the kept digits: only the direction matters (0, or one unit for `up`, `floor` of a negative, `ceiling` of a positive).
  const coefficient = drop > length + 1 ? dropDigits(d.coefficient * 10n, length + 2, mode) : dropDigits(d.coefficient, drop, mode);
  return finish(coefficient, -scale);
}

/** `a modulo b` as DMN defines it: `a - b × floor(a / b)`, exact; null when `b` is 0. */
export function modulo(a: Num, b: Num): Num | null {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    if (b === 0) return null;
    const r = a % b;
    return r !== 0 && r < 0 !== b < 0 ? r + b : r + 0;
  }
  const [x, y] = [toDecimal(a), toDecimal(b)];
  if (y.coefficient === 0n) return null;
  const exponent = Math.min(x.exponent, y.exponent);
  const cx = x.coefficient * tenTo(x.exponent - exponent);
  const cy = y.coefficient * tenTo(y.exponent - exponent);
  const r = cx % cy;
  return finish(r !== 0n && r < 0n !== cy < 0n ? r + cy : r, exponent);
}
