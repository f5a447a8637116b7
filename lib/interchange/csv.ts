/**
 * A decision table as CSV: one table a file, in the layout of
 * `./sheet-layout.ts`, every cell text. Read with csv-parse and written with
 * csv-stringify (the csv project's maintained parser and writer, which hold
 * quotes, separators and line breaks inside cells, and bound a record's size
 * as they parse).
 *
 * Reading: UTF-8 only, with or without a byte-order mark (Excel's "CSV
 * UTF-8" writes one; its plain "CSV" writes the machine's code page, which is
 * refused rather than guessed). The separator is `,`, or `;` when the first
 * line has a `;` and no `,` outside quotes: Excel writes `;` in the locales
 * whose decimal separator is a comma, and the first row of the layout is a
 * label and its value, so it always shows the separator. Such a file's
 * decimal commas (`0,1`) are then refused by the layout, cell by cell. An
 * empty unquoted field is an empty cell; a quoted one (`""`) is empty text,
 * which the layout keeps apart (a label that is there but empty). The size
 * is checked before parsing, each record's length and columns as it is
 * parsed, and the rows by stopping the parse one row past the bound.
 *
 * Writing: `,`, a byte-order mark (so that Excel reads the text as UTF-8),
 * CRLF between records (RFC 4180), numbers in FEEL's notation with all their
 * digits.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { EntityInput } from '../entities/schema.ts';
import { feelNumberText } from './feel-literals.ts';
import { fileNameOf, formatFiles, importBounds, ImportBoundExceeded, refuseOversizeFile, type FileReading, type Format } from './format-contract.ts';
import { maxSheetRows, readSheet, sheetCannotHold, tableToSheet, type SheetRow } from './sheet-layout.ts';

/** Characters of one record: the layout's longest rows are the service's JSON parts (a rule's tests); no sheet a person writes comes near. */
const maxRecordCharacters = 1024 * 1024;

/** The separator: `;` when the first line has one and no `,` outside quotes. */
function separatorOf(text: string): ',' | ';' {
  let quoted = false;
  let semicolons = 0;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === ',') return ',';
    else if (c === ';') semicolons++;
    else if (c === '\n' || c === '\r') break;
  }
  return semicolons ? ';' : ',';
}

/** The file's base name without its extension: the table's name and id when its rows give none. */
const sheetNameOf = (origin: string) => (origin.split(/[\\/]/).pop() ?? origin).replace(/\.csv$/i, '');

async function readCsv(body: Uint8Array, origin: string): Promise<FileReading> {
  refuseOversizeFile(body);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new ImportBoundExceeded('encoding', 'The file is not UTF-8 text: save it as "CSV UTF-8".');
  }
  const name = sheetNameOf(origin);
  let rows: SheetRow[];
  try {
    // An empty unquoted field is cast to undefined (no cell): the parser's types know only strings.
    rows = parse(text, {
      delimiter: separatorOf(text),
      relax_column_count: true,
      skip_empty_lines: false,
      max_record_size: maxRecordCharacters,
      to: maxSheetRows + 1,
      cast: (value, context) => (value === '' && !context.quoting ? undefined : value),
      on_record: (record) => {
        if (record.length > importBounds.maxColumns) throw new ImportBoundExceeded('maxColumns', `${name} has more than ${importBounds.maxColumns} columns.`);
        return record;
      },
    }) as SheetRow[];
  } catch (error) {
    if (error instanceof ImportBoundExceeded) throw error;
    const { code, lines, message } = error as { code?: string; lines?: number; message: string };
    if (code === 'CSV_MAX_RECORD_SIZE')
      throw new ImportBoundExceeded('maxColumns', `A row of ${name} is longer than ${maxRecordCharacters} characters (line ${lines ?? '?'}).`);
    return { records: [], problems: [{ element: `${origin}, line ${lines ?? '?'}`, message: `not CSV: ${message}` }], notCarried: [] };
  }
  if (rows.length > maxSheetRows) throw new ImportBoundExceeded('maxRows', `${name} has more than ${maxSheetRows} rows.`);
  const table = readSheet({ name, rows });
  if (!table.isTable)
    return {
      records: [],
      problems: [{ element: origin, message: 'no row labelled "Column" in the first column: the file holds no decision table' }],
      notCarried: [],
    };
  return { records: table.record ? [table.record] : [], problems: table.problems, notCarried: table.notCarried };
}

function writeCsv(entity: EntityInput): Uint8Array {
  const reason = sheetCannotHold(entity);
  if (reason || entity.type !== 'decisionTable') throw new Error(`This rule cannot be written as CSV: ${reason}`);
  const { rows } = tableToSheet(entity, entity.id).sheet;
  const text = stringify(
    rows.map((row) => Array.from(row, (value) => (typeof value === 'number' ? feelNumberText(value) : value === undefined ? undefined : String(value)))),
    // Empty text is quoted, so that it reads back apart from an empty cell.
    { bom: true, record_delimiter: 'windows', quoted_match: /^$/ },
  );
  return new TextEncoder().encode(text);
}

export const csvFormat: Format = {
  name: 'csv',
  ...formatFiles.csv,
  read: readCsv,
  cannotHold: sheetCannotHold,
  async write(entity) {
    return { fileName: fileNameOf(entity, '.csv'), contentType: formatFiles.csv.contentType, body: writeCsv(entity) };
  },
};
