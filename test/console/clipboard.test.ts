/**
 * The decision-table grid's clipboard (lib/console/web/rules/clipboard.ts): tab-separated text as Excel and Google
 * Sheets write it, each pasted value read for its column (or marked, never guessed), each copied cell written as a
 * spreadsheet shows it, the bounds, and the console's own form refusing what is not of its shape.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ClipboardBoundExceeded,
  clipboardBounds,
  copiedText,
  copyCells,
  deserializeCells,
  formatTsv,
  gridCellsType,
  parseTsv,
  pasteCells,
  pastedCell,
  serializeCells,
  type ClipboardColumn,
} from '../../lib/console/web/rules/clipboard.ts';
import type { ValueType } from '../../lib/engine/definitions.ts';

const when = (type: ValueType): ClipboardColumn => ({ kind: 'when', type });
const then = (type: ValueType): ClipboardColumn => ({ kind: 'then', type });

describe('parseTsv', () => {
  it('reads what Excel writes: tabs between values, CRLF after each row, the last one too', () => {
    expect(parseTsv('zone\tprice\r\ndomestic\t10.5\r\n')).toEqual([
      ['zone', 'price'],
      ['domestic', '10.5'],
    ]);
  });

  it('reads LF and CR rows, and Google Sheets text with no line break at the end', () => {
    expect(parseTsv('a\tb\nc\td')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseTsv('a\rb\r')).toEqual([['a'], ['b']]);
  });

  it('keeps empty cells, and a row of empty cells', () => {
    expect(parseTsv('\t\tx\r\n\t\r\n')).toEqual([
      ['', '', 'x'],
      ['', ''],
    ]);
    expect(parseTsv('\r\n')).toEqual([['']]);
    expect(parseTsv('a\r\n\r\n')).toEqual([['a'], ['']]);
    expect(parseTsv('')).toEqual([]);
  });

  it('reads quoted fields holding tabs, line breaks and doubled quotes', () => {
    expect(parseTsv('"a\tb"\t"line 1\nline 2"\t"say ""hi"""\r\n"x\r\ny"\r\n')).toEqual([['a\tb', 'line 1\nline 2', 'say "hi"'], ['x\r\ny']]);
    expect(parseTsv('"""gold"",""silver"""\t5')).toEqual([['"gold","silver"', '5']]);
  });

  it('reads a field whose quotes do not close before its tab as it stands (FEEL typed in a text editor)', () => {
    expect(parseTsv('"gold", "silver"\t"a" + b\r\n"unclosed\tx')).toEqual([
      ['"gold", "silver"', '"a" + b'],
      ['"unclosed', 'x'],
    ]);
    expect(parseTsv('5" screen\tx')).toEqual([['5" screen', 'x']]);
  });

  it('refuses text past its bounds before reading past them', () => {
    expect(() => parseTsv('x\n'.repeat(clipboardBounds.maxRows + 1))).toThrow(ClipboardBoundExceeded);
    expect(() => parseTsv('x\n'.repeat(clipboardBounds.maxRows))).not.toThrow();
    expect(() => parseTsv('x\t'.repeat(clipboardBounds.maxColumns))).toThrow(/holds more than 100 values/);
    expect(() => parseTsv('x\t'.repeat(clipboardBounds.maxColumns - 1) + 'x')).not.toThrow();
    expect(() => parseTsv('x'.repeat(clipboardBounds.maxTextLength + 1))).toThrow(/at most 5242880 are pasted/);
  });
});

describe('formatTsv', () => {
  it('writes rows as Excel does, quoting the fields that hold a tab, a line break or a quote', () => {
    expect(formatTsv([['a', 'b\tc'], ['x"y', ''], ['line\nbreak']])).toBe('a\t"b\tc"\r\n"x""y"\t\r\n"line\nbreak"\r\n');
  });

  it('ends every row, so that a last row of empty cells is read back', () => {
    expect(parseTsv(formatTsv([['a'], ['']]))).toEqual([['a'], ['']]);
    expect(parseTsv(formatTsv([['']]))).toEqual([['']]);
  });

  it('gives back any rows parseTsv reads', () => {
    const cell = fc.oneof(fc.string(), fc.constantFrom('"', '""', '\t', '\r\n', '\r', '\n', ' "a" ', '"a"b'));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 5 }), (rows) => {
        expect(parseTsv(formatTsv(rows))).toEqual(rows);
      }),
    );
  });
});

describe('pastedCell', () => {
  it.each<[string, ClipboardColumn, string]>([
    // Empty cells and `-`.
    ['', when('number'), '-'],
    ['   ', when('string'), '-'],
    ['', then('number'), 'null'],
    ['-', when('date'), '-'],
    ['null', when('string'), 'null'],
    ['null', then('number'), 'null'],
    // Text in a string column: quoted, with FEEL's escapes, trimmed.
    ['gold', when('string'), '"gold"'],
    ['Gold customer', when('string'), '"Gold customer"'],
    ['  gold  ', when('string'), '"gold"'],
    ['say "hi"', then('string'), '"say \\"hi\\""'],
    ['back\\slash', then('string'), '"back\\\\slash"'],
    ['line 1\nline 2', then('string'), '"line 1\\nline 2"'],
    ['日本 🙂', then('string'), '"日本 🙂"'],
    ['123', when('string'), '"123"'],
    ['00123', then('string'), '"00123"'],
    ['TRUE', when('string'), '"TRUE"'],
    ['2025-01-31', when('string'), '"2025-01-31"'],
    ['e-mail', when('string'), '"e-mail"'],
    ['N/A', when('string'), '"N/A"'],
    ['(see note)', when('string'), '"(see note)"'],
    ['not available', when('string'), '"not available"'],
    ['-', then('string'), '"-"'],
    ['< 5 kg', then('string'), '"< 5 kg"'],
    // FEEL in a string column, told by how it starts.
    ['"gold"', when('string'), '"gold"'],
    ['"gold", "silver"', when('string'), '"gold", "silver"'],
    ['not("gold")', when('string'), 'not("gold")'],
    ['< "m"', when('string'), '< "m"'],
    ['!= "x"', when('string'), '!= "x"'],
    ['["a".."m"]', when('string'), '["a".."m"]'],
    ['"a" + name', then('string'), '"a" + name'],
    // Numbers: FEEL's notation kept as typed, others written in it with every digit.
    ['10.5', then('number'), '10.5'],
    ['1.50', then('number'), '1.50'],
    ['-5', when('number'), '-5'],
    ['.5', when('number'), '.5'],
    ['123456789012345678901234567890.123', then('number'), '123456789012345678901234567890.123'],
    ['+5', then('number'), '5'],
    ['5.', then('number'), '5'],
    ['1.5E+25', then('number'), '15000000000000000000000000'],
    ['1.23456789012345678901e-5', then('number'), '0.0000123456789012345678901'],
    ['5%', then('number'), '0.05'],
    ['-12.5%', then('number'), '-0.125'],
    ['0.1%', then('number'), '0.001'],
    // Numbers' FEEL.
    ['>= 100', when('number'), '>= 100'],
    ['[1..5]', when('number'), '[1..5]'],
    ['1, 5', when('number'), '1, 5'],
    ['not(3)', when('number'), 'not(3)'],
    ['< limit', when('number'), '< limit'],
    ['amount * 0.1', then('number'), 'amount * 0.1'],
    // Booleans as Excel copies them, in any case.
    ['TRUE', when('boolean'), 'true'],
    ['FALSE', then('boolean'), 'false'],
    ['True', when('boolean'), 'true'],
    ['false', when('boolean'), 'false'],
    ['not(true)', when('boolean'), 'not(true)'],
    // Dates, dates and times, times, durations: ISO.
    ['2025-01-31', when('date'), 'date("2025-01-31")'],
    ['2025-01-31 00:00', when('date'), 'date("2025-01-31")'],
    ['>= date("2025-01-01")', when('date'), '>= date("2025-01-01")'],
    ['2025-01-31T14:30', then('datetime'), 'date and time("2025-01-31T14:30:00")'],
    ['2025-01-31 14:30:15.5', then('datetime'), 'date and time("2025-01-31T14:30:15.5")'],
    ['2025-01-31T14:30:00Z', then('datetime'), 'date and time("2025-01-31T14:30:00Z")'],
    ['2025-01-31T14:30:00+01:00', then('datetime'), 'date and time("2025-01-31T14:30:00+01:00")'],
    ['2025-01-31T14:30:00@Europe/Paris', then('datetime'), 'date and time("2025-01-31T14:30:00@Europe/Paris")'],
    ['2025-01-31', then('datetime'), 'date and time("2025-01-31T00:00:00")'],
    ['14:30', when('time'), 'time("14:30:00")'],
    ['9:05:30', when('time'), 'time("09:05:30")'],
    ['2:30 PM', when('time'), 'time("14:30:00")'],
    ['12:05 am', when('time'), 'time("00:05:00")'],
    ['12:00 PM', when('time'), 'time("12:00:00")'],
    ['P1D', then('duration'), 'duration("P1D")'],
    ['PT1H30M', when('duration'), 'duration("PT1H30M")'],
    ['-P1Y2M', when('duration'), 'duration("-P1Y2M")'],
    // Lists and contexts are FEEL.
    ['[1, 2]', then('list'), '[1, 2]'],
    ['["a"]', then('array'), '["a"]'],
    ['{a: 1, "b c": "d"}', then('context'), '{a: 1, "b c": "d"}'],
    ['count(?) > 2', when('list'), 'count(?) > 2'],
  ])('reads %j in %o as %s', (value, column, text) => {
    expect(pastedCell(value, column)).toEqual({ text });
  });

  it.each<[string, ClipboardColumn, RegExp]>([
    // Locale numbers, money, accounting negatives, percentages inside FEEL.
    ['1,5', when('number'), /looks like a number written for a locale/],
    ['1.234,5', then('number'), /looks like a number written for a locale/],
    ['1,234.50', then('number'), /looks like a number written for a locale/],
    ['1.234.567', then('number'), /looks like a number written for a locale/],
    ['>= 1,5', when('number'), /looks like a number written for a locale/],
    ['1 234,50', then('number'), /looks like a number written for a locale/],
    ['1\u00a0234', then('number'), /looks like a number written for a locale/],
    ['$1,234.50', then('number'), /amount of money/],
    ['1 234,50 €', then('number'), /amount of money/],
    ['£5', then('number'), /amount of money/],
    ['(1234.50)', then('number'), /negative number.*-1234\.5/],
    ['(1,234)', when('number'), /negative number/],
    ['>= 5%', when('number'), /percentage.*0\.05/],
    // Locale dates: every one, with its readings.
    ['01/02/2025', when('date'), /2025-02-01 if the day comes first, 2025-01-02 if the month does/],
    ['31/01/2025', when('date'), /date written for a locale.*it can only be 2025-01-31/],
    ['01/31/2025', then('date'), /it can only be 2025-01-31/],
    ['1/2/25', when('date'), /its year has two digits/],
    ['31.01.2025', when('date'), /date written for a locale/],
    ['2025/01/31', when('date'), /year first, it is 2025-01-31/],
    ['31/01/2025 14:30', then('datetime'), /date written for a locale/],
    ['>= 31/01/2025', when('date'), /date written for a locale/],
    ['< 2025-01-31', when('date'), /date written for a locale/],
    ['2025-02-30', when('date'), /not a date of the calendar/],
    ['2025-01-31T25:00', then('datetime'), /not a date and time of the clock/],
    ['2025-01-31Tnoon', then('datetime'), /not a date and time: write 2025-01-31T14:30:00/],
    ['13:30 PM', when('time'), /12-hour clock/],
    ['14:30@Not/AZone', when('time'), /not a time of the clock/],
    // Plain values of another type.
    ['45688', when('date'), /a number, not a date.*not formatted as a date/],
    ['TRUE', when('number'), /a boolean, not a number/],
    ['1', when('boolean'), /a number, not a boolean: write TRUE or FALSE/],
    ['2025-01-31', when('time'), /a date, not a time/],
    ['2025-01-31T14:30', when('date'), /a date and time, not a date/],
    ['14:30', when('number'), /a time, not a number/],
    ['P1D', when('number'), /a duration, not a number/],
    ['5', when('list'), /a number, not a list/],
    // Lone names in a typed column: sheet text such as TBD, yes, Premium.
    ['TBD', then('number'), /"TBD" is not a number: FEEL reads it as the name of a value/],
    ['yes', when('boolean'), /not a boolean: FEEL reads it as the name/],
    ['Gold customer', then('date'), /not a date: FEEL reads it as the name/],
    ['P', then('duration'), /not a duration: FEEL reads it as the name/],
    // Literals of another type than the column, as the save's cell warning has it.
    ['"5"', when('number'), /tests text, but the column's type is number/],
    ['< 5', when('string'), /tests a number, but the column's type is string/],
    ['"gold"', then('boolean'), /is text, but the column's type is boolean/],
    ['date("2025-01-31")', then('time'), /is a date, but the column's type is time/],
    // Text that starts like FEEL, or is not FEEL at all.
    ['<none>', when('string'), /starts as FEEL does but is not FEEL.*put it in quotes/],
    ['"unclosed', then('string'), /starts as FEEL does but is not FEEL/],
    ['>5 years', when('string'), /starts as FEEL does but is not FEEL/],
    ['-', then('number'), /is not a number, and not FEEL/],
    ["O'Brien", then('number'), /is not a number, and not FEEL/],
    ['[1..', when('list'), /is not a list, and not FEEL/],
    // Error values of the sheet.
    ['#N/A', when('string'), /error value of the sheet/],
    ['#DIV/0!', then('number'), /error value of the sheet/],
    // Beyond FEEL's numbers, and beyond a cell's length.
    [`1${'0'.repeat(7000)}`, then('number'), /lies beyond FEEL's numbers/],
    ['9e9999', then('number'), /lies beyond FEEL's numbers/],
  ])('marks %j in %o, kept as typed', (value, column, problem) => {
    const cell = pastedCell(value, column);
    expect(cell.problem).toMatch(problem);
    expect(cell.text).toBe(value.trim());
  });

  it('marks text longer as FEEL than a cell holds', () => {
    const text = 'x'.repeat(3999);
    expect(pastedCell(text, then('string'))).toEqual({
      text: `"${text}"`,
      problem: expect.stringMatching(/4001 characters long as FEEL; a cell holds at most 4000$/),
    });
    expect(pastedCell(text.slice(2), then('string'))).toEqual({ text: `"${text.slice(2)}"` });
  });

  it('parses with the names the save parses with', () => {
    // risk-score is a subtraction of two names unless it is a declared name; alone in a number column, a name is marked.
    expect(pastedCell('risk-score', then('number'))).toEqual({ text: 'risk-score' });
    expect(pastedCell('risk-score', { ...then('number'), names: ['risk-score'] }).problem).toMatch(/reads it as the name of a value/);
    expect(pastedCell('< risk-score', { ...when('number'), names: ['risk-score'] })).toEqual({ text: '< risk-score' });
  });

  it('shows the start only of a long value in its problem', () => {
    expect(pastedCell(`TBD${'x'.repeat(100)}`, then('number')).problem).toMatch(/^"TBDx{57}…" is not a number/);
  });
});

describe('copiedText', () => {
  it.each<[string, ClipboardColumn, string]>([
    ['"gold"', when('string'), 'gold'],
    ['"Gold customer"', then('string'), 'Gold customer'],
    ['"say \\"hi\\""', then('string'), 'say "hi"'],
    ['"line 1\\nline 2"', then('string'), 'line 1\nline 2'],
    ['"123"', when('string'), '123'],
    ['"TRUE"', then('string'), 'TRUE'],
    ['"-"', then('string'), '-'],
    ['date("2025-01-31")', when('date'), '2025-01-31'],
    ['date and time("2025-01-31T14:30:00")', then('datetime'), '2025-01-31T14:30:00'],
    ['time("14:30:00")', when('time'), '14:30:00'],
    ['duration("P1D")', then('duration'), 'P1D'],
    ['null', then('number'), ''],
    ['10.5', then('number'), '10.5'],
    ['true', when('boolean'), 'true'],
    ['-', when('number'), '-'],
    ['>= 100', when('number'), '>= 100'],
  ])('writes %j of %o as %j', (cell, column, text) => {
    expect(copiedText(cell, column)).toBe(text);
  });

  it.each<[string, ClipboardColumn, string]>([
    ['"-"', when('string'), 'pasted plain, - is any value'],
    ['">= 5"', when('string'), 'pasted plain, it is a comparison'],
    ['"\\"quoted\\""', when('string'), 'pasted plain, it is FEEL'],
    ['" padded "', when('string'), 'a paste trims its spaces'],
    ['""', when('string'), 'an empty cell is -'],
    ['"null"', then('string'), 'null is FEEL'],
    ['"#N/A"', then('string'), 'an error value is marked'],
    ['"a\\u0041"', then('string'), 'its plain form pastes as "aA"'],
    ['"5"', when('number'), 'a string in a number column'],
    ['@"2025-01-31"', when('date'), 'its plain form pastes as date("2025-01-31")'],
    ['date("2025-1-31")', when('date'), 'its plain form is no ISO date'],
    ['time("9:05:00")', when('time'), 'its plain form pastes as time("09:05:00")'],
    ['date("2025-01-31")', when('string'), 'a date in a string column'],
    ['"\\UFFFFFF"', then('string'), 'its escape names no character'],
  ])('writes %j of %o as its FEEL text: %s', (cell, column) => {
    expect(copiedText(cell, column)).toBe(cell);
  });
});

describe('copyCells and pasteCells', () => {
  const columns = [when('string'), when('number'), when('date'), then('number'), then('string')];
  const cells = [
    ['"domestic"', '>= 100', 'date("2025-01-31")', '0.1', '"Gold, large"'],
    ['"-"', '-', '-', 'null', '"say \\"hi\\""'],
    ['"a\\tb"', '[1..5]', '< date("2025-01-01")', '123456789012345678901234567890.5', '"two\\nlines"'],
  ];

  it('copies the cells as a spreadsheet shows them, and pastes them back', () => {
    const text = copyCells(cells, columns);
    expect(text).toBe(
      'domestic\t>= 100\t2025-01-31\t0.1\tGold, large\r\n' +
        '"""-"""\t-\t-\t\t"say ""hi"""\r\n' +
        '"a\tb"\t[1..5]\t"< date(""2025-01-01"")"\t123456789012345678901234567890.5\t"two\nlines"\r\n',
    );
    expect(pasteCells(text, columns)).toEqual({ rows: cells.map((row) => row.map((text) => ({ text }))), droppedColumns: 0 });
  });

  it('reads each value for the column it lands in, and drops and counts the columns past the last', () => {
    expect(pasteCells('gold\t5\tTRUE\tx\r\nsilver\r\n', [when('string'), then('number')])).toEqual({
      rows: [[{ text: '"gold"' }, { text: '5' }], [{ text: '"silver"' }]],
      droppedColumns: 2,
    });
  });

  it('marks the values that do not fit, cell by cell', () => {
    const { rows } = pasteCells('gold\t1,5\t31/01/2025\tTRUE\n', [when('string'), when('number'), when('date'), then('boolean')]);
    expect(rows[0]!.map((cell) => cell.problem === undefined)).toEqual([true, false, false, true]);
    expect(rows[0]!.map((cell) => cell.text)).toEqual(['"gold"', '1,5', '31/01/2025', 'true']);
  });

  it('refuses text past the bounds, saying which', () => {
    expect(pasteCells('1\n'.repeat(10_001), [when('number')])).toEqual({
      rows: [],
      droppedColumns: 0,
      refused: 'The text holds more than 10000 rows; a table has at most 10000 rules.',
    });
    expect(pasteCells('1\t'.repeat(101), [when('number')]).refused).toBe('Row 1 holds more than 100 values; a table has at most 100 columns.');
    expect(pasteCells(' '.repeat(5 * 1024 * 1024 + 1), [when('number')]).refused).toBe(
      'The text holds 5242881 characters; at most 5242880 are pasted at once.',
    );
  });

  it('pastes 10,000 rows of 10 values, reading each distinct value of a column once', () => {
    const columns = [when('string'), when('number'), when('date'), when('boolean'), when('number'), when('time'), when('string'), when('number')];
    const row = (i: number) => [`zone ${i}`, `${i}.5`, '2025-01-31', 'TRUE', '>= 100', '14:30', '"gold"', '[1..5]', `${i % 100}%`, ''];
    const { rows, droppedColumns } = pasteCells(formatTsv(Array.from({ length: 10_000 }, (_, i) => row(i))), [...columns, then('number'), then('string')]);
    expect(rows).toHaveLength(10_000);
    expect(droppedColumns).toBe(0);
    expect(rows[9_999]!.map((cell) => cell.text)).toEqual([
      '"zone 9999"',
      '9999.5',
      'date("2025-01-31")',
      'true',
      '>= 100',
      'time("14:30:00")',
      '"gold"',
      '[1..5]',
      '0.99',
      'null',
    ]);
    // Each cell is its own, though read once.
    expect(rows[0]![4]).not.toBe(rows[1]![4]);
  });
});

describe("the console's own form", () => {
  const columns = [when('string'), then('number')];

  it('has its own MIME type', () => {
    expect(gridCellsType).toBe('application/x-rules-grid+json');
  });

  it('keeps the cells as they were, whatever they hold, with their columns (without the names, which are the page’s)', () => {
    const cells = [
      ['customer.type', 'amount * 0.1'],
      ['', ''],
    ];
    expect(deserializeCells(serializeCells(cells, [{ ...columns[0]!, names: ['x'] }, columns[1]!]))).toEqual({ cells, columns });
  });

  it.each([
    ['text that is not JSON', 'gold\t5'],
    ['JSON that is not an object', '[["a"]]'],
    ['null', 'null'],
    ['a number', '5'],
    ['a missing part', '{"cells":[["a","b"]]}'],
    ['a part more', '{"columns":[{"kind":"when","type":"string"}],"cells":[["a"]],"more":1}'],
    ['a column of another kind', '{"columns":[{"kind":"input","type":"string"}],"cells":[["a"]]}'],
    ['a column of another type', '{"columns":[{"kind":"when","type":"text"}],"cells":[["a"]]}'],
    ['a column with more parts', '{"columns":[{"kind":"when","type":"string","names":["x"]}],"cells":[["a"]]}'],
    ['no column', '{"columns":[],"cells":[[]]}'],
    ['no row', '{"columns":[{"kind":"when","type":"string"}],"cells":[]}'],
    ['a row short of a cell', '{"columns":[{"kind":"when","type":"string"},{"kind":"then","type":"number"}],"cells":[["a","5"],["b"]]}'],
    ['a cell that is a number', '{"columns":[{"kind":"then","type":"number"}],"cells":[[5]]}'],
    ['a cell that is null', '{"columns":[{"kind":"then","type":"number"}],"cells":[[null]]}'],
    ['a row that is text', '{"columns":[{"kind":"then","type":"number"}],"cells":["5"]}'],
    ['a prototype', '{"__proto__":{"x":1},"columns":[{"kind":"when","type":"string"}],"cells":[["a"]]}'],
    ['deep nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ])('refuses %s', (_, text) => {
    expect(deserializeCells(text)).toBeUndefined();
  });

  it('refuses more than 100 columns, 10,000 rows or 5 MiB of text', () => {
    const column = '{"kind":"when","type":"string"}';
    expect(deserializeCells(`{"columns":[${Array(101).fill(column).join(',')}],"cells":[[${Array(101).fill('""').join(',')}]]}`)).toBeUndefined();
    expect(deserializeCells(`{"columns":[${Array(100).fill(column).join(',')}],"cells":[[${Array(100).fill('""').join(',')}]]}`)).toBeDefined();
    expect(deserializeCells(`{"columns":[${column}],"cells":[${Array(10_001).fill('[""]').join(',')}]}`)).toBeUndefined();
    expect(deserializeCells(`{"columns":[${column}],"cells":[${Array(10_000).fill('[""]').join(',')}]}`)).toBeDefined();
    expect(deserializeCells(`{"columns":[${column}],"cells":[["${'x'.repeat(5 * 1024 * 1024)}"]]}`)).toBeUndefined();
  });

  it('never throws, whatever the clipboard holds', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((value) => JSON.stringify({ columns: value, cells: value })),
        ),
        (text) => {
          expect(() => deserializeCells(text)).not.toThrow();
        },
      ),
    );
  });
});
