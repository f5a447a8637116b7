/**
 * One way to write each output entry. An output entry is a JSON number,
 * boolean or null, or FEEL text; FEEL text that is only a literal of the first
 * three answers the same value, so it is kept as that value. A format that
 * holds only text (CSV, DMN's entries) then reads back exactly what was
 * written, and two tables that answer alike by their outputs' literals hash
 * alike.
 */
import { parseNumber, type Num } from '../decimal/decimal.ts';
import { unstorableNumberProblem } from '../vocabulary/json-bounds.ts';

/** FEEL's number literal, with an optional minus (which FEEL reads as negation: the same value). */
const numberLiteral = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

export function canonicalOutputEntry<T>(entry: T): T | Num | boolean | null {
  if (typeof entry !== 'string') return entry;
  const text = entry.trim();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (!numberLiteral.test(text)) return entry;
  const value = parseNumber(text);
  // Past decimal128's range, or past what DynamoDB keeps of a number: left as FEEL text, which holds it.
  if (value === null || unstorableNumberProblem(value)) return entry;
  return value === 0 ? 0 : value;
}
