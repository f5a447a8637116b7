/** The sheet layout both XLSX and CSV use: what a person types is read as the table they mean, or refused with the cell named. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseNumber } from '../../lib/decimal/decimal.ts';
import { cellAddress, columnLetters, readSheet, sheetCannotHold, tableToSheet, type SheetRow } from '../../lib/interchange/sheet-layout.ts';
import { canonical } from './arbitrary.ts';

const read = (rows: SheetRow[], name = 'Fees') => readSheet({ name, rows });
const record = (rows: SheetRow[], name?: string) => {
  const reading = read(rows, name);
  expect(reading.problems).toEqual([]);
  return canonical(reading.record);
};
const definitionOf = (rows: SheetRow[]) => record(rows).definition as Record<string, unknown>;

/** The least a person types: kinds, types and expressions, then rules. */
const minimal: SheetRow[] = [
  ['Column', 'input', 'output'],
  ['Type', 'number', 'number'],
  ['Expression / name', 'weight', 'fee'],
  [undefined, '< 1', 5],
  [undefined, '>= 1', 9.5],
];

describe('reading', () => {
  it('reads a sheet that gives only kinds, types and expressions: ids from the expressions, the id and name from the sheet', () => {
    expect(record(minimal, 'Parcel fees')).toEqual({
      id: 'Parcel-fees',
      name: 'Parcel fees',
      description: '',
      tags: [],
      type: 'decisionTable',
      definition: {
        hitPolicy: 'first',
        inputs: [{ id: 'weight', expression: 'weight', type: 'number' }],
        outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
        rules: [
          { when: ['< 1'], then: [5] },
          { when: ['>= 1'], then: [9.5] },
        ],
      },
    });
  });

  it('reads every row of the layout, labels in any case and spacing', () => {
    const entity = record([
      ['rule ID', 'parcel-fee'],
      ['NAME', 'Parcel fee'],
      ['Description', 'By weight'],
      ['hit-policy', 'C+'],
      ['Tags', 'shipping', undefined, 'retail'],
      ['Parameters', '[{"name":"weight","type":"number"}]'],
      ['Tests', '[{"name":"light","params":{"weight":0.5},"expected":12345678901234567890.5}]'],
      ['Settings', '{"recordExecutions":true}'],
      [],
      ['Column', 'input', 'output', 'annotation'],
      ['Id', 'w', 'f'],
      ['Label', 'Weight', ''],
      ['Type', 'Number', 'number'],
      ['Allowed values', undefined, '5, 9.5, 12345678901234567890.5'],
      ['Default', undefined, 'null'],
      ['Expression/Name', 'weight', 'fee'],
      ['light', '< 1', 5, 'small parcels'],
      ['heavy', '>= 1', 9.5, ''],
    ]);
    expect(entity).toEqual({
      id: 'parcel-fee',
      name: 'Parcel fee',
      description: 'By weight',
      tags: ['shipping', 'retail'],
      type: 'decisionTable',
      definition: {
        hitPolicy: 'collect',
        aggregation: 'sum',
        parameters: [{ name: 'weight', type: 'number' }],
        tests: [{ name: 'light', params: { weight: 0.5 }, expected: parseNumber('12345678901234567890.5') }],
        settings: { recordExecutions: true },
        inputs: [{ id: 'w', label: 'Weight', expression: 'weight', type: 'number' }],
        outputs: [{ id: 'f', label: '', name: 'fee', type: 'number', allowedValues: [5, 9.5, parseNumber('12345678901234567890.5')], default: null }],
        rules: [
          { id: 'light', description: 'small parcels', when: ['< 1'], then: [5] },
          { id: 'heavy', description: '', when: ['>= 1'], then: [9.5] },
        ],
      },
    });
  });

  it('reads typed cells as FEEL literals of their column type', () => {
    const definition = definitionOf([
      ['Column', 'input', 'input', 'input', 'input', 'output', 'output', 'output'],
      ['Type', 'number', 'boolean', 'date', 'time', 'datetime', 'number', 'date and time'],
      ['Expression / name', 'n', 'b', 'd', 't', 'at', 'x', 'y'],
      [
        undefined,
        1e21,
        true,
        { date: '2025-01-31', time: '00:00:00' },
        { time: '14:30:00' },
        { date: '2025-01-31', time: '14:30:15.250' },
        -0.5,
        { date: '2025-01-31', time: '00:00:00' },
      ],
    ]);
    expect(definition.rules).toEqual([
      {
        when: ['1000000000000000000000', 'true', 'date("2025-01-31")', 'time("14:30:00")'],
        then: ['date and time("2025-01-31T14:30:15.250")', -0.5, 'date and time("2025-01-31T00:00:00")'],
      },
    ]);
  });

  it('refuses a typed cell its column cannot take, naming the cell', () => {
    const { problems, record } = read([
      ['Column', 'input', 'input', 'output', 'output'],
      ['Type', 'string', 'date', 'time', 'boolean'],
      ['Expression / name', 's', 'd', 't', 'b'],
      [undefined, 5, { date: '2025-01-31', time: '08:00:00' }, { date: '2025-01-31', time: '08:00:00' }, 1],
    ]);
    expect(record).toBeUndefined();
    expect(problems).toEqual([
      { element: 'Fees!B4', message: 'a number in a string column: type FEEL text (a string in quotes: "5")' },
      { element: 'Fees!C4', message: '2025-01-31T08:00:00 typed as a date and time in a date column' },
      { element: 'Fees!D4', message: '2025-01-31T08:00:00 typed as a date and time in a time column' },
      { element: 'Fees!E4', message: 'a number in a boolean column: type FEEL text (a string in quotes: "1")' },
    ]);
  });

  it.each([
    ['number', '1,5'],
    ['number', '1.234,5'],
    ['number', '>= 1.234,5'],
    ['number', '1,234.5'],
    ['number', '1.234.567'],
    ['date', '31/01/2025'],
    ['date', '01/02/2025'],
    ['date', '31.01.2025'],
    ['date', '< 2025-01-31'],
    ['datetime', '31/01/2025 14:30'],
  ])('refuses locale-formatted text in a %s column (%s), naming the cell', (type, text) => {
    for (const kind of ['input', 'output']) {
      const { problems } = read(
        [
          ['Column', kind === 'input' ? 'input' : 'output', kind === 'input' ? 'output' : 'input'],
          ['Type', type, type],
          ['Expression / name', 'x', 'y'],
          [],
          [undefined, text],
        ],
        'Sheet 1',
      );
      expect(problems).toHaveLength(1);
      expect(problems[0]!.element).toBe("'Sheet 1'!B5");
      expect(problems[0]!.message).toMatch(/locale|date written as text/);
    }
  });

  it('takes lists with a space after the comma, and numbers and dates in FEEL', () => {
    const definition = definitionOf([
      ['Column', 'input', 'input', 'output'],
      ['Type', 'number', 'date', 'string'],
      ['Expression / name', 'n', 'd', 's'],
      [undefined, '1, 5', '>= date("2025-01-31")', '"1,5"'],
      [undefined, '1.234', '[date("2025-01-01")..date("2025-12-31")]', '"31/01/2025"'],
    ]);
    expect((definition.rules as unknown[]).length).toBe(2);
  });

  it('makes column ids from expressions and names, unique, and keeps the ids given', () => {
    const definition = definitionOf([
      ['Column', 'input', 'input', 'input', 'output', 'output'],
      ['Id', undefined, undefined, 'order.total', undefined, undefined],
      ['Type', 'string', 'number', 'number', 'number', 'string'],
      ['Expression / name', 'customer.type', 'order total', 'order.total', 'order total', '日本'],
    ]);
    expect((definition.inputs as { id: string }[]).map((c) => c.id)).toEqual(['customer.type', 'order-total', 'order.total']);
    expect((definition.outputs as { id: string }[]).map((c) => c.id)).toEqual(['order-total-2', 'output-2']);
  });

  it('takes DMN hit policy names and letters, and an aggregation of its own row', () => {
    const table = (hitPolicy: string, aggregation?: string) =>
      definitionOf([['Hit policy', hitPolicy], ...(aggregation ? [['Aggregation', aggregation]] : []), ...minimal]);
    expect(table('OUTPUT ORDER').hitPolicy).toBe('outputOrder');
    expect(table('R').hitPolicy).toBe('ruleOrder');
    expect(table('C#')).toMatchObject({ hitPolicy: 'collect', aggregation: 'count' });
    expect(table('collect', 'max')).toMatchObject({ hitPolicy: 'collect', aggregation: 'max' });
    expect(read([['Hit policy', 'C+'], ['Aggregation', 'min'], ...minimal]).problems).toEqual([
      { element: 'Fees!B2', message: 'the hit policy "C+" aggregates by sum, this row by min' },
    ]);
    expect(read([['Hit policy', 'biggest'], ...minimal]).problems[0]!.element).toBe('Fees!B1');
  });

  it('reads allowed values as FEEL literals, typed or written', () => {
    const allowed = (cell: string | number | boolean) =>
      (
        definitionOf([
          ['Column', 'input', 'output'],
          ['Type', 'number', 'string'],
          ['Allowed values', undefined, cell],
          ['Expression / name', 'n', 's'],
        ]).outputs as { allowedValues: unknown[] }[]
      )[0]!.allowedValues;
    expect(allowed('"gold", "silver\\n\\"2\\"", -0.5, true')).toEqual(['gold', 'silver\n"2"', -0.5, true]);
    expect(allowed('["a","b"]')).toEqual(['a', 'b']);
    expect(allowed(7)).toEqual([7]);
    expect(
      read([
        ['Column', 'input', 'output'],
        ['Type', 'number', 'string'],
        ['Allowed values', undefined, 'gold, silver'],
        ['Expression / name', 'n', 's'],
      ]).problems,
    ).toEqual([
      {
        element: 'Fees!C3',
        message: 'allowed values are a list of FEEL literals ("gold", "silver", 5): expected a string in quotes, a number, true or false at "gold, silver"',
      },
    ]);
  });

  it('keeps empty text apart from no cell: an empty output cell is null, empty text is the empty FEEL text', () => {
    const definition = definitionOf([
      ['Column', 'input', 'output', 'output'],
      ['Type', 'string', 'string', 'string'],
      ['Default', undefined, '', undefined],
      ['Expression / name', 's', 'a', 'b'],
      [undefined, '', '', undefined],
    ]);
    expect(definition.outputs).toEqual([
      { id: 'a', name: 'a', type: 'string', default: '' },
      { id: 'b', name: 'b', type: 'string' },
    ]);
    expect(definition.rules).toEqual([{ when: [''], then: ['', null] }]);
  });

  it('lists what it does not read: unknown labels, cells outside the table, header cells a column has not, more annotations', () => {
    const reading = read([
      ['Owner', 'Ada'],
      ['Name', 'Fees', 'extra'],
      ['Column', 'input', undefined, 'output', 'annotation', 'annotation'],
      ['Allowed values', '1, 2'],
      ['Type', 'number', undefined, 'number', 'Notes'],
      ['Colour', 'red'],
      ['Expression / name', 'n', undefined, 'fee'],
      ['r1', '1', 'stray', 2, 'first', 'second'],
      [undefined, undefined, 'note'],
    ]);
    expect(reading.problems).toEqual([]);
    expect(reading.notCarried).toEqual([
      { element: 'Fees!A1', message: '"Owner" is not a label of the table: the row is not read' },
      { element: 'Fees!A6', message: '"Colour" is not a label of the columns: the row is not read' },
      { element: 'Fees!B4', message: 'an input column has no allowed values: the cell is not read' },
      { element: 'Fees!E5', message: 'an annotation column has no type: the cell is not read' },
      { element: 'Fees!F:F', message: '1 cell not read (Fees!F8): a rule has one description: the first annotation column' },
      {
        element: 'Fees!C:C',
        message: '2 cells not read (Fees!C8, Fees!C9): outside the table: the "Column" row gives this column no kind (input, output or annotation)',
      },
      { element: 'Fees!C:C', message: '1 cell not read (Fees!C2): "Name" takes one value, in column B' },
    ]);
    expect(reading.record).toMatchObject({ name: 'Fees', definition: { rules: [{ id: 'r1', description: 'first', when: ['1'], then: [2] }] } });
  });

  it('refuses a sheet without the rows a table needs, naming where they belong', () => {
    expect(
      read([
        ['Column', 'input', 'output'],
        ['Type', 'number', 'number'],
      ]).problems,
    ).toEqual([{ element: 'Fees!A1', message: 'no "Expression / name" row below the "Column" row: it names each column, and the rules start below it' }]);
    expect(
      read([
        ['Column', 'input', 'output'],
        ['Expression / name', 'a', 'b'],
      ]).problems,
    ).toEqual([{ element: 'Fees!A1', message: 'no "Type" row between the "Column" and "Expression / name" rows' }]);
    expect(
      read([
        ['Column', 'input', 'outcome'],
        ['Type', 'number', 'num'],
        ['Expression / name', 'a', 'b'],
      ]).problems,
    ).toEqual([
      { element: 'Fees!C1', message: '"outcome" is not a kind of column: input, output or annotation' },
      { element: 'Fees!A1', message: 'the table has no output column' },
    ]);
    expect(read([['Just notes']]).isTable).toBe(false);
  });

  it('refuses a rule named like a header row the table lacks: that row was put below the header', () => {
    const rows: SheetRow[] = [...minimal.slice(0, 3), ['Default', undefined, 0], ...minimal.slice(3)];
    expect(read(rows).problems).toEqual([
      { element: 'Fees!A4', message: 'a rule called "Default" below the "Expression / name" row, in a table with no such header row: header rows go above it' },
    ]);
    const withDefaultRow: SheetRow[] = [minimal[0]!, minimal[1]!, ['Default', undefined, 0], minimal[2]!, ['default', '-', 1]];
    expect(definitionOf(withDefaultRow).rules).toEqual([{ id: 'default', when: ['-'], then: [1] }]);
  });
});

