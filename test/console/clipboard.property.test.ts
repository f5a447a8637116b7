/**
 * A table copied from the grid and pasted back gives the same cells, with no problem: for generated columns of every
 * kind and type, and cells of each (literals of the column's type, exact numbers with many digits, strings holding
 * quotes, tabs, line breaks, spaces, unicode and text that looks like numbers, dates, booleans or FEEL; comparisons,
 * ranges, lists, negations, `-`, `null`). Every value a paste reads without a problem parses as the save parses it.
 *
 * Outside the property, as clipboard.ts's header says, because pasted as text they read as something else (the
 * console's own form keeps them, which the last property checks):
 * - FEEL in a string column that does not start like FEEL (`customer.type`, `upper case(name)`): pasted as text, it
 *   is text;
 * - a lone name in a column of another type (`TBD`, `limit`), a literal of another type than its column (`"5"` in
 *   a number column, `true` in a string column), and FEEL a locale would write (`1,5`, a list without spaces): pasted
 *   marked;
 * - an empty input cell (pastes back as `-`, the same test) and an empty output text (pastes back as `null`);
 * - cells past FEEL's 4,000 characters, and text that is not FEEL: pasted marked.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  copiedText,
  copyCells,
  deserializeCells,
  pasteCells,
  pastedCell,
  serializeCells,
  type ClipboardColumn,
} from '../../lib/console/web/rules/clipboard.ts';
import { valueTypes, type ValueType } from '../../lib/engine/definitions.ts';
import { parseExpression, parseUnaryTests } from '../../lib/engine/feel/parse.ts';
import { feelStringLiteral } from '../../lib/interchange/feel-literals.ts';

type Kind = ClipboardColumn['kind'];

/** Numbers in FEEL's notation: small ones, and exact decimals of up to 34 digits, which a double cannot hold. */
const numberText = fc.oneof(
  fc.integer({ min: -100_000, max: 100_000 }).map(String),
  fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 34n - 1n }), fc.integer({ min: 0, max: 34 })).map(([negative, digits, scale]) => {
    const text = digits.toString().padStart(scale + 1, '0');
    return `${negative ? '-' : ''}${text.slice(0, text.length - scale)}${scale ? `.${text.slice(-scale)}` : ''}`;
  }),
);

/** Text as people write it, and text that looks like something else: a number, a date, a boolean, FEEL, `-`. */
const stringContent = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom(
    'gold',
    'Gold customer',
    ' padded ',
    'a\tb',
    'line 1\nline 2',
    'say "hi"',
    'back\\slash',
    '',
    '-',
    'null',
    'TRUE',
    '123',
    '00123',
    '1,5',
    '5%',
    '2025-01-31',
    '31/01/2025',
    '14:30',
    'P1D',
    '>= 5',
    '[1..5]',
    'not(x)',
    '"quoted"',
    '#N/A',
    '(1234.50)',
    '日本語',
    '🙂',
    '\u00a0nbsp',
  ),
);

const day = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-12-31T00:00:00Z'), noInvalidDate: true });
const dateText = day.map((d) => d.toISOString().slice(0, 10));
const timeText = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom('', '.5', '.125'))
  .map(([h, m, s, fraction]) => [h, m, s].map((n) => String(n).padStart(2, '0')).join(':') + fraction);
const zone = fc.constantFrom('', 'Z', '+01:00', '-05:30', '@Europe/Paris');
const durationText = fc.constantFrom('P1D', 'PT1H30M', '-P1Y2M', 'P2Y', 'PT0.5S', 'P1DT12H');

/** A literal of the column's type, as the grid holds it. */
function literal(type: ValueType): fc.Arbitrary<string> {
  switch (type) {
    case 'number':
      return numberText;
    case 'string':
      return stringContent.map(feelStringLiteral);
    case 'boolean':
      return fc.constantFrom('true', 'false');
    case 'date':
      return dateText.map((d) => `date("${d}")`);
    case 'datetime':
      return fc.tuple(dateText, timeText, zone).map(([d, t, z]) => `date and time("${d}T${t}${z}")`);
    case 'time':
      return fc.tuple(timeText, zone).map(([t, z]) => `time("${t}${z}")`);
    case 'duration':
      return durationText.map((d) => `duration("${d}")`);
    case 'list':
    case 'array':
      return fc.array(numberText, { minLength: 0, maxLength: 3 }).map((items) => `[${items.join(', ')}]`);
    case 'context':
    case 'object':
      return numberText.map((n) => `{a: ${n}, "b c": "d"}`);
  }
}

