/**
 * Values as a spreadsheet types them, read for a decision-table column of a
 * given type: what the sheet import (`./sheet-layout.ts`, XLSX and CSV) and
 * the console's clipboard (`lib/console/web/rules/clipboard.ts`, text pasted
 * from Excel or Google Sheets) share, so that a date or a locale's number
 * means the same whether a file brings it or a paste does. Pure and small:
 * the console's page bundles it.
 */
import type { ValueType } from '../engine/definitions.ts';

/** A date cell as the sheet shows it: the date and time of day typed; a time alone has no date. */
export interface SheetDate {
  date?: string;
  /** `hh:mm:ss`, with `.sss` when there are milliseconds. */
  time: string;
  /** `Z`, `+01:00` or `@Europe/Paris`: text may carry one (a sheet's date cell never does). */
  zone?: string;
}

/** What a date cell holds, as FEEL names it. */
export const sheetDateKind = (value: SheetDate) =>
  value.date === undefined ? 'time' : value.time === '00:00:00' && value.zone === undefined ? 'date' : 'date and time';

/** A date cell as ISO text: `2025-01-31`, `14:30:00`, `2025-01-31T14:30:00`. */
export const sheetDateText = (value: SheetDate) => {
  const kind = sheetDateKind(value);
  return kind === 'date' ? value.date! : `${kind === 'time' ? '' : `${value.date}T`}${value.time}${value.zone ?? ''}`;
};

/**
 * The FEEL literal of a date cell in a column of this type, or undefined when the column takes no such value: a
 * date (or a date at midnight) in a date column, a date with or without its time in a date and time column, a time
 * in a time column.
 */
export function temporalLiteral(value: SheetDate, type: ValueType): string | undefined {
  const kind = sheetDateKind(value);
  if (type === 'date' && kind === 'date') return `date("${value.date}")`;
  if (type === 'datetime' && kind !== 'time') return `date and time("${value.date}T${value.time}${value.zone ?? ''}")`;
  if (type === 'time' && kind === 'time') return `time("${value.time}${value.zone ?? ''}")`;
  return undefined;
}

/** An optional comparison before a value: `>= 1,5` is as misread as `1,5`. */
const comparison = String.raw`(?:[<>]=?|!?=)?\s*`;
/** A number written for a locale: a comma between digits (`1,5`, `1.234,5`, `1,234.5`), or dots grouping thousands (`1.234.567`). */
export const localeNumber = new RegExp(String.raw`^${comparison}-?(?:\d[\d.]*,\d[\d.,]*|\d{1,3}(?:\.\d{3}){2,})$`);
/** A date (or date and time) written as bare text: FEEL reads `31/01/2025` as a division and `2025-01-31` as a subtraction. */
export const bareDate = new RegExp(String.raw`^${comparison}\d{1,4}[./-]\d{1,2}[./-]\d{1,4}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$`);

/** Why text is a number written for a locale, and how to write it instead. */
export const localeNumberProblem = (text: string) =>
  `"${text}" looks like a number written for a locale: write it with a decimal point and no thousands separators (1.5, 1234.5), or put a space after each comma of a list (1, 5)`;

/** Why text in a column of this type would be misread, when it would. */
export function localeProblem(text: string, type: ValueType): string | undefined {
  const trimmed = text.trim();
  if (type === 'number' && localeNumber.test(trimmed)) return localeNumberProblem(trimmed);
  if ((type === 'date' || type === 'datetime') && bareDate.test(trimmed))
    return `"${trimmed}" is a date written as text, which FEEL would not read as a date: type it as a date cell or write date("2025-01-31")${type === 'datetime' ? ' (date and time("2025-01-31T14:30:00"))' : ''}`;
  return undefined;
}
