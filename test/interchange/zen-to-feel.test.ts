/**
 * zen to FEEL, as a JDM file is read: each row is what a file holds and
 * what this service reads, with where the two languages differ in meaning
 * noted and what has no FEEL equivalent refused with its reason.
 */
import { describe, expect, it } from 'vitest';
import type { Conversion } from '../../lib/interchange/zen-conversion.ts';
import { zenCellToFeel, zenExpressionToFeel } from '../../lib/interchange/zen-to-feel.ts';

const text = (conversion: Conversion) => (conversion.ok ? conversion.text : `refused: ${conversion.reason}`);

describe('cells, zen to FEEL', () => {
  it.each([
    ["'a', 'b'", '"a", "b"'],
    ['"a" or "b"', '"a", "b"'],
    ['> 5 and < 10', '? > 5 and ? < 10'],
    ['$ > 1 or $ > 2 and $ < 0', '(? > 1 or ? > 2) and ? < 0'],
    ['== 5', '5'],
    ['!= 5', 'not(5)'],
    ['not in [1, 2]', 'not([1, 2])'],
    ['in [1, 2]', '[1, 2]'],
    ['$ in [1, 2]', '? in [1, 2]'],
    [']1..5[', '(1..5)'],
    ['[1..5[', '[1..5)'],
    ['[1..5], 9', '[1..5], 9'],
    ['!($ in [1..5])', 'not([1..5])'],
    ['1_000', '1000'],
    ['1e3', '1000'],
    ['$.kind == "a"', '?.kind = "a"'],
    ['endsWith(lower($), ".pdf")', 'ends with(lower case(?), ".pdf")'],
    ['"x" + "y"', '"xy"'],
  ])('reads %s as %s', (zen, feel) => {
    expect(text(zenCellToFeel(zen, 'number'))).toBe(feel);
  });

  it('tells len and contains by the column type, and leaves the choice to the run when the type is unknown', () => {
    expect(text(zenCellToFeel('len($) > 3', 'list'))).toBe('count(?) > 3');
    expect(text(zenCellToFeel('contains($, 5)', 'list'))).toBe('list contains(?, 5)');
    expect(text(zenCellToFeel('len($) > 3', undefined))).toBe('(if ? instance of string then string length(?) else count(?)) > 3');
  });

  it('notes where zen and FEEL differ in meaning', () => {
    expect(zenCellToFeel('len($) > 3', 'string')).toEqual({
      ok: true,
      text: 'string length(?) > 3',
      notes: ["zen's len counts a string's UTF-8 bytes, FEEL's string length its characters"],
    });
    expect(zenCellToFeel('matches($, "^[A-Z]+$")', 'string')).toMatchObject({ ok: true, notes: [expect.stringContaining('regular expressions')] });
  });

  it.each([
    ['some($, # > 1)', '"#" has no FEEL equivalent'],
    ['date($).year() == 2024', 'method ".year()"'],
    ['`${a}-${b}`', 'template string'],
    ['trim($) == "x"', "zen's function trim()"],
    ["'open", 'not closed'],
    ['a ; b', 'zen has no ";"'],
    ['('.repeat(1000) + '1' + ')'.repeat(1000), 'nests deeper than 256 levels'],
    ['-'.repeat(1000) + '1', 'nests deeper than 256 levels'],
    ['1 + '.repeat(2000) + '1', 'at most 4000 are read'],
    // Brackets deep and a ".." after them: read once, not once per way of reading each bracket.
    ['['.repeat(60) + '1' + ']'.repeat(60) + ', 1..2', '".." cannot join'],
  ])('refuses %s', (zen, reason) => {
    expect(text(zenCellToFeel(zen, 'string'))).toContain(reason);
  });
});

describe('expressions', () => {
  it.each([
    ['a ?? 5', 'if a != null then a else 5'],
    ['a % 2 == 0', 'modulo(a, 2) = 0'],
    ['a ^ 2', 'a ** 2'],
    ['not a', 'not(a)'],
    ['a["b"]', 'a.b'],
  ])('reads zen %s as %s', (zen, feel) => {
    expect(text(zenExpressionToFeel(zen))).toBe(feel);
  });

  it('refuses $ outside a cell: the results of the expressions before have no equivalent in a simple rule', () => {
    expect(text(zenExpressionToFeel('$.net * 0.19'))).toContain('"$"');
  });
});