/** A cell of the column, of any kind its column takes. */
function cell(kind: Kind, type: ValueType): fc.Arbitrary<string> {
  const value = literal(type);
  // Computed entries, in a column of any type but string (where FEEL must start like FEEL: see the header).
  const computed = type === 'string' ? [] : [fc.constantFrom('amount * 0.1', 'if a > 1 then b else c', 'count(items) + 1')];
  if (kind === 'then') return fc.oneof({ weight: 6, arbitrary: value }, fc.constant('null'), ...computed);
  const ordered = type === 'number' || type === 'string' || type === 'date' || type === 'datetime' || type === 'time' || type === 'duration';
  return fc.oneof(
    { weight: 4, arbitrary: value },
    fc.constantFrom('-', 'null', '? != null'),
    fc.array(value, { minLength: 2, maxLength: 3 }).map((items) => items.join(', ')),
    value.map((v) => `not(${v})`),
    fc.array(value, { minLength: 2, maxLength: 2 }).map((items) => `not(${items.join(', ')})`),
    ...(ordered
      ? [
          fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '!=', '='), value).map(([op, v]) => `${op} ${v}`),
          fc.tuple(fc.constantFrom('[', '(', ']'), value, value, fc.constantFrom(']', ')', '[')).map(([open, lo, hi, close]) => `${open}${lo}..${hi}${close}`),
        ]
      : []),
  );
}

const column: fc.Arbitrary<ClipboardColumn> = fc.record({ kind: fc.constantFrom<Kind>('when', 'then'), type: fc.constantFrom(...valueTypes) });

/** Columns, and rows of cells for them. */
const table = fc
  .array(column, { minLength: 1, maxLength: 6 })
  .chain((columns) => fc.tuple(fc.constant(columns), fc.array(fc.tuple(...columns.map((c) => cell(c.kind, c.type))), { minLength: 1, maxLength: 6 })));

it('gives back the cells a table copied to text and pasted back held, with no problem', () => {
  fc.assert(
    fc.property(table, ([columns, cells]) => {
      const pasted = pasteCells(copyCells(cells, columns), columns);
      expect(pasted).toEqual({ rows: cells.map((row) => row.map((text) => ({ text }))), droppedColumns: 0 });
    }),
    { numRuns: 300 },
  );
});

it('reads every value it pastes without a problem as FEEL the save parses', () => {
  const value = fc.oneof(stringContent, numberText, dateText, timeText, fc.constantFrom('TRUE', 'false', '5%', '+5', '1.5E+25', '2:30 PM', 'P1D', '[1, 2]'));
  fc.assert(
    fc.property(value, column, (text, column) => {
      const cell = pastedCell(text, column);
      if (cell.problem) return;
      if (column.kind === 'when') expect(() => parseUnaryTests(cell.text)).not.toThrow();
      else expect(() => parseExpression(cell.text)).not.toThrow();
    }),
    { numRuns: 1000 },
  );
});

/** Any text: any unicode, and what JSON must escape or may trip on (lone surrogates, control characters). fast-check's `binary` unit takes seconds to build. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    fc.constantFrom('\ud800', '\udfff', '\u0000', '\u001f', '\u2028', '\t', '\r\n', '"', '\\'),
  ),
  maxLength: 20,
});
/** Rows of any text, six cells wide (as wide as the columns generated, cut to them). */
const anyRows = fc.array(fc.array(anyText, { minLength: 6, maxLength: 6 }), { minLength: 1, maxLength: 6 });

it('reads any text pasted in any column, and writes any cell copied from one, without throwing', () => {
  const feelish = fc.oneof(anyText, fc.constantFrom('"\\UFFFFFF"', '"\\u00zz"', '"a', '[', 'not(', '1..', '@"x"', 'date("")', '#N/A', '(((((1)))))'));
  fc.assert(
    fc.property(feelish, column, (text, column) => {
      expect(() => pastedCell(text, column)).not.toThrow();
      expect(() => copiedText(text, column)).not.toThrow();
    }),
    { numRuns: 1000 },
  );
});

it("keeps any cells copied in the console's own form, whatever they hold", () => {
  fc.assert(
    fc.property(fc.array(column, { minLength: 1, maxLength: 6 }), anyRows, (columns, full) => {
      const cells = full.map((row) => row.slice(0, columns.length));
      expect(deserializeCells(serializeCells(cells, columns))).toEqual({ cells, columns });
    }),
  );
});
