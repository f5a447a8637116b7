/** FEEL literals as the formats write them: numbers without exponents, strings that read back as the very text, lists of literals. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberText, parseNumber } from '../../lib/decimal/decimal.ts';
import { feelLiteralList, feelNumberText, feelStringLiteral, outputEntryText, parseLiteralList } from '../../lib/interchange/feel-literals.ts';

describe('numbers', () => {
  it('are written in FEEL notation, every digit, no exponent', () => {
    expect([0, -0, 5, -2.5, 0.1, 1e21, 1.5e25, 1e-7, -1.25e-9].map(feelNumberText)).toEqual([
      '0',
      '0',
      '5',
      '-2.5',
      '0.1',
      '1000000000000000000000',
      '15000000000000000000000000',
      '0.0000001',
      '-0.00000000125',
    ]);
    expect(feelNumberText(parseNumber('12345678901234567890.5')!)).toBe('12345678901234567890.5');
    expect(feelNumberText(parseNumber('-0.000000000000000000000123')!)).toBe('-0.000000000000000000000123');
  });

  it('read back as the same number', () => {
    const exact = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.tuple(fc.bigInt({ min: -(10n ** 34n), max: 10n ** 34n }), fc.integer({ min: -60, max: 60 })).map(([c, e]) => parseNumber(`${c}e${e}`)!),
    );
    fc.assert(
      fc.property(exact, (n) => {
        expect(parseNumber(feelNumberText(n))).toEqual(parseNumber(numberText(n)));
      }),
    );
  });
});

describe('lists of literals', () => {
  it('give back the values written: any text, numbers, booleans', () => {
    const number = fc.oneof(
      fc.integer(),
      fc.integer({ min: -1e7, max: 1e7 }).map((n) => n / 1000),
    );
    const value = fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), number, fc.boolean());
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 5 }), (values) => {
        expect(parseLiteralList(feelLiteralList(values))).toEqual({ values });
      }),
    );
  });

  it('read brackets, spaces and FEEL escapes', () => {
    expect(parseLiteralList(' [ "a\\tb" ,"\\u00e9\\U01F642", "\\d", -.5 , false ] ')).toEqual({ values: ['a\tb', 'é🙂', '\\d', -0.5, false] });
    expect(feelStringLiteral('say "hi"\n\\')).toBe('"say \\"hi\\"\\n\\\\"');
  });

  it.each([
    ['gold', 'expected a string in quotes, a number, true or false at "gold"'],
    ['"gold" "silver"', 'expected "," at ""silver""'],
    ['"gold', 'a string literal is not closed'],
    ['[1, 2', 'expected "," or "]" at the end'],
    ['1,', 'expected a string in quotes, a number, true or false at the end'],
  ])('say what is wrong with %s', (text, problem) => {
    expect(parseLiteralList(text)).toEqual({ problem });
  });
});

describe('output entries', () => {
  it('writes output entries: FEEL text as it is, values as their literals', () => {
    expect(['"gold"', 0.5, true, null].map(outputEntryText)).toEqual(['"gold"', '0.5', 'true', 'null']);
  });
});
