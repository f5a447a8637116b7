/**
 * Decision tables as Excel workbooks (XLSX), one table a sheet, in the
 * layout of `./sheet-layout.ts`. Read and written with exceljs: maintained,
 * pure JavaScript (no native code in a Lambda bundle), and it keeps what this
 * format needs: typed cells (numbers, dates, booleans, text, formulas with
 * their cached values), defined names, number formats, styles and frozen
 * panes. It is loaded with `import()` when a workbook is read or written
 * (it takes about half a second to load), so that code needing another
 * format does not pay for it.
 *
 * Before exceljs sees a file, the archive is held to the ZIP bounds
 * (`./zip-bounds.ts`: inflated size, ratio, entries, no DOCTYPE), and the
 * number of sheets to the tables a file may hold; rows and columns are
 * bounded as each sheet is converted.
 *
 * What a workbook may hold beyond values is decided here: a formula is read
 * as its cached value (a formula never calculated is a problem) and the
 * formula itself is listed as not carried; a hyperlink is read as its text;
 * rich text as its plain text; every cell of a merged range as the range's
 * value, which is what the merged cell shows; comments are listed as not
 * carried; styles, validations and pictures are presentation and are not
 * read.
 *
 * The export is the layout's example: labels in bold, the column header
 * shaded by kind, frozen above the rules and beside the row ids, the hit
 * policy in a cell named `HitPolicy` with a list to pick from, and cells that
 * hold FEEL text formatted as text, so that Excel does not turn `1/2` into a
 * date or `01` into 1 when someone edits them. An output number a double
 * holds is a number cell; one it does not hold is written as its digits in
 * a text cell, which the entity schema reads back exactly.
 */
import type { Cell, CellValue as ExcelValue, Worksheet } from 'exceljs';
import { briefList } from '../engine/brief-list.ts';
import type { EntityInput } from '../entities/schema.ts';
import { reservedNames } from '../vocabulary/schema-parts.ts';
import {
  fileNameOf,
  formatFiles,
  importBounds,
  ImportBoundExceeded,
  refuseOversizeFile,
  type FileReading,
  type Finding,
  type Format,
} from './format-contract.ts';
import { hitPolicies } from '../engine/definitions.ts';
import {
  cellAddress,
  checkSheetBounds,
  columnKinds,
  headerLabels,
  readSheet,
  sheetCannotHold,
  tableToSheet,
  typeNames,
  type CellValue,
  type Sheet,
  type SheetRow,
  type WrittenSheet,
} from './sheet-layout.ts';
import { checkZipBounds } from './zip-bounds.ts';

const loadExcel = async () => (await import('exceljs')).default;

/** The most characters Excel keeps in a cell. */
const maxCellText = 32_767;

/** A worksheet part of the archive: each is a sheet, and each sheet a table at most. */
const worksheetPart = /^xl\/worksheets\/[^/]+\.xml$/i;

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** What a workbook's cells hold besides their values, gathered to be reported once a sheet. */
class SheetFindings {
  readonly problems: Finding[] = [];
  private readonly extras = new Map<string, string[]>();

  constructor(readonly sheetName: string) {}

  extra(address: string, what: string) {
    this.extras.set(what, [...(this.extras.get(what) ?? []), address]);
  }

  notCarried(): Finding[] {
    return [...this.extras].map(([what, addresses]) => ({
      element: addresses.length === 1 ? addresses[0]! : this.sheetName,
      message: `${what}: ${briefList(addresses)}`,
    }));
  }
}

/** A date cell's wall-clock date and time: exceljs gives Excel's serial as a UTC instant. Excel's day zero is a time of day alone. */
function sheetDate(date: Date, dayZero: string): CellValue | undefined {
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  const milliseconds = iso.slice(20, 23);
  const time = iso.slice(11, 19) + (milliseconds === '000' ? '' : `.${milliseconds}`);
  const day = iso.slice(0, 10);
  return day === dayZero ? { time } : { date: day, time };
}

