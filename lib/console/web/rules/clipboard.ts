/**
 * The decision-table grid's clipboard, both ways, as pure functions (no DOM):
 * the grid calls them from its copy and paste handlers. A copy writes two forms:
 *
 * - tab-separated text (`text/plain`), which Excel, Google Sheets and
 *   LibreOffice read and write. Each cell is written as a spreadsheet shows
 *   such a value (`copiedText`): a string literal as its text, a date or time
 *   as its ISO text, a number as its digits; and as its FEEL text whenever that
 *   plain form would not paste back as the very same cell (the string `"-"`,
 *   the string `">= 5"`, a comparison, a range). A paste reads each value for
 *   the column it lands in (`pastedCell`), so a table copied and pasted back
 *   gives the same cells (test/console/clipboard.property.test.ts; which cells
 *   it cannot hold is said there and below).
 * - the cells as they are, with their columns' kinds and types
 *   (`gridCellsType`), for a paste into a table of the console, which keeps
 *   every cell as it was, whatever it holds.
 *
 * How a pasted value is read, in this order. It is trimmed first (spreadsheet
 * cells keep stray spaces), and no locale is read from the browser: the same
 * text gives the same cells on every machine. A value that does not fit its
 * column, or whose locale format is ambiguous, is kept as typed with a
 * `problem` that says why; it is never guessed.
 *
 * 1. Empty is `-` (any value) in an input cell and `null` (no value) in an
 *    output cell, as `entryText` writes a null entry; `-` in an input cell is
 *    `-`; `null` is FEEL's null in every column; spreadsheet error values
 *    (`#N/A`, `#VALUE!`) are marked.
 * 2. In a string column, FEEL is told by how it starts: a quoted string
 *    (`"gold"`, `"a", "b"`, `"a" + x`), and in an input cell also a comparison
 *    (`< "m"`, `= "x"`, `!= "x"`), a range (`["a".."m"]`), `not(...)` or a
 *    test of `?`. Everything else is text and becomes a string literal with
 *    FEEL's escapes: a word (`gold` to `"gold"`: a bare word reads in FEEL as a
 *    name, which is not what a pasted sheet means), a sentence, a number
 *    (`00123` to `"00123"`: string columns hold codes whose zeros matter),
 *    `TRUE`, a date.
 * 3. In other columns, a plain value becomes a literal of the column's type:
 *    - numbers: digits in FEEL's notation are kept as typed (`1.50`, `-5`,
 *      `.5`), the literal's text itself, never through a double; a `+` sign,
 *      `5.` or an exponent (`1.5E+25`, as spreadsheets show large numbers)
 *      become FEEL's notation with every digit; a percentage is its number
 *      (`5%` is 0.05, as the spreadsheet holds it). Marked: thousands
 *      separators and decimal commas (`1,234.5`, `1.234,5`, `1,5`, `1 234,50`:
 *      the same text is another number in another locale, and FEEL reads `1,5`
 *      as the tests 1 or 5), money (`$1,234.50`, `1 234,50 €`), and negatives
 *      in parentheses (`(1234.50)`, which FEEL reads as 1234.50);
 *    - booleans: TRUE and FALSE in any case (Excel copies them upper case);
 *    - dates: ISO only (`2025-01-31`, or a date and time at midnight). Every
 *      other date is marked, `31/01/2025` too although its day cannot be a
 *      month: the message gives its reading, but a column of such dates would
 *      otherwise be half read (days over 12) and half marked, which hides that
 *      the sheet writes dates for a locale. Format the sheet's dates as
 *      yyyy-mm-dd and paste again;
 *    - date and time: `2025-01-31T14:30`, `2025-01-31 14:30:00`, with seconds'
 *      fractions and a zone (`Z`, `+01:00`, `@Europe/Paris`), or a date alone
 *      (its midnight);
 *    - times: `14:30`, `14:30:00`, `2:30 PM` (unambiguous), with a zone;
 *    - durations: ISO (`P1D`, `PT1H30M`, `-P1Y2M`);
 *    - lists and contexts have no plain form: their cells are FEEL.
 *    A plain value of another type is marked: a number in a date column
 *    (`45688`: how a spreadsheet copies a date whose cell is not formatted as
 *    one), TRUE in a number column, a date in a time column.
 * 4. Anything else is FEEL (`>= 100`, `[1..5]`, `1, 5`, `not(3)`,
 *    `date("2025-01-31")`, `< limit`), checked with the parser the save uses
 *    (unary tests in an input cell, an expression in an output cell, with the
 *    names the save parses with: `ClipboardColumn.names`) and kept as typed;
 *    marked when it does not parse, when it is a lone name in a column of
 *    another type than string (sheet text such as `TBD` or `yes` reads in
 *    FEEL as the name of a value; `n/a`, a division of two names, is left to
 *    the save's warning of names the table does not know), and when its
 *    literal has another type than the column (`"5"` in a number column: the
 *    save's own cell warning).
 *
 * Cells a copy to text and a paste back cannot give back as they were (the
 * console's own form keeps them): FEEL in a string column that does not start
 * like FEEL (`customer.type`, `upper case(name)`), which pastes as text; lone
 * names in other columns, literals of another type than their column, text
 * that does not parse, and locale-like FEEL (`1,5`), which paste marked; an
 * empty input cell, which pastes back as `-` (the same test), and an empty
 * output text, which pastes back as `null`. Spreadsheets themselves change
 * some values on the way: Excel shows `2025-01-31` in its locale's format
 * (copied back, it is marked) and `00123` as 123.
 *
 * Bounds (`clipboardBounds`), checked before the text is read: 5 MiB of
 * text, 10,000 rows (a table's rules) and 100 values a row (a table's 50
 * inputs and 50 outputs). Past them nothing is pasted and `refused` says why.
 *
 * Only reading FEEL needs the parser, which the page keeps out of its first
 * load: everything else (the copy, tab-separated text, plain values, the
 * console's own form) is in ./clipboard-copy.ts and
 * ./spreadsheet-values.ts, which the page may bundle; this module re-exports
 * the first. Load this one with `onDemand` at the first
 * paste of text (its chunk is the parser's, which the draft check's worker
 * has fetched already).
 */
