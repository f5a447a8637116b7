/**
 * FEEL literals as the formats write and read them: every value written
 * reads back as itself, numbers never take an exponent, and only lists of
 * literals are read as lists.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNumber } from '../../lib/decimal/decimal.ts';
import { feelNumber, literalText, outputEntryText, readLiteralList } from '../../lib/interchange/feel-literals.ts';

describe('FEEL literals', () => {
  it('writes numbers in full, without an exponent', () => {
    expect([1e21, 1e-7, -0, -12.5, parseNumber('1.5e+25')!, parseNumber('-0.000000000000000000123')!].map(feelNumber)).toEqual([
      '1000000000000000000000',
      '0.0000001',
      '0',
      '-12.5',
      '15000000000000000000000000',
      '-0.000000000000000000123',
    ]);
  });

  it('writes output entries: FEEL text as it is, values as their literals', () => {
    expect(['"gold"', 0.5, true, null].map(outputEntryText)).toEqual(['"gold"', '0.5', 'true', 'null']);
  });

  it('reads back every list of values it writes', () => {
    const value = fc.oneof(
      fc.string(),
      fc.boolean(),
      fc.integer(),
      fc.integer().map((n) => n / 1000),
    );
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 5 }), (values) => {
        expect(readLiteralList(values.map(literalText).join(','))).toEqual(values.map((v) => (typeof v === 'number' ? v + 0 : v)));
      }),
    );
  });

  it('reads the escapes FEEL defines, and keeps unknown ones as written', () => {
    expect(readLiteralList(String.raw` "a\"b" , "\u00e9\U01F642", "\d+" ,'x'`)).toBeUndefined();
    expect(readLiteralList(String.raw` "a\"b" , "\u00e9\U01F642", "\d+"`)).toEqual(['a"b', 'é🙂', '\\d+']);
  });

  it.each(['', '[1..5]', '"a",', '"a" "b"', 'not("a")', 'x', '1, null'])('does not read %j as a list of values', (text) => {
    expect(readLiteralList(text)).toBeUndefined();
  });
});
