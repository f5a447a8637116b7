/**
 * Writes the hand-typed XLSX fixtures beside it: `npx tsx test/interchange/files/xlsx/make-fixtures.ts`.
 *
 * Each workbook is what a person types from scratch, not what the export
 * writes: the hit policy, the three rows a table needs (Column, Type,
 * Expression / name), no ids, no labels, and cells typed as Excel types them
 * (numbers, dates and booleans as such, FEEL text as text). One is written
 * as the XML parts Excel itself writes (shared strings, a date style, a
 * formula with its saved value), so that the reading does not only ever see
 * exceljs's own output. The cases each must answer are in `<name>.cases.json`,
 * written by hand.
 */
import ExcelJS from 'exceljs';
import { strToU8, zipSync } from 'fflate';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Typed = string | number | boolean | Date | undefined;

const here = import.meta.dirname;
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

/** A table as typed: its rows above the header, kinds, types, allowed values when the hit policy needs them, expressions, then the rules (no id in column A). */
interface Typing {
  sheet: string;
  above: Typed[][];
  kinds: string[];
  types: string[];
  allowed?: Typed[];
  expressions: string[];
  rules: Typed[][];
}

async function typed(file: string, { sheet, above, kinds, types, allowed, expressions, rules }: Typing) {
  const workbook = new ExcelJS.Workbook();
  const worksheet = workbook.addWorksheet(sheet);
  const rows: Typed[][] = [
    ...above,
    [],
    ['Column', ...kinds],
    ['Type', ...types],
    ...(allowed ? [['Allowed values', ...allowed]] : []),
    ['Expression / name', ...expressions],
    ...rules.map((rule) => [undefined, ...rule]),
  ];
  rows.forEach((row, r) =>
    row.forEach((value, c) => {
      if (value === undefined) return;
      const cell = worksheet.getCell(r + 1, c + 1);
      cell.value = value;
      if (value instanceof Date) cell.numFmt = 'dd/mm/yyyy';
    }),
  );
  await workbook.xlsx.writeFile(join(here, file));
}

const tables: [string, Typing][] = [
  [
    'unique.xlsx',
    {
      sheet: 'Shipping fee',
      above: [['Hit policy', 'Unique']],
      kinds: ['input', 'input', 'output', 'annotation'],
      types: ['number', 'string', 'number'],
      expressions: ['weight', 'country', 'fee'],
      rules: [
        ['< 2', '"DE"', 4.9, 'light, at home'],
        ['< 2', 'not("DE")', 9.9, 'light, abroad'],
        ['[2..30]', '-', 14.9],
        ['> 30', '-', 0, 'freight: quoted apart'],
      ],
    },
  ],
  [
    'any.xlsx',
    {
      sheet: 'Eligibility',
      above: [['Hit policy', 'A']],
      kinds: ['input', 'input', 'output'],
      types: ['number', 'boolean', 'boolean'],
      expressions: ['age', 'member', 'eligible'],
      rules: [
        ['>= 18', '-', true],
        ['-', true, true],
        ['< 18', false, false],
      ],
    },
  ],
  [
    'priority.xlsx',
    {
      sheet: 'Risk',
      above: [['Hit policy', 'priority']],
      kinds: ['input', 'input', 'output'],
      types: ['number', 'string', 'string'],
      allowed: [undefined, undefined, '"high", "medium", "low"'],
      expressions: ['amount', 'country', 'risk'],
      rules: [
        ['> 10000', '-', '"medium"'],
        ['-', '"XX", "YY"', '"high"'],
        ['-', '-', '"low"'],
      ],
    },
  ],
  [
    'output-order.xlsx',
    {
      sheet: 'Rates',
      above: [['Hit policy', 'Output order']],
      kinds: ['input', 'output'],
      types: ['number', 'number'],
      allowed: [undefined, '0.1, 0.05, 0.02'],
      expressions: ['amount', 'rate'],
      rules: [
        ['> 0', 0.02],
        ['> 100', 0.1],
        ['> 50', 0.05],
      ],
    },
  ],
  [
    'rule-order.xlsx',
    {
      sheet: 'Notices',
      above: [['Hit policy', 'R']],
      kinds: ['input', 'input', 'output'],
      types: ['number', 'boolean', 'string'],
      expressions: ['amount', 'express', 'notice'],
      rules: [
        ['> 1000', '-', '"signature required"'],
        ['-', true, '"express"'],
        ['-', '-', '"thank you"'],
      ],
    },
  ],
  [
    'collect.xlsx',
    {
      sheet: 'Segments',
      above: [['Hit policy', 'Collect']],
      kinds: ['input', 'input', 'output', 'output'],
      types: ['number', 'date', 'string', 'date'],
      expressions: ['age', 'joined', 'segment', 'since'],
      rules: [
        ['< 25', '-', '"young"', undefined],
        ['-', '< date("2020-01-01")', '"loyal"', day('2020-01-01')],
        ['-', day('2025-01-31'), '"launch day"', day('2025-01-31')],
      ],
    },
  ],
  ...(
    [
      ['sum', [['Hit policy', 'C+']]],
      [
        'min',
        [
          ['Hit policy', 'collect'],
          ['Aggregation', 'MIN'],
        ],
      ],
      ['max', [['Hit policy', 'C>']]],
      ['count', [['Hit policy', 'C#']]],
    ] as const
  ).map(([aggregation, above]): [string, Typing] => [
    `collect-${aggregation}.xlsx`,
    {
      sheet: `Score ${aggregation}`,
      above: above.map((row) => [...row]),
      kinds: ['input', 'input', 'output'],
      types: ['number', 'number', 'number'],
      expressions: ['age', 'income', 'points'],
      rules: [
        ['< 30', '-', 10],
        ['>= 30', '-', 20],
        ['-', '> 50000', 35],
        ['-', 100000, 50],
      ],
    },
  ]),
];

