/**
 * A value as a spreadsheet shows it (a word, a number, a date, TRUE, empty),
 * read for a column of the decision-table grid: the FEEL literal of the
 * column's type it stands for, or why it does not fit; undefined for text
 * that is FEEL. A paste reads values so (./clipboard.ts, whose header gives
 * every case), and a copy writes a cell so only when it reads back so
 * (./clipboard-copy.ts). No FEEL parser: the page bundles it.
 */
import { finish, parseNumber, toDecimal } from '../../../decimal/decimal.ts';
import type { ValueType } from '../../../engine/definitions.ts';
import { FeelDate, FeelDateTime, FeelDuration, FeelTime } from '../../../engine/feel/temporal.ts';
import { feelNumberText, feelStringLiteral } from '../../../interchange/feel-literals.ts';
import { bareDate, localeNumberProblem, localeProblem, sheetDateKind, temporalLiteral, type SheetDate } from '../../../interchange/typed-text.ts';

/** A grid column as the clipboard sees it: an input column's cells are FEEL unary tests, an output column's cells FEEL expressions (the grid's text of an output entry, as `entryText` in ./model.ts gives it). */
export interface ClipboardColumn {
  kind: 'when' | 'then';
  type: ValueType;
  /** The names the save parses the table's FEEL with (its declared parameters), so that names with spaces read as they will. */
  names?: readonly string[];
}

/** A pasted value as its column's cell, with why it was kept as typed when it does not fit. */
export interface PastedCell {
  text: string;
  problem?: string;
}

/** A value of each type, as a problem names it. */
export const typeNames: Record<ValueType, string> = {
  number: 'a number',
  string: 'text',
  boolean: 'a boolean',
  date: 'a date',
  datetime: 'a date and time',
  time: 'a time',
  duration: 'a duration',
  list: 'a list',
  context: 'a context',
  object: 'a context',
  array: 'a list',
};

/** How a problem tells to write a value of each type. */
export const howToWrite: Record<ValueType, string> = {
  number: 'write digits with a decimal point, such as 1234.5',
  string: 'write text',
  boolean: 'write TRUE or FALSE',
  date: 'write a date as 2025-01-31',
  datetime: 'write a date and time as 2025-01-31T14:30:00',
  time: 'write a time as 14:30',
  duration: 'write a duration as P1D or PT1H30M',
  list: 'write a FEEL list, such as [1, 2]',
  context: 'write a FEEL context, such as {a: 1}',
  object: 'write a FEEL context, such as {a: 1}',
  array: 'write a FEEL list, such as [1, 2]',
};

/** A value in a message: in quotes, its start only when it is long. */
export const shown = (text: string) => `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`;

/** A value kept as typed, with why. */
export const marked = (text: string, problem: string): PastedCell => ({ text, problem });

/** A plain value of one type in a column of another. */
function mismatch(text: string, valueType: ValueType, type: ValueType): PastedCell {
  const serialDate = valueType === 'number' && (type === 'date' || type === 'datetime' || type === 'time');
  return marked(
    text,
    `${shown(text)} is ${typeNames[valueType]}, not ${typeNames[type]}: ${howToWrite[type]}` +
      (serialDate ? ' (a spreadsheet copies a date as a number when its cell is not formatted as a date)' : ''),
  );
}

const temporalTypes = { date: 'date', 'date and time': 'datetime', time: 'time' } as const;

const feelNumber = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;
const spreadsheetNumber = /^([+-]?)(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?(%?)$/;
const beyondNumbers = (text: string) => `${shown(text)} lies beyond FEEL's numbers (below 1e6145)`;

/** A plain number as FEEL's literal text, or why it is none; undefined when the text is no plain number. */
function numberLiteral(text: string): { literal: string } | { problem: string } | undefined {
  if (feelNumber.test(text)) return parseNumber(text) === null ? { problem: beyondNumbers(text) } : { literal: text };
  const match = spreadsheetNumber.exec(text);
  if (!match) return undefined;
  const [, sign, digits, exponent, percent] = match;
  const number = parseNumber(`${sign}${digits}${exponent === undefined ? '' : `e${exponent}`}`);
  if (number === null) return { problem: beyondNumbers(text) };
  if (!percent) return { literal: feelNumberText(number) };
  const { coefficient, exponent: power } = toDecimal(number);
  const hundredth = finish(coefficient, power - 2);
  return hundredth === null ? { problem: beyondNumbers(text) } : { literal: feelNumberText(hundredth) };
}

const isoDateTime = /^(\d{4}-\d{2}-\d{2})(?:[T ](.*))?$/;
const clockTime = /^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?(?:\s*([AaPp])\.?[Mm]\.?)?(Z|[+-]\d{2}:\d{2}|@[A-Za-z][\w/+-]*)?$/;

/** A plain ISO date, date and time, or time (or a 12-hour clock's), or why it is none; undefined when the text is no such value. */
function temporalValue(text: string): SheetDate | { problem: string } | undefined {
  const dated = isoDateTime.exec(text);
  const [date, timeText] = dated ? [dated[1], dated[2]] : [undefined, text];
  if (date !== undefined && !FeelDate.parse(date)) return { problem: `${shown(text)} is not a date of the calendar` };
  if (timeText === undefined) return { date, time: '00:00:00' };
  const clock = clockTime.exec(timeText);
  if (!clock) return date === undefined ? undefined : { problem: `${shown(text)} is not a date and time: write 2025-01-31T14:30:00` };
  const [, hours, minutes, seconds = '00', half, zone] = clock;
  let hour = Number(hours);
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return { problem: `${shown(text)} is not a time of a 12-hour clock` };
    hour = (hour % 12) + (half.toUpperCase() === 'P' ? 12 : 0);
  }
  const value: SheetDate = { date, time: `${String(hour).padStart(2, '0')}:${minutes}:${seconds}`, ...(zone !== undefined && { zone }) };
  const iso = `${date === undefined ? '' : `${date}T`}${value.time}${zone ?? ''}`;
  return (date === undefined ? FeelTime.parse(iso) : FeelDateTime.parse(iso))
    ? value
    : { problem: `${shown(text)} is not ${date === undefined ? 'a time' : 'a date and time'} of the clock` };
}