function cellValue(cell: Cell, findings: SheetFindings, dayZero: string): CellValue | undefined {
  const address = cellAddress(findings.sheetName, Number(cell.row) - 1, Number(cell.col) - 1);
  const plain = (value: ExcelValue): CellValue | undefined => {
    if (value === null || value === undefined) return undefined;
    if (typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
    if (value instanceof Date) {
      const date = sheetDate(value, dayZero);
      if (date === undefined) findings.problems.push({ element: address, message: 'a date Excel cannot show' });
      return date;
    }
    if ('richText' in value) return value.richText.map((run) => run.text).join('');
    if ('hyperlink' in value) {
      findings.extra(address, 'links are not kept (their text is read)');
      return plain(value.text as ExcelValue);
    }
    if ('formula' in value || 'sharedFormula' in value) {
      findings.extra(address, 'formulas are not kept (their values are read)');
      if (value.result === undefined) {
        findings.problems.push({ element: address, message: 'a formula with no value saved: open the workbook in Excel and save it, or type the value' });
        return undefined;
      }
      return plain(value.result as ExcelValue);
    }
    if ('error' in value) findings.problems.push({ element: address, message: `the cell holds the error ${value.error}` });
    return undefined;
  };
  if (cell.note) findings.extra(address, 'comments are not kept');
  return plain(cell.value);
}

/** A worksheet's cells as a sheet, held to the row and column bounds as it is converted. */
function sheetOf(worksheet: Worksheet, dayZero: string): { sheet: Sheet; findings: SheetFindings } {
  const findings = new SheetFindings(worksheet.name);
  const rows: SheetRow[] = [];
  worksheet.eachRow((row, rowNumber) => {
    checkSheetBounds(worksheet.name, rowNumber - 1, 0);
    const cells: SheetRow = [];
    row.eachCell((cell, columnNumber) => {
      checkSheetBounds(worksheet.name, rowNumber - 1, columnNumber - 1);
      cells[columnNumber - 1] = cellValue(cell, findings, dayZero);
    });
    rows[rowNumber - 1] = cells;
  });
  return { sheet: { name: worksheet.name, rows: Array.from(rows, (row) => row ?? []) }, findings };
}

async function readWorkbook(body: Uint8Array, origin: string): Promise<FileReading> {
  refuseOversizeFile(body);
  const sheetParts = checkZipBounds(body).filter((name) => worksheetPart.test(name)).length;
  if (sheetParts > importBounds.maxTables)
    throw new ImportBoundExceeded('maxTables', `The workbook has ${sheetParts} sheets; at most ${importBounds.maxTables} are read.`);

  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
  } catch (error) {
    return { records: [], problems: [{ element: origin, message: `not an XLSX workbook: ${(error as Error).message}` }], notCarried: [] };
  }
  // Another kind of ZIP (a Word document, a JAR) loads as a workbook with no sheet.
  if (!workbook.worksheets.length) return { records: [], problems: [{ element: origin, message: 'not an XLSX workbook: it has no sheet' }], notCarried: [] };
  const dayZero = workbook.properties?.date1904 ? '1904-01-01' : '1899-12-30';
  const reading: FileReading = { records: [], problems: [], notCarried: [] };
  for (const worksheet of workbook.worksheets) {
    const { sheet, findings } = sheetOf(worksheet, dayZero);
    const table = readSheet(sheet);
    reading.problems.push(...findings.problems, ...table.problems);
    reading.notCarried.push(...findings.notCarried(), ...table.notCarried);
    if (!table.isTable && sheet.rows.length)
      reading.notCarried.push({ element: worksheet.name, message: 'the sheet has no row labelled "Column" in column A, so it holds no table: it is not read' });
    if (table.record && !findings.problems.length) reading.records.push(table.record);
  }
  if (!reading.records.length && !reading.problems.length)
    reading.problems.push({ element: origin, message: 'no sheet holds a decision table: a table starts at a row labelled "Column" in column A' });
  return reading;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/**
 * Text as a cell keeps it: Excel's XML writes characters XML cannot hold as `_xHHHH_`, so an underscore that would
 * start such an escape is escaped itself, and carriage returns and control characters are written escaped.
 */
const excelText = (text: string) =>
  text
    .replace(/_(?=x[0-9A-Fa-f]{4}_)/g, '_x005F_')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);

/**
 * A sheet name Excel takes: none of : \ / ? * [ ], not quoted at either end,
 * at most 31 characters, not "History" (Excel's own), and not a name of an
 * object's prototype (exceljs keys its sheets and defined names by name, and
 * a sheet called "__proto__" loses its hit policy's name on the way back).
 */
function sheetNameOf(entity: EntityInput): string {
  const trimmed = (text: string) => text.replace(/^[\s']+|[\s']+$/g, '');
  const usable = (name: string) => name !== '' && name.toLowerCase() !== 'history' && !reservedNames.has(name);
  const name = trimmed(trimmed(entity.name.replace(/[:\\/?*[\]]/g, ' ')).slice(0, 31));
  const id = entity.id.slice(0, 31);
  return usable(name) ? name : usable(id) ? id : `Rule ${id}`.slice(0, 31);
}