/**
 * The first-hit table as Excel writes it: strings shared, dates as serial numbers with a date style, a formula with
 * the value Excel saved (0.05*2), and a second sheet that holds notes, not a table.
 */
function excelShaped(file: string) {
  const strings = [
    'Hit policy',
    'F',
    'Column',
    'input',
    'output',
    'annotation',
    'Type',
    'date',
    'number',
    'Expression / name',
    'orderDate',
    'discount',
    'until',
    'Christmas Eve',
    '>= date("2025-12-01")',
    'December',
    '-',
    'rest of the year',
    'Notes',
    'Discounts agreed with sales, 2025',
  ];
  const s = (text: string) => `t="s"><v>${strings.indexOf(text)}</v>`;
  const row = (r: number, cells: string[]) => `<row r="${r}">${cells.join('')}</row>`;
  const cell = (ref: string, body: string) => `<c r="${ref}" ${body}</c>`;
  const sheet1 = [
    row(1, [cell('A1', s('Hit policy')), cell('B1', s('F'))]),
    row(3, [cell('A3', s('Column')), cell('B3', s('input')), cell('C3', s('output')), cell('D3', s('output')), cell('E3', s('annotation'))]),
    row(4, [cell('A4', s('Type')), cell('B4', s('date')), cell('C4', s('number')), cell('D4', s('date'))]),
    row(5, [cell('A5', s('Expression / name')), cell('B5', s('orderDate')), cell('C5', s('discount')), cell('D5', s('until'))]),
    row(6, [cell('B6', 's="1"><v>46015</v>'), cell('C6', '><v>0.2</v>'), cell('D6', 's="1"><v>46022</v>'), cell('E6', s('Christmas Eve'))]),
    row(7, [cell('B7', s('>= date("2025-12-01")')), cell('C7', '><f>0.05*2</f><v>0.1</v>'), cell('D7', 's="1"><v>46022</v>'), cell('E7', s('December'))]),
    row(8, [cell('B8', s('-')), cell('C8', '><v>0</v>'), cell('E8', s('rest of the year'))]),
  ].join('');
  const sheet2 = row(1, [cell('A1', s('Notes')), cell('B1', s('Discounts agreed with sales, 2025'))]);
  const worksheet = (rows: string) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
  const parts: Record<string, string> = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Seasonal discount" sheetId="1" r:id="rId1"/><sheet name="Notes" sheetId="2" r:id="rId2"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    'xl/sharedStrings.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((text) => `<si><t>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</t></si>`).join('')}</sst>`,
    'xl/worksheets/sheet1.xml': worksheet(sheet1),
    'xl/worksheets/sheet2.xml': worksheet(sheet2),
  };
  writeFileSync(join(here, file), zipSync(Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, strToU8(text)])), { mtime: '2025-01-01' }));
}

for (const [file, typing] of tables) await typed(file, typing);
excelShaped('first.xlsx');
