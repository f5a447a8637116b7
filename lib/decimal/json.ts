/**
 * JSON that keeps every number's digits. `JSON.parse` reads numbers as
 * doubles, so `0.30000000000000001` and `12345678901234567890` would lose
 * digits on the way in; here such a number is read from its source text
 * (ES2025 JSON.parse source text access, Node 21+) into a `Decimal`. Writing
 * needs nothing: a `Decimal`'s toJSON gives its digits as raw JSON, so
 * JSON.stringify keeps them.
 *
 * The source text costs a reviver call per value, so it is read only when the
 * text can hold such a number: one with 16 significant digits or more has a
 * run of 16 digits and points from a digit, and one past a double's range a
 * 3-digit exponent after a digit. Other text (nearly every request) is parsed by JSON.parse alone.
 */
import { parseNumber } from './decimal.ts';

const mayHoldInexactNumber = /\d[\d.]{15}|\d[eE][+-]?\d{3}/;

function exactNumbers(this: unknown, _key: string, value: unknown, context?: { source?: string }): unknown {
  // A number past decimal128's range stays what JSON.parse made of it (Infinity or 0), for the caller's bounds to refuse.
  return typeof value === 'number' && context?.source !== undefined ? (parseNumber(context.source) ?? value) : value;
}

/**
 * JSON.parse, with each number exact: a double when the double's text is the
 * number, a `Decimal` otherwise.
 *
 * @example
 * parseJson('{"price": 19.99, "id": 12345678901234567890}'); // { price: 19.99, id: Decimal 12345678901234567890 }
 */
export const parseJson = (text: string): unknown => (mayHoldInexactNumber.test(text) ? JSON.parse(text, exactNumbers as never) : JSON.parse(text));
