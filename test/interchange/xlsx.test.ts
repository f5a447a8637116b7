/** Decision tables as XLSX: the export as the layout's example, cells as Excel types them, workbooks of several sheets, and the bounds. */
import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportBoundExceeded, importBounds } from '../../lib/interchange/format-contract.ts';
import { maxSheetRows } from '../../lib/interchange/sheet-layout.ts';
import { xlsxFormat } from '../../lib/interchange/xlsx.ts';
import { canonical } from './arbitrary.ts';
import { expectFileAnswersItsCases, filesWithCases } from './hand-written.ts';
import { expectRoundTrip } from './round-trip.ts';

type Typed = ExcelJS.CellValue;

const discounts = canonical({
  id: 'discount',
  name: 'Discounts',
  description: 'By customer type and order size',
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
      { id: 'others', when: ['not("gold")', '-'], then: ['0.1000000000000000000001'] },
    ],
  },
});

async function workbookOf(body: Uint8Array) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  return workbook;
}

/** A workbook as a person types it: sheets of rows of typed cells. */
async function typedWorkbook(sheets: Record<string, Typed[][]>, shape?: (workbook: ExcelJS.Workbook) => void) {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const worksheet = workbook.addWorksheet(name);
    rows.forEach((row, r) =>
      row.forEach((value, c) => {
        if (value !== undefined) worksheet.getCell(r + 1, c + 1).value = value;
      }),
    );
  }
  shape?.(workbook);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const read = (body: Uint8Array) => xlsxFormat.read(body, 'upload.xlsx');

async function refusal(body: Uint8Array) {
  const error = await read(body).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(ImportBoundExceeded);
  const { bound, status, message } = error as ImportBoundExceeded;
  return { bound, status, message };
}

const header = (types: string[], expressions: string[], kinds = ['input', ...types.slice(1).map(() => 'output')]): Typed[][] => [
  ['Column', ...kinds],
  ['Type', ...types],
  ['Expression / name', ...expressions],
];

