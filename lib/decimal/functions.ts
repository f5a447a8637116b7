/**
 * DMN's functions whose results are rarely exact: `sqrt`, `exp`, `log` and
 * `**`. Each is computed with 50 significant digits (16 more than a result
 * keeps, so the errors of the steps never reach the 34th digit) and then
 * rounded half-even to 34, as DMN's decimal128 and the TCK expect
 * (`exp(4)` is 54.59815003314423907811026120286088). Integer powers are exact
 * before their one rounding while the exact result stays small.
 */
import { compare, digitCount, divideTo, finish, isInteger, isNegative, precision, tenTo, toDecimal, toInteger, type Num } from './decimal.ts';

/** Working digits: a value as `c × 10^e` with at most this many digits in `c`. */
const working = 50;

interface Float {
  c: bigint;
  e: number;
}

function trim(c: bigint, e: number): Float {
  const n = digitCount(c);
  return n > working ? { c: c / tenTo(n - working), e: e + n - working } : { c, e };
}

const one: Float = { c: 1n, e: 0 };
const float = (n: Num): Float => {
  const d = toDecimal(n);
  return trim(d.coefficient, d.exponent);
};
const magnitude = (f: Float) => f.e + digitCount(f.c);
const times = (a: Float, b: Float) => trim(a.c * b.c, a.e + b.e);
const over = (a: Float, b: Float) => {
  const q = divideTo(a.c, a.e, b.c, b.e, working);
  return trim(q.coefficient, q.exponent);
};

function plus(a: Float, b: Float): Float {
  if (a.c === 0n) return b;
  if (b.c === 0n) return a;
  const [hi, lo] = a.e >= b.e ? [a, b] : [b, a];
  if (magnitude(hi) - magnitude(lo) > working + 2) return hi;
  return trim(hi.c * tenTo(hi.e - lo.e) + lo.c, lo.e);
}

/** e^x: halve x until it is below 10^-3, sum the Taylor series, and square back. */
function expFloat(x: Float): Float {
  if (x.c < 0n) return over(one, expFloat({ c: -x.c, e: x.e }));
  if (x.c === 0n) return one;
  const approx = Number(`${x.c}e${x.e}`);
  const halvings = approx > 1e-3 ? Math.ceil(Math.log2(approx / 1e-3)) : 0;
  const r = halvings ? over(x, { c: 2n ** BigInt(halvings), e: 0 }) : x;
  let sum = one;
  let term = one;
  for (let i = 1; term.c !== 0n && magnitude(term) > -working - 2; i++) {
    term = over(times(term, r), { c: BigInt(i), e: 0 });
    sum = plus(sum, term);
  }
  for (let i = 0; i < halvings; i++) sum = times(sum, sum);
  return sum;
}

let ln10: Float | undefined;

/** ln of a positive value: the atanh series near 1, else ln of its digits (in [1, 10)) plus its power of ten times ln 10. */
function lnFloat(x: Float): Float {
  const n = digitCount(x.c);
  const adjusted = x.e + n - 1;
  const m: Float = { c: x.c, e: -(n - 1) };
  if (adjusted === 0 || adjusted === -1) {
    const diff = plus(x, { c: -1n, e: 0 });
    if (diff.c === 0n) return { c: 0n, e: 0 };
    if (Math.abs(Number(`${diff.c}e${diff.e}`)) < 0.01) return atanhSeries(over(diff, plus(x, one)));
  }
  const y = halley(m);
  if (adjusted === 0) return y;
  ln10 ??= halley({ c: 10n, e: 0 });
  return plus(y, times({ c: BigInt(adjusted), e: 0 }, ln10));
}

/** ln m for m of moderate size: Halley's iteration on e^y from the double's estimate (16 → 48 → 144 digits). */
function halley(m: Float): Float {
  const n = digitCount(m.c);
  let y = float(Math.log(Number(`${m.c.toString().slice(0, 17)}e${m.e + n - Math.min(n, 17)}`)));
  for (let i = 0; i < 2; i++) {
    const ey = expFloat(y);
    y = plus(y, over(times({ c: 2n, e: 0 }, plus(m, { c: -ey.c, e: ey.e })), plus(m, ey)));
  }
  return y;
}

