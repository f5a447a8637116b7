/**
 * JSON typed by a person, read before anything is sent; and JSON shown to a
 * person. Typed JSON is read by the exact reader (`lib/decimal/json.ts`): a
 * number a double would round (`12345678901234567.89`) is held as a `Decimal`,
 * which JSON.stringify (the API client's, and `pretty`'s) writes back as the
 * digits typed, so what reaches the API is what was typed.
 */
import { Decimal } from '../../../decimal/decimal.ts';
import { parseJson } from '../../../decimal/json.ts';

export type Parsed<T = unknown> = { ok: true; value: T } | { ok: false; error: string };

/** The text's value, its numbers exact, or why it is not JSON. */
export function parseValue(text: string): Parsed {
  try {
    return { ok: true, value: parseJson(text) };
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** A JSON object: not null, a list, or an exact number (a `Decimal` is an object to JavaScript, a number to JSON). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Decimal);

/** The text's object (params, a context), or why it is not one. */
export function parseObject(text: string): Parsed<Record<string, unknown>> {
  const parsed = parseValue(text);
  if (!parsed.ok) return parsed;
  if (!isJsonObject(parsed.value)) return { ok: false, error: 'Must be a JSON object, such as {"age": 30}.' };
  return { ok: true, value: parsed.value };
}

/** Pretty JSON for people. */
export const pretty = (value: unknown) => JSON.stringify(value, null, 2) ?? 'undefined';

/** JSON on one line when it is short (a table cell), pretty when it is not. */
export function compact(value: unknown): string {
  const line = JSON.stringify(value) ?? 'undefined';
  return line.length <= 48 ? line : pretty(value);
}

/** The same JSON value, whatever the order of object keys (a case's expected output and what came; a draft and what was sent). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** JSON text with object keys sorted: two values are the same JSON when their texts are equal (a key to compare by, kept instead of the value). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