/** Day, month and year as a sheet writes them for a locale, and what they may be read as: once when the order is certain, twice when it is not. */
function localeDateReadings(text: string): string {
  const parts = /^(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})$/.exec(text);
  if (!parts) return '';
  const [a, b, c] = parts.slice(1).map(Number) as [number, number, number];
  const iso = (year: number, month: number, day: number) =>
    FeelDate.parse(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`)?.toString();
  if (parts[1]!.length === 4) return iso(a, b, c) ? ` (year first, it is ${iso(a, b, c)})` : '';
  if (parts[3]!.length !== 4) return ' (its year has two digits)';
  const dayFirst = iso(c, b, a);
  const monthFirst = iso(c, a, b);
  if (dayFirst && monthFirst && dayFirst !== monthFirst) return ` (${dayFirst} if the day comes first, ${monthFirst} if the month does)`;
  const reading = dayFirst ?? monthFirst;
  return reading ? ` (it can only be ${reading})` : '';
}

const currency = /\p{Sc}/u;
/** `(1,234.50)`: no range, which `(0..5)` is. */
const parenthesizedNumber = /^\((?!.*\.\.)\s*\d[\d.,\s]*\)$/;
const spaceGrouped = /^-?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?$/;
const errorValue = /^#(?:N\/A|VALUE!|REF!|DIV\/0!|NUM!|NAME\?|NULL!|SPILL!|CALC!|GETTING_DATA|FIELD!|BLOCKED!|CONNECT!|BUSY!|UNKNOWN!)$/i;

/** Why text in a number, date or date and time column is written for a locale (or as money), when it is. */
function formatProblem(text: string, type: ValueType): string | undefined {
  if (type === 'number') {
    if (currency.test(text) && /\d/.test(text)) return `${shown(text)} is an amount of money: write the number alone, with a decimal point, such as 1234.5`;
    if (parenthesizedNumber.test(text))
      return `${shown(text)} is how a spreadsheet shows a negative number, and FEEL reads it as a positive one: write it with a minus sign, such as -1234.5`;
    if (spaceGrouped.test(text)) return localeNumberProblem(text);
    if (text.includes('%')) return `${shown(text)} holds a percentage, which FEEL does not read: write it as a number (5% is 0.05)`;
    return localeProblem(text, type);
  }
  if ((type === 'date' || type === 'datetime') && bareDate.test(text))
    return `${shown(text)} is a date written for a locale, which FEEL does not read as a date${localeDateReadings(text)}: ${howToWrite[type]}, or in FEEL as date("2025-01-31")`;
  return undefined;
}

/** A pasted value (trimmed) that a spreadsheet shows as it would any value (empty, a word, a number, a date), as the column's cell; undefined for FEEL. */
export function plainValue(text: string, column: ClipboardColumn): PastedCell | undefined {
  const { kind, type } = column;
  if (text === '') return { text: kind === 'when' ? '-' : 'null' };
  if (kind === 'when' && text === '-') return { text: '-' };
  if (text === 'null') return undefined;
  if (errorValue.test(text)) return marked(text, `${shown(text)} is an error value of the sheet, not a value: correct the sheet and copy again`);
  if (type === 'string') return startsLikeFeel(text, kind) ? undefined : { text: feelStringLiteral(text) };

  const number = numberLiteral(text);
  if (number) return type !== 'number' ? mismatch(text, 'number', type) : 'problem' in number ? marked(text, number.problem) : { text: number.literal };
  if (/^(?:true|false)$/i.test(text)) return type === 'boolean' ? { text: text.toLowerCase() } : mismatch(text, 'boolean', type);
  const temporal = temporalValue(text);
  if (temporal && 'problem' in temporal) return marked(text, temporal.problem);
  if (temporal) {
    const literal = temporalLiteral(temporal, type);
    return literal ? { text: literal } : mismatch(text, temporalTypes[sheetDateKind(temporal)], type);
  }
  if (/^-?P/.test(text) && FeelDuration.parse(text)) return type === 'duration' ? { text: `duration("${text}")` } : mismatch(text, 'duration', type);
  const problem = formatProblem(text, type);
  return problem === undefined ? undefined : marked(text, problem);
}

/** FEEL in a string column, told by how it starts, as no plain text does; in an input cell, unary tests' starts too. */
const feelStart = { then: /^"/, when: /^(?:"|[<>]=?|!?=|not\s*\(|\?)/ };
const rangeShape = /^[[(\]][^]*\.\.[^]*[\])[]$/;
const startsLikeFeel = (text: string, kind: ClipboardColumn['kind']) => feelStart[kind].test(text) || (kind === 'when' && rangeShape.test(text));