describe('export', () => {
  it('writes the layout: labels, the named hit policy cell, the header shaded and frozen, FEEL cells formatted as text', async () => {
    const file = await xlsxFormat.write(discounts);
    expect(file).toMatchObject({ fileName: 'discount.xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    const workbook = await workbookOf(file.body);
    const sheet = workbook.getWorksheet('Discounts')!;
    const values = sheet.getSheetValues().map((row) => (Array.isArray(row) ? row.slice(1) : row));
    expect(values.slice(1)).toEqual([
      ['Rule id', 'discount'],
      ['Name', 'Discounts'],
      ['Description', 'By customer type and order size'],
      ['Hit policy', 'unique'],
      ['Tags', 'pricing'],
      undefined,
      ['Column', 'input', 'input', 'output', 'annotation'],
      ['Id', 'customerType', 'orderTotal', 'discount'],
      ['Label', 'Customer type', 'Order total', 'Discount'],
      ['Type', 'string', 'number', 'number'],
      ['Allowed values', undefined, undefined, '0, 0.05, 0.1'],
      ['Default', undefined, undefined, 0],
      ['Expression / name', 'customer.type', 'order.total', 'discount'],
      ['gold-big', '"gold"', '>= 100', 0.1, 'Gold, large orders'],
      ['gold-small', '"gold"', '< 100', 0.05],
      ['others', 'not("gold")', '-', '0.1000000000000000000001'],
    ]);
    expect(workbook.definedNames.model).toEqual([{ name: 'HitPolicy', ranges: ['Discounts!$B$4'] }]);
    expect(sheet.getCell('B4').dataValidation).toMatchObject({ type: 'list', formulae: ['"unique,any,priority,first,outputOrder,ruleOrder,collect"'] });
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', xSplit: 1, ySplit: 13 });
    expect(sheet.getCell('A1').font).toMatchObject({ bold: true });
    expect(sheet.getCell('B7').fill).toMatchObject({ fgColor: { argb: 'FFDDEBF7' } });
    expect(sheet.getCell('D7').fill).toMatchObject({ fgColor: { argb: 'FFE2EFDA' } });
    // Cells of FEEL text are text: Excel keeps what is typed there as typed.
    expect(sheet.getCell('C15').numFmt).toBe('@');
    expect(sheet.getColumn(3).numFmt).toBe('@');
    // Output numbers are numbers, a number a double cannot hold its digits as text.
    expect(sheet.getCell('D14').type).toBe(ExcelJS.ValueType.Number);
    expect(sheet.getCell('D16').type).toBe(ExcelJS.ValueType.String);
    expect(sheet.getColumn(4).numFmt).toBeUndefined();
  });

  it('gives back what XML would lose: carriage returns, control characters, text that looks like an Excel escape, edge spaces, empty text', async () => {
    await expectRoundTrip(
      xlsxFormat,
      canonical({
        id: 'escapes',
        name: "'Quoted' name: with / and [brackets]",
        type: 'decisionTable',
        definition: {
          inputs: [{ id: 'a', label: '', expression: 'a', type: 'string' }],
          outputs: [{ id: 'b', label: '  spaced  ', name: 'b', type: 'string', default: '"\r\n"' }],
          rules: [
            { description: '', when: ['"_x0041_ and _x00e9__x0042_"'], then: ['"a\r\nb\u0001c\u007f"'] },
            { description: ' edge ', when: ['"line\rbreak"'], then: [''] },
            { when: [''], then: [null] },
          ],
        },
      }),
    );
  });

  it('names its sheet after the table, as Excel allows', async () => {
    const sheetName = async (name: string) => (await workbookOf((await xlsxFormat.write(canonical({ ...discounts, name }))).body)).worksheets[0]!.name;
    expect(await sheetName('Fees: 2025/26 [draft]?')).toBe('Fees  2025 26  draft');
    expect(await sheetName('A name much longer than the thirty-one characters Excel allows')).toBe('A name much longer than the thi');
    expect(await sheetName('History')).toBe('discount');
  });

  it('says which tables it cannot hold', () => {
    const values = Array.from({ length: 1000 }, (_, i) => `${'long allowed value '.repeat(2)}${i}`);
    const long = canonical({ ...discounts, definition: { ...discounts.definition, outputs: [{ id: 'x', name: 'x', type: 'string', allowedValues: values }] } });
    expect(xlsxFormat.cannotHold(long)).toMatch(/^a cell would hold \d+ characters \("".+; Excel keeps at most 32767$/);
    expect(xlsxFormat.cannotHold(canonical({ id: 's', name: 's', type: 'simpleRule', definition: { when: 'true', then: { a: 1 } } }))).toBe(
      'a sheet holds a decision table, not a simpleRule',
    );
    expect(xlsxFormat.cannotHold(discounts)).toBeUndefined();
  });
});

describe('import', () => {
  const folder = join(import.meta.dirname, 'files/xlsx');

  it.each(filesWithCases(folder, '.xlsx'))('%s, typed by hand, answers its cases', async (name) => {
    await expectFileAnswersItsCases(xlsxFormat, folder, name, '.xlsx');
  });

  it('reads a workbook as Excel writes it, and lists what it does not keep', async () => {
    const { entity, reading } = await expectFileAnswersItsCases(xlsxFormat, folder, 'first.xlsx', '.xlsx');
    expect(entity).toMatchObject({ id: 'Seasonal-discount', name: 'Seasonal discount', definition: { hitPolicy: 'first' } });
    expect(reading.notCarried).toEqual([
      { element: "'Seasonal discount'!C7", message: "formulas are not kept (their values are read): 'Seasonal discount'!C7" },
      { element: 'Notes', message: 'the sheet has no row labelled "Column" in column A, so it holds no table: it is not read' },
    ]);
  });

  it('reads dates as the wall-clock dates typed, whatever the time zone, in either of Excel’s date systems', async () => {
    for (const date1904 of [false, true]) {
      const body = await typedWorkbook(
        {
          Dates: [
            ...header(['date', 'datetime', 'time'], ['d', 'at', 't']),
            [undefined, new Date(Date.UTC(2025, 0, 31)), new Date(Date.UTC(2025, 0, 31, 23, 59, 30)), new Date(Date.UTC(1899, 11, 30, 8, 15))],
          ],
        },
        (workbook) => {
          workbook.properties.date1904 = date1904;
          if (date1904) workbook.worksheets[0]!.getCell('D4').value = new Date(Date.UTC(1904, 0, 1, 8, 15));
        },
      );
      const reading = await read(body);
      expect(reading.problems).toEqual([]);
      expect(canonical(reading.records[0]).definition).toMatchObject({
        rules: [{ when: ['date("2025-01-31")'], then: ['date and time("2025-01-31T23:59:30")', 'time("08:15:00")'] }],
      });
    }
  });

  it('reads rich text as its text, every cell of a merged range as its value, and lists links and comments', async () => {
    const body = await typedWorkbook(
      {
        Grades: [
          ['Column', 'input', 'input', 'output'],
          ['Type', 'string', 'string', 'string'],
          ['Expression / name', 'a', 'b', 'grade'],
          [undefined, '"x"', undefined, { richText: [{ text: '"go' }, { text: 'od"', font: { bold: true } }] }],
          [undefined, { text: '"y"', hyperlink: 'https://example.com/y' }, '-', '"fair"'],
        ],
      },
      (workbook) => {
        const sheet = workbook.worksheets[0]!;
        sheet.mergeCells('B4:C4');
        sheet.getCell('D5').note = 'ask Ada';
      },
    );
    const reading = await read(body);
    expect(reading.problems).toEqual([]);
    expect(canonical(reading.records[0]).definition).toMatchObject({
      rules: [
        { when: ['"x"', '"x"'], then: ['"good"'] },
        { when: ['"y"', '-'], then: ['"fair"'] },
      ],
    });
    expect(reading.notCarried).toEqual([
      { element: 'Grades!B5', message: 'links are not kept (their text is read): Grades!B5' },
      { element: 'Grades!D5', message: 'comments are not kept: Grades!D5' },
    ]);
  });

  it('refuses formulas never calculated, error values, and locale-formatted text, naming each cell', async () => {
    const body = await typedWorkbook({
      Sheet1: [
        ...header(['number', 'number', 'date'], ['amount', 'fee', 'due']),
        [undefined, '1.234,5', { formula: 'B4*2' }, '31/01/2025'],
        [undefined, '1,5', { error: '#N/A' }, '01/02/2025'],
      ],
    });
    const reading = await read(body);
    expect(reading.records).toEqual([]);
    expect(reading.problems.map((p) => p.element)).toEqual(['Sheet1!C4', 'Sheet1!C5', 'Sheet1!B4', 'Sheet1!D4', 'Sheet1!B5', 'Sheet1!D5']);
    expect(reading.problems[0]!.message).toBe('a formula with no value saved: open the workbook in Excel and save it, or type the value');
    expect(reading.problems[1]!.message).toBe('the cell holds the error #N/A');
  });

  it('reads each sheet that holds a table as a record, and lists the sheets that hold none', async () => {
    const table = (fee: number): Typed[][] => [...header(['number', 'number'], ['weight', 'fee']), [undefined, '-', fee]];
    const body = await typedWorkbook({ Parcels: table(5), Letters: table(1), 'Read me': [['These tables are the 2025 fees.']], Empty: [] });
    const reading = await read(body);
    expect(reading.problems).toEqual([]);
    expect(reading.records.map((record) => canonical(record).id)).toEqual(['Parcels', 'Letters']);
    expect(reading.notCarried).toEqual([
      { element: 'Read me', message: 'the sheet has no row labelled "Column" in column A, so it holds no table: it is not read' },
    ]);
  });

  it('refuses a workbook that holds no table, and a file that is not a workbook', async () => {
    expect((await read(await typedWorkbook({ Notes: [['just notes']] }))).problems).toEqual([
      { element: 'upload.xlsx', message: 'no sheet holds a decision table: a table starts at a row labelled "Column" in column A' },
    ]);
    const notAWorkbook = await read(zipSync({ 'word/document.xml': strToU8('<document/>') }));
    expect(notAWorkbook.records).toEqual([]);
    expect(notAWorkbook.problems[0]!.message).toMatch(/^not an XLSX workbook: /);
    expect(await refusal(strToU8('Column,input,output'))).toMatchObject({ bound: 'format', status: 400 });
  });
});

describe('bounds', () => {
  it('refuses a file past the size bound with 413, before reading it', async () => {
    expect(await refusal(new Uint8Array(importBounds.maxFileBytes + 1))).toEqual({
      bound: 'maxFileBytes',
      status: 413,
      message: `The file has ${importBounds.maxFileBytes + 1} bytes; at most ${importBounds.maxFileBytes} are read.`,
    });
  });

  it('refuses a zip bomb before exceljs sees it', async () => {
    const parts = unzipSync((await xlsxFormat.write(discounts)).body);
    parts['xl/worksheets/sheet1.xml'] = new Uint8Array(8 * 1024 * 1024);
    expect(await refusal(zipSync(parts, { level: 9 }))).toMatchObject({ bound: 'maxZipRatio', status: 400 });
  });

  it('refuses a part with a DOCTYPE', async () => {
    const parts = unzipSync((await xlsxFormat.write(discounts)).body);
    const strings = strFromU8(parts['xl/sharedStrings.xml']!);
    parts['xl/sharedStrings.xml'] = strToU8(strings.replace('?>', '?><!DOCTYPE sst [<!ENTITY e SYSTEM "file:///etc/passwd">]>'));
    expect(await refusal(zipSync(parts))).toMatchObject({ bound: 'doctype', status: 400 });
  });

  it('refuses more sheets than tables a file may hold', async () => {
    const sheets = Object.fromEntries(Array.from({ length: importBounds.maxTables + 1 }, (_, i) => [`S${i}`, [['x']]]));
    expect(await refusal(await typedWorkbook(sheets))).toEqual({
      bound: 'maxTables',
      status: 400,
      message: `The workbook has ${importBounds.maxTables + 1} sheets; at most ${importBounds.maxTables} are read.`,
    });
  });

  it('refuses a sheet past the rows or columns a table may have', async () => {
    const rowsPast = await typedWorkbook({ Tall: [['Column', 'input', 'output']] }, (workbook) => {
      workbook.worksheets[0]!.getCell(maxSheetRows + 1, 2).value = '-';
    });
    expect(await refusal(rowsPast)).toMatchObject({ bound: 'maxRows', status: 400 });
    const columnsPast = await typedWorkbook({ Wide: [['Column', 'input', 'output']] }, (workbook) => {
      workbook.worksheets[0]!.getCell(1, importBounds.maxColumns + 1).value = 'annotation';
    });
    expect(await refusal(columnsPast)).toEqual({ bound: 'maxColumns', status: 400, message: `Wide has more than ${importBounds.maxColumns} columns.` });
  });
});
