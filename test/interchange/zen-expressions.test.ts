/**
 * The conversion table between zen's expression language and FEEL: each
 * row is what a JDM file holds and what this service reads, in both
 * directions, with what has no equivalent refused with its reason.
 */
import { describe, expect, it } from 'vitest';
import { feelCellToZen, feelExpressionToZen, zenCellToFeel, zenExpressionToFeel, type Conversion } from '../../lib/interchange/zen-expressions.ts';

const text = (conversion: Conversion) => (conversion.ok ? conversion.text : `refused: ${conversion.reason}`);

describe('cells, FEEL to zen and back', () => {
  // [FEEL, zen]: each reads back as the very FEEL written.
  const table: [string, string][] = [
    ['-', ''],
    ['null', 'null'],
    ['true', 'true'],
    ['5', '5'],
    ['-5', '-5'],
    ['< 18', '< 18'],
    ['>= 1.5', '>= 1.5'],
    ['[1..10]', '[1..10]'],
    ['(1..10]', '(1..10]'],
    ['[1..10)', '[1..10)'],
    ['1, 2, 3', '1, 2, 3'],
    ['[1, 2, 3]', '[1, 2, 3]'],
    ['"gold"', '"gold"'],
    ['"gold", "silver"', '"gold", "silver"'],
    ['not("gold")', '!= "gold"'],
    ['not("gold", "silver")', '!= "gold" and != "silver"'],
    ['not(null)', '!= null'],
    ['not([1..5])', 'not($ in [1..5])'],
    ['not(< 5, [10..20])', 'not($ < 5) and not($ in [10..20])'],
    ['?', '$'],
    ['? > 10 and ? < 20', '$ > 10 and $ < 20'],
    ['contains(?, "x")', 'contains($, "x")'],
    ['starts with(?, "DE")', 'startsWith($, "DE")'],
    ['string length(?) > 3', 'len($) > 3'],
    ['date("2025-01-31")', 'date("2025-01-31")'],
    ['>= date("2025-01-31")', '>= date("2025-01-31")'],
    ['[date("2025-01-01")..date("2025-02-01")]', '[date("2025-01-01")..date("2025-02-01")]'],
    ['a > 5', 'a > 5'],
    ['"it\'s"', '"it\'s"'],
    ['"say \\"hi\\""', `'say "hi"'`],
    ['"it\'s \\"x\\""', '`it\'s "x"`'],
    ['"a\\nb"', '"a\nb"'],
    ['"back\\\\slash"', '"back\\slash"'],
  ];
  it.each(table)('%s is the zen cell %j', (feel, zen) => {
    expect(text(feelCellToZen(feel, []))).toBe(zen);
    expect(text(zenCellToFeel(zen, 'string'))).toBe(feel);
  });

  it('writes "or" nested in "and" first, as zen reads a cell left to right', () => {
    expect(text(feelCellToZen('? > 1 or ? > 2 and ? < 0', []))).toBe('$ > 2 and $ < 0 or $ > 1');
  });

  it('writes a string holding every quote as a sum, which reads back as one string', () => {
    const zen = text(feelCellToZen('"`${x}\'\\""', []));
    expect(zen).toBe(`"\`\${x}'" + '"' + ""`);
    expect(text(zenCellToFeel(zen, 'string'))).toBe('"`${x}\'\\""');
  });

  it.each([
    ['(? > 1 or ? > 2) and (? < 0 or ? > 9)', 'zen reads "and" and "or" in a cell left to right'],
    ['not(? > 1 and ? < 5)', 'inside a test'],
    ['duration("P1D")', "FEEL's duration()"],
    ['@"10:30:00"', 'time or duration literal'],
    ['123456789012345678901234567890', '28 digits'],
    ['some x in ? satisfies x > 1', 'some'],
  ])('refuses %s, which zen cannot hold', (feel, reason) => {
    const conversion = feelCellToZen(feel, []);
    expect(conversion.ok).toBe(false);
    expect(text(conversion)).toContain(reason);
  });

  it('refuses FEEL the engine cannot read', () => {
    expect(text(feelCellToZen('> > 5', []))).toContain('FEEL this engine cannot read');
  });
});

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
  // [FEEL, zen]: each reads back as the very FEEL written.
  it.each([
    ['amount * 0.1', 'amount * 0.1'],
    ['if total > 100 then "gold" else "silver"', 'total > 100 ? "gold" : "silver"'],
    ['[1, 2, 3]', '[1, 2, 3]'],
    ['{a: 1, "b c": "d"}', '{a: 1, "b c": "d"}'],
    ['items[1].price', 'items[0].price'],
    ['upper case(name) = "A"', 'upper(name) == "A"'],
    ['(a + b) * c', '(a + b) * c'],
    ['-(a + b)', '-(a + b)'],
    ['a or b and c', 'a or b and c'],
    ['(a or b) and c', '(a or b) and c'],
    ['x in [1..5]', 'x in [1..5]'],
    ['round half up(x, 0)', 'round(x)'],
    ['mean([1, 2])', 'avg([1, 2])'],
    ['date and time("2025-01-31T10:00:00Z")', 'date("2025-01-31T10:00:00Z")'],
    ['not(a)', 'not(a)'],
    // What zen's len and contains read as when the argument's type is unknown: written back as them.
    ['if items instance of string then string length(items) else count(items)', 'len(items)'],
    ['if tags instance of string then contains(tags, "x") else list contains(tags, "x")', 'contains(tags, "x")'],
  ])('%s is the zen expression %s', (feel, zen) => {
    expect(text(feelExpressionToZen(feel, []))).toBe(zen);
    expect(text(zenExpressionToFeel(zen))).toBe(feel);
  });

  it('reads names with spaces when they are declared, and refuses them in zen', () => {
    expect(text(feelExpressionToZen('order total * 2', ['order total']))).toContain('the name "order total" is not one zen reads');
  });

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

  it.each([
    ['sum(1, 2)', 'takes one list'],
    ['x[item > 1]', 'filter'],
    ['x instance of string', 'instance of'],
    ['for x in l return x', 'for'],
  ])('refuses FEEL %s', (feel, reason) => {
    expect(text(feelExpressionToZen(feel, []))).toContain(reason);
  });
});