const shades = { label: 'FFE7E6E6', input: 'FFDDEBF7', output: 'FFE2EFDA', annotation: 'FFF2F2F2' } as const;
const fill = (argb: string) => ({ type: 'pattern' as const, pattern: 'solid' as const, fgColor: { argb } });
/** Output types a person types as FEEL text: their column is formatted as text. Numbers, booleans and dates are typed as such. */
const textOutputTypes = new Set(['string', 'list', 'context', 'duration', 'object', 'array']);
const pickList = (items: readonly string[]) => ({ type: 'list' as const, allowBlank: true, formulae: [`"${items.join(',')}"`] });

function styleSheet(worksheet: Worksheet, written: WrittenSheet) {
  const { sheet, hitPolicyRow, header, columns } = written;
  const typeRow = sheet.rows.findIndex((row) => row[0] === headerLabels.type);
  sheet.rows.forEach((row, r) => {
    if (row[0] === undefined || r > header.last) return;
    const label = worksheet.getCell(r + 1, 1);
    label.font = { bold: true };
    label.fill = fill(shades.label);
  });
  worksheet.getCell(hitPolicyRow + 1, 2).dataValidation = pickList(hitPolicies);
  columns.forEach(({ kind, type }, i) => {
    const column = worksheet.getColumn(i + 2);
    const asText = kind !== 'output' || textOutputTypes.has(type!);
    if (asText) column.numFmt = '@';
    for (let r = header.first; r <= header.last; r++) {
      const cell = worksheet.getCell(r + 1, i + 2);
      cell.fill = fill(shades[kind]);
      if (r === header.first || r === header.last) cell.font = { bold: true };
      if (r === header.last) cell.border = { bottom: { style: 'thin' } };
    }
    worksheet.getCell(header.first + 1, i + 2).dataValidation = pickList(columnKinds);
    if (kind !== 'annotation') worksheet.getCell(typeRow + 1, i + 2).dataValidation = pickList(typeNames);
    for (let r = header.last + 1; r < sheet.rows.length; r++) if (asText) worksheet.getCell(r + 1, i + 2).numFmt = '@';
  });
  const widest = (c: number) => Math.max(...sheet.rows.slice(header.first).map((row) => String(row[c] ?? '').length));
  worksheet.getColumn(1).width = Math.min(24, Math.max(18, widest(0) + 2));
  columns.forEach((_, i) => (worksheet.getColumn(i + 2).width = Math.min(50, Math.max(12, widest(i + 1) + 2))));
  worksheet.views = [{ state: 'frozen', xSplit: 1, ySplit: header.last + 1 }];
}

function xlsxCannotHold(entity: EntityInput): string | undefined {
  const reason = sheetCannotHold(entity);
  if (reason || entity.type !== 'decisionTable') return reason;
  for (const row of tableToSheet(entity, '').sheet.rows)
    for (const value of row)
      if (typeof value === 'string' && excelText(value).length > maxCellText)
        return `a cell would hold ${excelText(value).length} characters ("${value.slice(0, 20)}…"); Excel keeps at most ${maxCellText}`;
  return undefined;
}

async function writeWorkbook(entity: EntityInput) {
  const reason = xlsxCannotHold(entity);
  if (reason || entity.type !== 'decisionTable') throw new Error(`This rule cannot be written as XLSX: ${reason}`);
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  const written = tableToSheet(entity, sheetNameOf(entity));
  const worksheet = workbook.addWorksheet(written.sheet.name);
  written.sheet.rows.forEach((row, r) =>
    row.forEach((value, c) => {
      if (value !== undefined) worksheet.getCell(r + 1, c + 1).value = typeof value === 'string' ? excelText(value) : value;
    }),
  );
  styleSheet(worksheet, written);
  workbook.definedNames.add(`'${written.sheet.name.replace(/'/g, "''")}'!$B$${written.hitPolicyRow + 1}`, 'HitPolicy');
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

export const xlsxFormat: Format = {
  name: 'xlsx',
  ...formatFiles.xlsx,
  read: readWorkbook,
  cannotHold: xlsxCannotHold,
  async write(entity) {
    return { fileName: fileNameOf(entity, '.xlsx'), contentType: formatFiles.xlsx.contentType, body: await writeWorkbook(entity) };
  },
};
