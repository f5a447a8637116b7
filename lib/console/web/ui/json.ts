/** JSON typed by a person, read before anything is sent; and JSON shown to a person. */

export type Parsed<T = unknown> = { ok: true; value: T } | { ok: false; error: string };

/** The text's value, or why it is not JSON. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The text's object (params, a context), or why it is not one. */
export function parseObject(text: string): Parsed<Record<string, unknown>> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'Must be a JSON object, such as {"age": 30}.' };
  return { ok: true, value: value as Record<string, unknown> };
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
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
