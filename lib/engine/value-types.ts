/**
 * Declared types on the way in: a JSON value checked against the type an
 * input declares and converted to the FEEL value it stands for (a date as
 * "2025-01-31" becomes a FEEL date). A missing value is null; a value of the
 * wrong type is a problem naming what was expected.
 */
import { Decimal } from '../decimal/decimal.ts';
import type { ValueType } from './definitions.ts';
import { FeelDate, FeelDateTime, FeelDuration, FeelTemporal, FeelTime } from './feel/temporal.ts';
import { isContext, type FeelValue } from './feel/values.ts';

export type Converted = { ok: true; value: FeelValue } | { ok: false; problem: string };

const ok = (value: FeelValue): Converted => ({ ok: true, value });
const expected = (what: string, value: unknown): Converted => ({ ok: false, problem: `expected ${what}, got ${describeJson(value)}` });

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Decimal) return `number ${value}`;
  if (value instanceof FeelTemporal) return `the ${value.constructor.name.replace(/^Feel/, '').toLowerCase()} ${value}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

function temporal(value: unknown, is: (v: unknown) => boolean, parse: (text: string) => FeelValue, what: string): Converted {
  if (is(value)) return ok(value as FeelValue);
  if (typeof value === 'string') {
    const parsed = parse(value);
    if (parsed !== null) return ok(parsed);
  }
  return expected(what, value);
}

/** Whether a value already is what `type` asks for, so that it needs no conversion: the common case, checked without allocating. */
export function fitsAsIs(value: FeelValue, type: ValueType): boolean {
  switch (type) {
    case 'number':
      return value === null || (typeof value === 'number' && Number.isFinite(value)) || value instanceof Decimal;
    case 'string':
      return value === null || typeof value === 'string';
    case 'boolean':
      return value === null || typeof value === 'boolean';
    default:
      return value === null;
  }
}

/**
 * Converts a JSON value to the FEEL value of `type`.
 *
 * @example
 * convertValue('2025-01-31', 'date'); // { ok: true, value: FeelDate 2025-01-31 }
 * convertValue('ten', 'number');      // { ok: false, problem: 'expected a number, got the string "ten"' }
 */
export function convertValue(value: unknown, type: ValueType): Converted {
  if (value === null || value === undefined) return ok(null);
  switch (type) {
    case 'number':
      return (typeof value === 'number' && Number.isFinite(value)) || value instanceof Decimal ? ok(value) : expected('a number', value);
    case 'string':
      return typeof value === 'string' ? ok(value) : expected('a string', value);
    case 'boolean':
      return typeof value === 'boolean' ? ok(value) : expected('true or false', value);
    case 'date':
      return temporal(value, (v) => v instanceof FeelDate, FeelDate.parse, 'a date such as "2025-01-31"');
    case 'datetime':
      return temporal(
        value,
        (v) => v instanceof FeelDateTime,
        // A date alone is that date at midnight, as `date and time("2018-12-08")` is in DMN.
        FeelDateTime.parse,
        'a date and time such as "2025-01-31T09:30:00Z"',
      );
    case 'time':
      return temporal(value, (v) => v instanceof FeelTime, FeelTime.parse, 'a time such as "09:30:00"');
    case 'duration':
      return temporal(value, (v) => v instanceof FeelDuration, FeelDuration.parse, 'an ISO 8601 duration such as "P1D" or "P1Y2M"');
    case 'list':
    case 'array':
      return Array.isArray(value) ? ok(value as FeelValue[]) : expected('a list', value);
    case 'context':
    case 'object':
      return isContext(value as FeelValue) ? ok(value as FeelValue) : expected('an object', value);
  }
}