import type { Expr } from '../../../engine/feel/ast.ts';
import { feelLimits } from '../../../engine/feel/limits.ts';
import { FeelSyntaxError, parseExpression, parseUnaryTests } from '../../../engine/feel/parse.ts';
import type { ValueType } from '../../../engine/definitions.ts';
import { literalType, sameType } from '../../../engine/prepare.ts';
import { ClipboardBoundExceeded, parseTsv } from './clipboard-copy.ts';
import { howToWrite, marked, plainValue, shown, typeNames, type ClipboardColumn, type PastedCell } from './spreadsheet-values.ts';

export * from './clipboard-copy.ts';

// ---------------------------------------------------------------------------------------------------------------
// FEEL

const noNames: readonly string[] = [];
const isName = (e: Expr): boolean => (e.k === 'var' && e.name !== '?') || (e.k === 'path' && isName(e.of));

/** A cell's FEEL as the save's parser reads it: what it compares the input with (a range by its first end, as the save's cell warnings take it), and whether that is names alone (`TBD`: the input equals the value so called). */
function readFeel(text: string, { kind, names = noNames }: ClipboardColumn): { compared: Expr[]; namesAlone: boolean } {
  // Only where the text first goes wrong: a paste may hold thousands of values, and one problem a cell is shown.
  const budget = { recoverable: 0 };
  if (kind === 'then') {
    const expr = parseExpression(text, names, budget);
    return { compared: [expr], namesAlone: isName(expr) };
  }
  const tests = parseUnaryTests(text, names, budget);
  if (tests.k === 'any') return { compared: [], namesAlone: false };
  return {
    compared: tests.tests.map((test) => (test.k === 'cmp' ? test.r : test.e.k === 'range' ? (test.e.lo ?? test.e.hi ?? test.e) : test.e)),
    namesAlone: !tests.not && tests.tests.every((test) => test.k === 'expr' && isName(test.e)),
  };
}

