/**
 * FEEL to zen, as a JDM file is written: each row is what this service
 * holds and what the file holds, read back as the very FEEL written; what zen
 * cannot hold is refused with its reason.
 */
import { describe, expect, it } from 'vitest';
import { feelCellToZen, feelExpressionToZen } from '../../lib/interchange/feel-to-zen.ts';
import type { Conversion } from '../../lib/interchange/zen-conversion.ts';
import { zenCellToFeel, zenExpressionToFeel } from '../../lib/interchange/zen-to-feel.ts';

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
    ['sum(1, 2)', 'takes one list'],
    ['x[item > 1]', 'filter'],
    ['x instance of string', 'instance of'],
    ['for x in l return x', 'for'],
  ])('refuses FEEL %s', (feel, reason) => {
    expect(text(feelExpressionToZen(feel, []))).toContain(reason);
  });
});
