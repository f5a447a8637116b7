/**
 * The decimals against a reference: decimal.js at DMN's decimal128 precision
 * (34 significant digits, half-even) agrees with lib/decimal on random
 * arithmetic, comparison and rounding over random decimal literals of up to
 * 34 digits, including the fast path's edges (2^53, 15 to 17 significant
 * digits, tiny and huge exponents); and the fast path (doubles) and the exact
 * path (the same values as Decimals) give the same answers.
 */
import { Decimal as Reference } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  Decimal,
  divide,
  modulo,
  multiply,
  numberText,
  parseNumber,
  roundToScale,
  subtract,
  toDecimal,
  type Num,
  type RoundingMode,
} from '../../lib/decimal/decimal.ts';
import { exp, ln, power, sqrt } from '../../lib/decimal/functions.ts';
import { parseJson } from '../../lib/decimal/json.ts';

const D = Reference.clone({ precision: 34, rounding: Reference.ROUND_HALF_EVEN, toExpNeg: -7, toExpPos: 21, maxE: 6144, minE: -6176 });
const seed = Number(process.env.DECIMAL_SEED ?? 20261127);
const numRuns = 2000;

/** A decimal literal: up to 34 digits, an exponent in `exponents`, and the texts that sit on the fast path's edges. */
const literal = (exponents: { min: number; max: number }) =>
  fc.oneof(
    fc
      .tuple(fc.boolean(), fc.stringMatching(/^[1-9]\d{0,33}$/), fc.integer(exponents))
      .map(([negative, digits, exponent]) => `${negative ? '-' : ''}${digits}e${exponent}`),
    fc
      .tuple(fc.boolean(), fc.integer({ min: 14, max: 18 }), fc.integer({ min: -20, max: 20 }))
      .chain(([negative, length, exponent]) =>
        fc.stringMatching(new RegExp(`^[1-9]\\d{${length - 1}}$`)).map((digits) => `${negative ? '-' : ''}${digits}e${exponent}`),
      ),
    fc.integer({ min: -3, max: 3 }).map((k) => String(2n ** 53n + BigInt(k))),
    fc.integer({ min: -100_000, max: 100_000 }).map((cents) => (cents / 100).toString()),
    fc.constantFrom('0', '-0', '0.1', '0.2', '0.3', '19.99', '0.07', '1e-7', '1e21', '123456789012345', '1234567890123456'),
  );
const moderate = literal({ min: -60, max: 60 });
const anywhere = literal({ min: -6100, max: 6100 });

const ours = (text: string): Num => parseNumber(text)!;
/** Whether our answer is the reference's: both absent, or one value (ours read back through its text, which must be canonical). */
function agrees(result: Num | null, reference: Reference | null): boolean {
  if (result === null || reference === null || !reference.isFinite()) return result === null && (reference === null || !reference.isFinite());
  return new D(numberText(result)).eq(reference);
}

const properties = { seed, numRuns };

