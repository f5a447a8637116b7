/**
 * The part of the grid's clipboard (./clipboard.ts) that needs no FEEL parser:
 * tab-separated text, the copy, and the console's own form of copied cells.
 * It is apart so that the page can bundle it: a copy must write the
 * clipboard within its event, and a paste of the console's own form reads it
 * there too; only a paste of text from a spreadsheet reads FEEL, with the
 * parser the save uses, which the page fetches on first use (./clipboard.ts,
 * with `onDemand`), as it fetches the parser for the draft check.
 */
import { parseJson } from '../../../decimal/json.ts';
import { valueTypes, type ValueType } from '../../../engine/definitions.ts';
import { unescapeString } from '../../../engine/feel/string-literals.ts';
import { plainValue, type ClipboardColumn } from './spreadsheet-values.ts';

export type { ClipboardColumn, PastedCell } from './spreadsheet-values.ts';

/** What one paste may hold, checked before the text is read. */
export const clipboardBounds = {
  /** Characters of pasted text (or of the console's own form of copied cells). */
  maxTextLength: 5 * 1024 * 1024,
  /** Rows: as many as a decision table's rules. */
  maxRows: 10_000,
  /** Values a row: a table's 50 inputs and 50 outputs. */
  maxColumns: 100,
} as const;

export class ClipboardBoundExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClipboardBoundExceeded';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Tab-separated text

const fieldEnd = /[\t\r\n]/g;

/** The end of a field that is not quoted: the next tab or line break, or the end of the text. */
function unquotedEnd(text: string, from: number): number {
  fieldEnd.lastIndex = from;
  return fieldEnd.exec(text)?.index ?? text.length;
}

/** A quoted field from its opening quote: its text (`""` is a quote) and where it ends; undefined when its closing quote is not followed by a tab, a line break or the end. */
function quotedField(text: string, from: number): { value: string; end: number } | undefined {
  let value = '';
  for (let at = from + 1; ;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return undefined;
    value += text.slice(at, quote);
    if (text[quote + 1] === '"') {
      value += '"';
      at = quote + 2;
      continue;
    }
    const next = text[quote + 1];
    return next === undefined || next === '\t' || next === '\r' || next === '\n' ? { value, end: quote + 1 } : undefined;
  }
}

function checkTextLength(text: string) {
  if (text.length > clipboardBounds.maxTextLength)
    throw new ClipboardBoundExceeded(`The text holds ${text.length} characters; at most ${clipboardBounds.maxTextLength} are pasted at once.`);
}

/**
 * Tab-separated text, as Excel and Google Sheets write and read it: a field in quotes may hold tabs, line breaks
 * and quotes (doubled); a field whose quotes do not close before its tab is read as it stands (`"gold", "silver"`
 * typed in a text editor); rows end with CRLF, LF or CR, and a line break at the end is not a row.
 *
 * @throws ClipboardBoundExceeded past `clipboardBounds`, before reading past them
 */
export function parseTsv(text: string): string[][] {
  checkTextLength(text);
  const rows: string[][] = [];
  if (text === '') return rows;
  let row: string[] = [];
  for (let at = 0; ;) {
    const quoted = text[at] === '"' ? quotedField(text, at) : undefined;
    const end = quoted?.end ?? unquotedEnd(text, at);
    row.push(quoted?.value ?? text.slice(at, end));
    if (row.length > clipboardBounds.maxColumns)
      throw new ClipboardBoundExceeded(
        `Row ${rows.length + 1} holds more than ${clipboardBounds.maxColumns} values; a table has at most ${clipboardBounds.maxColumns} columns.`,
      );
    at = end;
    if (text[at] === '\t') {
      at++;
      continue;
    }
    rows.push(row);
    if (rows.length > clipboardBounds.maxRows)
      throw new ClipboardBoundExceeded(`The text holds more than ${clipboardBounds.maxRows} rows; a table has at most ${clipboardBounds.maxRows} rules.`);
    if (at < text.length) at += text[at] === '\r' && text[at + 1] === '\n' ? 2 : 1;
    if (at >= text.length) return rows;
    row = [];
  }
}

