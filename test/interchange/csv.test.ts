/** Decision tables as CSV: the export's text, the separators and encodings Excel writes, locale refusals with the cell named, and the bounds. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvFormat } from '../../lib/interchange/csv.ts';
import { ImportBoundExceeded, importBounds } from '../../lib/interchange/format-contract.ts';
import { maxSheetRows } from '../../lib/interchange/sheet-layout.ts';
import { canonical } from './arbitrary.ts';
import { expectFileAnswersItsCases, filesWithCases } from './hand-written.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const read = (text: string, origin = 'rules/fees.csv') => csvFormat.read(encode(text), origin);

async function refusal(body: Uint8Array) {
  const error = await csvFormat.read(body, 'fees.csv').then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(ImportBoundExceeded);
  const { bound, status, message } = error as ImportBoundExceeded;
  return { bound, status, message };
}

describe('export', () => {
  it('writes the layout as text: a byte-order mark, CRLF, FEEL quotes doubled, line breaks kept, empty text quoted, numbers with every digit', async () => {
    const entity = canonical({
      id: 'fee',
      name: 'Fees, 2025',
      type: 'decisionTable',
      definition: {
        hitPolicy: 'first',
        inputs: [{ id: 'w', label: '', expression: 'weight', type: 'number' }],
        outputs: [{ id: 'fee', name: 'fee', type: 'number', allowedValues: ['a "b"', 1e21] }],
        rules: [
          { when: ['[0..1],\n[3..4]'], then: [1.5e25], description: 'light, odd' },
          { when: ['-'], then: ['12345678901234567890.5'] },
        ],
      },
    });
    const file = await csvFormat.write(entity);
    expect(file).toMatchObject({ fileName: 'fee.csv', contentType: 'text/csv' });
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(file.body)).toBe(
      [
        '\ufeffRule id,fee',
        'Name,"Fees, 2025"',
        'Hit policy,first',
        '',
        'Column,input,output,annotation',
        'Id,w,fee',
        'Label,"",',
        'Type,number,number',
        'Allowed values,,"""a \\""b\\"""", 1000000000000000000000"',
        'Default,,',
        'Expression / name,weight,fee',
        ',"[0..1],\n[3..4]",15000000000000000000000000,"light, odd"',
        ',-,12345678901234567890.5,',
        '',
      ].join('\r\n'),
    );
  });

  it('says which tables it cannot hold', () => {
    const entity = canonical({
      id: 'fee',
      name: 'Fees',
      type: 'decisionTable',
      definition: {
        inputs: [{ id: 'd', expression: 'd', type: 'date' }],
        outputs: [{ id: 'f', name: 'f', type: 'number' }],
        rules: [{ when: ['-'], then: ['1,5'] }],
      },
    });
    expect(csvFormat.cannotHold(entity)).toMatch(/^rules\[0\]\.then\[0\] would be refused when read back: "1,5" looks like a number written for a locale/);
  });
});

describe('import', () => {
  const folder = join(import.meta.dirname, 'files/csv');

  it.each(filesWithCases(folder, '.csv'))('%s, written by hand, answers its cases', async (name) => {
    await expectFileAnswersItsCases(csvFormat, folder, name, '.csv');
  });

  it('names a table without a name row after its file, and reads ";" files with a byte-order mark, as Excel writes them in many locales', async () => {
    const shipping = await expectFileAnswersItsCases(csvFormat, folder, 'shipping.csv', '.csv');
    expect(shipping.entity).toMatchObject({ id: 'shipping', name: 'shipping' });
    const rabatt = await expectFileAnswersItsCases(csvFormat, folder, 'rabatt.csv', '.csv');
    expect(rabatt.entity).toMatchObject({ id: 'rabatt', name: 'Rabatt nach Kundenart', tags: ['Preise', 'Österreich'], definition: { hitPolicy: 'unique' } });
    expect(rabatt.reading.notCarried).toEqual([]);
  });

  it('keeps "," when the first line holds both separators', async () => {
    const reading = await read('Name,Fees; 2025\nColumn,input,output\nType,number,number\nExpression / name,a,b\n,-,1\n');
    expect(canonical(reading.records[0]).name).toBe('Fees; 2025');
  });

  it('refuses decimal commas, locale dates and bare ISO dates, naming each cell', async () => {
    const reading = await read(
      ['Column;input;input;output', 'Type;number;date;number', 'Expression / name;a;d;b', ';>= 1.234,5;31.01.2025;0,1', ';-;2025-01-31;1'].join('\r\n'),
    );
    expect(reading.records).toEqual([]);
    expect(reading.problems.map((p) => p.element)).toEqual(['fees!B4', 'fees!C4', 'fees!D4', 'fees!C5']);
    expect(reading.problems[0]!.message).toBe(
      '">= 1.234,5" looks like a number written for a locale: write it with a decimal point and no thousands separators (1.5, 1234.5), or put a space after each comma of a list (1, 5)',
    );
  });

  it('reports a file that is not CSV, or holds no table', async () => {
    expect(await read('Column,input,output\n,"unclosed\n')).toEqual({
      records: [],
      problems: [{ element: 'rules/fees.csv, line 2', message: expect.stringMatching(/^not CSV: Quote Not Closed/) }],
      notCarried: [],
    });
    expect((await read('a,b\n1,2\n')).problems).toEqual([
      { element: 'rules/fees.csv', message: 'no row labelled "Column" in the first column: the file holds no decision table' },
    ]);
  });

  it('refuses text that is not UTF-8', async () => {
    expect(await refusal(new Uint8Array([...encode('Name,Gr'), 0xfc, ...encode('n\n')]))).toEqual({
      bound: 'encoding',
      status: 400,
      message: 'The file is not UTF-8 text: save it as "CSV UTF-8".',
    });
  });
});

describe('bounds', () => {
  it('refuses a file past the size bound with 413, before parsing it', async () => {
    expect(await refusal(new Uint8Array(importBounds.maxFileBytes + 1))).toMatchObject({ bound: 'maxFileBytes', status: 413 });
  });

  it('stops parsing past the rows a table may have', async () => {
    expect(await refusal(encode('-\n'.repeat(maxSheetRows + 1)))).toEqual({
      bound: 'maxRows',
      status: 400,
      message: `fees has more than ${maxSheetRows} rows.`,
    });
    expect((await read('Column,input,output\nType,number,number\nExpression / name,a,b\n' + ',-,1\n'.repeat(importBounds.maxRows))).records).toHaveLength(1);
  });

  it('refuses a row past the columns, or the characters, a row may have', async () => {
    expect(await refusal(encode(`Column${',input'.repeat(importBounds.maxColumns)}\n`))).toEqual({
      bound: 'maxColumns',
      status: 400,
      message: `fees has more than ${importBounds.maxColumns} columns.`,
    });
    expect(await refusal(encode(`Name,"${'x'.repeat(1024 * 1024 + 1)}"\n`))).toMatchObject({ bound: 'maxColumns', status: 400 });
  });
});