describe('against decimal.js at 34 digits, half-even', () => {
  it('reads every literal as its value rounded to 34 digits', () => {
    fc.assert(
      fc.property(anywhere, (text) => agrees(ours(text), new D(text))),
      properties,
    );
  });

  it.each([
    ['+', add, (a: Reference, b: Reference) => a.plus(b)],
    ['-', subtract, (a: Reference, b: Reference) => a.minus(b)],
    ['*', multiply, (a: Reference, b: Reference) => a.times(b)],
    ['/', divide, (a: Reference, b: Reference) => (b.isZero() ? null : a.div(b))],
  ] as const)('%s', (_op, op, reference) => {
    fc.assert(
      fc.property(moderate, moderate, (a, b) => agrees(op(ours(a), ours(b)), reference(new D(a), new D(b)))),
      properties,
    );
  });

  it('compares any two values as the reference orders them', () => {
    fc.assert(
      fc.property(anywhere, anywhere, (a, b) => compare(ours(a), ours(b)) === new D(a).cmp(new D(b))),
      properties,
    );
  });

  const modes: [RoundingMode, Reference.Rounding][] = [
    ['up', D.ROUND_UP],
    ['down', D.ROUND_DOWN],
    ['ceiling', D.ROUND_CEIL],
    ['floor', D.ROUND_FLOOR],
    ['halfUp', D.ROUND_HALF_UP],
    ['halfDown', D.ROUND_HALF_DOWN],
    ['halfEven', D.ROUND_HALF_EVEN],
  ];
  it('rounds to a scale by every mode as the reference does', () => {
    fc.assert(
      fc.property(moderate, fc.integer({ min: -20, max: 40 }), fc.constantFrom(...modes), (a, scale, [mode, rounding]) => {
        const shift = new D(10).pow(-scale);
        const reference = scale >= 0 ? new D(a).toDecimalPlaces(scale, rounding) : new D(a).div(shift).toDecimalPlaces(0, rounding).times(shift);
        return agrees(roundToScale(ours(a), scale, mode), reference);
      }),
      properties,
    );
  });

  it('takes the modulo as DMN defines it, a - b * floor(a / b), exactly', () => {
    fc.assert(
      fc.property(literal({ min: -10, max: 10 }), literal({ min: -10, max: 10 }), (a, b) => {
        if (new D(b).isZero()) return modulo(ours(a), ours(b)) === null;
        // Exact: the reference at enough digits for these exponents.
        const Wide = D.clone({ precision: 200 });
        const [wx, wy] = [new Wide(a), new Wide(b)];
        return agrees(modulo(ours(a), ours(b)), new D(wx.minus(wy.times(wx.div(wy).floor())).toString()).toSignificantDigits(34));
      }),
      properties,
    );
  });

  it.each([
    ['sqrt', sqrt, (a: Reference) => (a.isNegative() && !a.isZero() ? null : a.sqrt())],
    ['exp', exp, (a: Reference) => a.exp()],
    ['ln', ln, (a: Reference) => (a.lte(0) ? null : a.ln())],
  ] as const)('%s to 34 digits', (_name, fn, reference) => {
    fc.assert(
      fc.property(literal({ min: -30, max: 3 }), (a) => agrees(fn(ours(a)), reference(new D(a)))),
      { seed, numRuns: 500 },
    );
  });

  it('raises to integer powers exactly before one rounding, and to others through exp and ln', () => {
    fc.assert(
      fc.property(literal({ min: -5, max: 2 }), fc.integer({ min: -40, max: 40 }), (a, k) =>
        agrees(power(ours(a), k), new D(a).isZero() && k < 0 ? null : new D(a).pow(k)),
      ),
      { seed, numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: -300, max: 300 }), (a, tenths) =>
        agrees(power(a / 100, tenths / 10), new D(a).div(100).pow(new D(tenths).div(10))),
      ),
      { seed, numRuns: 500 },
    );
  });
});

describe('the fast path and the exact path', () => {
  const asDecimal = (n: Num) => {
    const d = toDecimal(n);
    return new Decimal(d.coefficient, d.exponent);
  };
  it.each([
    ['+', add],
    ['-', subtract],
    ['*', multiply],
    ['/', divide],
  ] as const)('give %s the same answer on doubles as on the same values held as Decimals', (_op, op) => {
    fc.assert(
      fc.property(moderate, moderate, (a, b) => {
        const [x, y] = [ours(a), ours(b)];
        const [fast, exact] = [op(x, y), op(asDecimal(x), asDecimal(y))];
        return fast === null ? exact === null : exact !== null && numberText(fast) === numberText(exact) && compare(fast, exact) === 0;
      }),
      properties,
    );
  });
});

describe('numbers as a new user meets them', () => {
  it('are exact where doubles round', () => {
    expect(numberText(add(0.1, 0.2)!)).toBe('0.3');
    expect(numberText(multiply(multiply(19.99, 3)!, 0.07)!)).toBe('4.1979');
    expect(numberText(add(ours('12345678901234567890'), 1)!)).toBe('12345678901234567891');
    expect(numberText(divide(1, 3)!)).toBe('0.3333333333333333333333333333333333');
    expect(numberText(divide(2, 3)!)).toBe('0.6666666666666666666666666666666667');
    expect(numberText(exp(4)!)).toBe('54.59815003314423907811026120286088');
    expect(numberText(sqrt(2)!)).toBe('1.414213562373095048801688724209698');
  });

  it('stay doubles on the fast path, at a double speed, where a double is exact', () => {
    expect(add(0.1, 0.2)).toBe(0.3);
    expect(multiply(19.99, 3)).toBe(59.97);
    expect(add(2 ** 53 - 2, 1)).toBe(2 ** 53 - 1);
    expect(add(2 ** 53 - 1, 1)).toBeInstanceOf(Decimal);
  });

  it('are text with all their digits, in JSON as in text', () => {
    const value = parseJson('{"a": 0.30000000000000000001, "b": 19.99, "c": 12345678901234567890, "d": [1e400]}');
    expect(JSON.stringify(value)).toBe('{"a":0.30000000000000000001,"b":19.99,"c":12345678901234567890,"d":[1e+400]}');
    expect((value as { b: unknown }).b).toBe(19.99);
  });
});