/** A field as a spreadsheet reads it back: in quotes (inner quotes doubled) when it holds a tab, a line break or a quote. */
const tsvField = (value: string) => (/[\t\r\n"]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** Rows (of one cell or more) as tab-separated text, each row ended by CRLF as Excel ends them, so that a last row of empty cells is still a row. */
export const formatTsv = (rows: string[][]): string => rows.map((row) => `${row.map(tsvField).join('\t')}\r\n`).join('');

// ---------------------------------------------------------------------------------------------------------------
// Copy

const singleString = /^"(?:[^"\\]|\\[^])*"$/;
const temporalCall = /^(?:date|time|date and time|duration)\("([^"\\]*)"\)$/;

/** What a spreadsheet would show of a cell: a string's text, a date's ISO text, nothing for an output's null; undefined when it has no such form. */
function plainForm(cell: string, column: ClipboardColumn): string | undefined {
  if (column.kind === 'then' && cell === 'null') return '';
  if (!singleString.test(cell)) return temporalCall.exec(cell)?.[1];
  try {
    return unescapeString(cell);
  } catch (error) {
    // `\UFFFFFF` names no character: the cell has no plain form (the save's parser throws on it too).
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * What a copied cell reads as in a spreadsheet: a string literal as its text, a date or time literal as its ISO
 * text, an output's null as nothing, anything else (numbers, `-`, comparisons) as its FEEL text; and as its FEEL
 * text any cell whose plain form would not paste back as the same cell (`"-"`, `">= 5"`, `" padded "`).
 *
 * @example
 * copiedText('"gold"', { kind: 'when', type: 'string' }); // 'gold'
 * copiedText('"-"', { kind: 'when', type: 'string' }); // '"-"'
 */
export function copiedText(cell: string, column: ClipboardColumn): string {
  const plain = plainForm(cell, column);
  if (plain === undefined || plain !== plain.trim()) return cell;
  // A paste reads a value's plain form before any FEEL (./clipboard.ts, pastedCell): this is what it will read.
  const pasted = plainValue(plain, column);
  return pasted?.text === cell && !pasted.problem ? plain : cell;
}

/** Cells selected in the grid (each row one cell per column) as the clipboard's tab-separated text. */
export const copyCells = (cells: string[][], columns: ClipboardColumn[]): string =>
  formatTsv(cells.map((row) => row.map((cell, i) => copiedText(cell, columns[i]!))));

// ---------------------------------------------------------------------------------------------------------------
// The console's own form

/** Cells copied from a table of the console, for a paste into one: kept as they were, with their columns. */
export const gridCellsType = 'application/x-rules-grid+json';

/** Cells (each row one cell per column) in the console's own form, which `deserializeCells` reads. */
export const serializeCells = (cells: string[][], columns: ClipboardColumn[]): string =>
  JSON.stringify({ columns: columns.map(({ kind, type }) => ({ kind, type })), cells });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
const hasKeys = (value: Record<string, unknown>, keys: string[]) => {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => own.includes(key));
};
const isColumn = (value: unknown): value is ClipboardColumn =>
  isRecord(value) && hasKeys(value, ['kind', 'type']) && (value.kind === 'when' || value.kind === 'then') && valueTypes.includes(value.type as ValueType);

/**
 * The cells of the console's own form, or undefined for anything else. It is clipboard input, which another page
 * may have written: text past `clipboardBounds`, text that is not JSON, and JSON not of exactly this shape (1 to
 * 100 columns of a kind and type, 1 to 10,000 rows of one string per column) are refused; it never throws.
 */
export function deserializeCells(text: string): { cells: string[][]; columns: ClipboardColumn[] } | undefined {
  if (typeof text !== 'string' || text.length > clipboardBounds.maxTextLength) return undefined;
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || !hasKeys(value, ['columns', 'cells'])) return undefined;
  const { columns, cells } = value;
  if (!Array.isArray(columns) || columns.length < 1 || columns.length > clipboardBounds.maxColumns || !columns.every(isColumn)) return undefined;
  if (!Array.isArray(cells) || cells.length < 1 || cells.length > clipboardBounds.maxRows) return undefined;
  const rectangular = cells.every((row) => Array.isArray(row) && row.length === columns.length && row.every((cell) => typeof cell === 'string'));
  return rectangular ? { cells: cells as string[][], columns: columns.map(({ kind, type }) => ({ kind, type })) } : undefined;
}