/** ln x = 2·atanh(z) for z = (x-1)/(x+1), which is small here, so the series keeps its relative precision. */
function atanhSeries(z: Float): Float {
  const z2 = times(z, z);
  let power = z;
  let sum = z;
  for (let k = 3; ; k += 2) {
    power = times(power, z2);
    const term = over(power, { c: BigInt(k), e: 0 });
    if (term.c === 0n || magnitude(sum) - magnitude(term) > working + 2) break;
    sum = plus(sum, term);
  }
  return times({ c: 2n, e: 0 }, sum);
}

const result = (f: Float) => finish(f.c, f.e);

/** √n to 34 digits, exact when the root is; null for a negative n. */
export function sqrt(n: Num): Num | null {
  if (isNegative(n)) return null;
  const d = toDecimal(n);
  if (d.coefficient === 0n) return 0;
  let shift = Math.max(0, 2 * (precision + 2) - digitCount(d.coefficient));
  if ((d.exponent - shift) % 2 !== 0) shift++;
  const square = d.coefficient * tenTo(shift);
  const root = integerSqrt(square);
  const exponent = (d.exponent - shift) / 2;
  return root * root === square ? finish(root, exponent) : finish(root * 10n + 1n, exponent - 1);
}

function integerSqrt(n: bigint): bigint {
  let x = 1n << BigInt((n.toString(2).length >> 1) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** e^n to 34 digits; null when it is beyond decimal128's range. */
export function exp(n: Num): Num | null {
  const approx = Number(n.toString());
  if (approx > 14_200) return null;
  if (approx < -14_300) return 0;
  return result(expFloat(float(n)));
}

/** The natural logarithm to 34 digits; null for n ≤ 0. */
export function ln(n: Num): Num | null {
  if (compare(n, 0) <= 0) return null;
  return result(lnFloat(float(n)));
}

/** The largest exponent `**` takes: a larger one gives null, as its result would lie far beyond decimal128 (or be 0, 1 or ±1). */
export const maxPowerExponent = 999_999_999;

/**
 * `base ** exponent`: for an integer exponent, exact before one rounding
 * (through 50-digit squarings when the exact power would be large); for
 * another, e^(exponent × ln base), null for a negative base.
 */
export function power(base: Num, exponent: Num): Num | null {
  const zero = compare(base, 0) === 0;
  if (isInteger(exponent)) {
    const k = toInteger(exponent);
    if (k === 0) return 1;
    if (zero) return k > 0 ? 0 : null;
    if (Math.abs(k) > maxPowerExponent) return null;
    const d = toDecimal(base);
    const n = Math.abs(k);
    if (digitCount(d.coefficient) * n <= 4000) {
      const c = d.coefficient ** BigInt(n);
      if (k > 0) return finish(c, d.exponent * n);
      const q = divideTo(1n, 0, c, d.exponent * n, precision + 1);
      return finish(q.coefficient, q.exponent);
    }
    const size =
      (Math.log10(Math.abs(Number(`${d.coefficient.toString().slice(0, 17)}e-${Math.min(digitCount(d.coefficient), 17) - 1}`))) +
        d.exponent +
        digitCount(d.coefficient) -
        1) *
      k;
    if (size > 6150) return null;
    if (size < -6200) return 0;
    let acc = one;
    let square = float(d);
    for (let bits = n; bits > 0; bits = Math.floor(bits / 2)) {
      if (bits % 2) acc = times(acc, square);
      if (bits > 1) square = times(square, square);
    }
    return result(k > 0 ? acc : over(one, acc));
  }
  if (zero) return compare(exponent, 0) > 0 ? 0 : null;
  if (isNegative(base)) return null;
  const y = times(float(exponent), lnFloat(float(base)));
  const approx = Number(`${y.c}e${y.e}`);
  if (approx > 14_200) return null;
  if (approx < -14_300) return 0;
  return result(expFloat(y));
}