/** Text that is FEEL (no plain value: ./spreadsheet-values.ts has marked locale formats already), as the save's parser reads it and the save's checks see its literals. */
function feelValue(text: string, column: ClipboardColumn): PastedCell {
  const { kind, type } = column;
  let read: ReturnType<typeof readFeel>;
  try {
    read = readFeel(text, column);
  } catch (error) {
    // A RangeError is an escape that names no character (`"\UFFFFFF"`), which the parser throws on as it is.
    if (!(error instanceof FeelSyntaxError || error instanceof RangeError)) throw error;
    const reason = error instanceof FeelSyntaxError ? (error.problems[0]?.message ?? error.message) : error.message;
    return marked(
      text,
      type === 'string'
        ? `${shown(text)} starts as FEEL does but is not FEEL (${reason}): for the text itself, put it in quotes`
        : `${shown(text)} is not ${typeNames[type]}, and not FEEL (${reason}): ${howToWrite[type]}`,
    );
  }
  if (type !== 'string' && read.namesAlone)
    return marked(
      text,
      `${shown(text)} is not ${typeNames[type]}: FEEL reads it as the name of a value (an input or parameter so called); ${howToWrite[type]}`,
    );
  const wrongType = read.compared.map(literalType).find((actual): actual is ValueType => actual !== undefined && actual !== 'null' && !sameType(type, actual));
  if (wrongType) return marked(text, `${shown(text)} ${kind === 'when' ? 'tests' : 'is'} ${typeNames[wrongType]}, but the column's type is ${type}`);
  return { text };
}

// ---------------------------------------------------------------------------------------------------------------
// Cells

/**
 * A pasted spreadsheet value as this column's cell: text as a quoted string in a string column; numbers, booleans,
 * ISO dates and times as literals of the column's type; FEEL kept as it is; empty as `-` in an input cell and `null`
 * in an output cell. A value that does not fit the column's type, or whose locale format is ambiguous, is kept as
 * typed with `problem` saying why (the module's header gives every case).
 *
 * @example
 * pastedCell('gold', { kind: 'when', type: 'string' }); // { text: '"gold"' }
 * pastedCell('1.234,5', { kind: 'then', type: 'number' }); // { text: '1.234,5', problem: '"1.234,5" looks like a number written for a locale: …' }
 */
export function pastedCell(value: string, column: ClipboardColumn): PastedCell {
  const text = value.trim();
  const cell = plainValue(text, column) ?? feelValue(text, column);
  if (!cell.problem && cell.text.length > feelLimits.maxLength)
    return marked(cell.text, `${shown(text)} is ${cell.text.length} characters long as FEEL; a cell holds at most ${feelLimits.maxLength}`);
  return cell;
}

/**
 * Tab-separated text pasted at a column: each row's values read for the columns they land in (`columns`, from the
 * one pasted at to the last). Values past the last column are dropped; `droppedColumns` counts the columns of the
 * text they filled. Text past `clipboardBounds` is not read: `refused` says why and `rows` is empty.
 */
export function pasteCells(text: string, columns: ClipboardColumn[]): { rows: PastedCell[][]; droppedColumns: number; refused?: string } {
  let values: string[][];
  try {
    values = parseTsv(text);
  } catch (error) {
    if (error instanceof ClipboardBoundExceeded) return { rows: [], droppedColumns: 0, refused: error.message };
    throw error;
  }
  // A column's values repeat (a pricing table's `>= 100`, its zones): each is read once, as FEEL costs a parse.
  const read = columns.map(() => new Map<string, PastedCell>());
  const cell = (value: string, i: number) => {
    let found = read[i]!.get(value);
    if (!found) read[i]!.set(value, (found = pastedCell(value, columns[i]!)));
    return { ...found };
  };
  const width = values.reduce((widest, row) => Math.max(widest, row.length), 0);
  return {
    rows: values.map((row) => row.slice(0, columns.length).map(cell)),
    droppedColumns: Math.max(0, width - columns.length),
  };
}