describe('writing', () => {
  const entity = canonical({
    id: 'discount',
    name: 'Discounts',
    tags: ['pricing'],
    type: 'decisionTable',
    definition: {
      hitPolicy: 'unique',
      inputs: [
        { id: 'customerType', label: 'Customer type', expression: 'customer.type', type: 'string' },
        { id: 'orderTotal', expression: 'order.total', type: 'number' },
      ],
      outputs: [{ id: 'discount', name: 'discount', type: 'number', allowedValues: [0, 0.05, 0.1], default: 0 }],
      rules: [
        { id: 'gold-big', description: 'Gold, large orders', when: ['"gold"', '>= 100'], then: [0.1] },
        { when: ['"gold"', '< 100'], then: ['0.050000000000000000001'] },
        { when: ['', ''], then: [null] },
      ],
    },
  });

  it('writes the layout, every header row, the numbers a double holds as numbers and the others as their digits', () => {
    const written = tableToSheet(entity as never, 'Discounts');
    expect(written.sheet.rows).toEqual([
      ['Rule id', 'discount'],
      ['Name', 'Discounts'],
      ['Hit policy', 'unique'],
      ['Tags', 'pricing'],
      [],
      ['Column', 'input', 'input', 'output', 'annotation'],
      ['Id', 'customerType', 'orderTotal', 'discount'],
      ['Label', 'Customer type', undefined, undefined],
      ['Type', 'string', 'number', 'number'],
      ['Allowed values', undefined, undefined, '0, 0.05, 0.1'],
      ['Default', undefined, undefined, 0],
      ['Expression / name', 'customer.type', 'order.total', 'discount'],
      ['gold-big', '"gold"', '>= 100', 0.1, 'Gold, large orders'],
      [undefined, '"gold"', '< 100', '0.050000000000000000001', undefined],
      [undefined, '', undefined, undefined, undefined],
    ]);
    expect(written).toMatchObject({ hitPolicyRow: 2, header: { first: 5, last: 11 } });
    expect(canonical(readSheet(written.sheet).record)).toEqual(entity);
  });

  it('says which tables it cannot give back: cells a reading would refuse', () => {
    const localeCell = canonical({ ...entity, definition: { ...entity.definition, rules: [{ when: ['"gold"', '1,5'], then: [0] }] } });
    expect(sheetCannotHold(localeCell)).toMatch(/^rules\[0\]\.when\[1\] would be refused when read back: "1,5" looks like a number/);
    expect(sheetCannotHold(canonical({ id: 's', name: 's', type: 'simpleRule', definition: { when: 'true', then: { a: 1 } } }))).toBe(
      'a sheet holds a decision table, not a simpleRule',
    );
  });
});

describe('the import and export guide', () => {
  it('shows the export of its sample table, cell for cell', () => {
    const guide = readFileSync(new URL('../../docs/import-export.md', import.meta.url), 'utf8');
    const section = guide.slice(guide.indexOf('## Decision tables as spreadsheets'));
    const start = section.indexOf('| A |');
    const table = section.slice(start, section.indexOf('\n\n', start));
    const shown = table
      .split('\n')
      .slice(2)
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim().replace(/^\*\*(.*)\*\*$/, '$1')),
      );
    const entity = canonical({
      id: 'discount',
      name: 'Discounts',
      tags: ['pricing'],
      type: 'decisionTable',
      definition: {
        hitPolicy: 'unique',
        inputs: [
          { id: 'customerType', label: 'Customer type', expression: 'customer.type', type: 'string' },
          { id: 'orderTotal', label: 'Order total', expression: 'order.total', type: 'number' },
        ],
        outputs: [{ id: 'discount', label: 'Discount', name: 'discount', type: 'number', allowedValues: [0, 0.05, 0.1], default: 0 }],
        rules: [
          { id: 'gold-big', description: 'Gold, large orders', when: ['"gold"', '>= 100'], then: [0.1] },
          { id: 'gold-small', when: ['"gold"', '< 100'], then: [0.05] },
          { id: 'others', when: ['not("gold")', '-'], then: [0] },
        ],
      },
    });
    const written = tableToSheet(entity as never, 'Discounts').sheet.rows.map((row) => Array.from({ length: 5 }, (_, i) => String(row[i] ?? '')));
    expect(shown).toEqual(written);
  });
});

describe('addresses', () => {
  it('names cells as Excel does', () => {
    expect([0, 25, 26, 51, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'ZZ', 'AAA']);
    expect(cellAddress('Sheet1', 6, 2)).toBe('Sheet1!C7');
    expect(cellAddress("Bob's fees", 0, 0)).toBe("'Bob''s fees'!A1");
  });
});
