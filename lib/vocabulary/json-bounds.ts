/**
 * Bounds on free-form JSON a caller sends (rule params, rule definitions),
 * checked while the request is parsed, before any read or write: a size that
 * one DynamoDB item (400 KB) can keep and a page of responses can carry, a
 * depth that no recursive walk of the value can overflow on, and, for JSON
 * stored as a DynamoDB map, numbers a map can hold.
 */
import * as z from 'zod/mini';
import { absolute, compare, Decimal, isNum } from '../decimal/decimal.ts';

export interface JsonBounds {
  maxBytes: number;
  maxDepth: number;
}

/** Why `value` nests too deep, or undefined: measured without recursion, so that no depth can overflow the stack here. */
export function jsonDepthProblem(value: unknown, maxDepth: number): string | undefined {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object' || item instanceof Decimal) continue;
    if (depth > maxDepth) return `nests deeper than ${maxDepth} levels`;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return undefined;
}

/**
 * How deep any request body may nest: far more than any definition or params
 * need, and far less than what a recursive walk (JSON.stringify, a schema)
 * could overflow on. Checked for every body as it is parsed, before anything else.
 */
export const maxBodyDepth = 64;

/** The magnitudes a DynamoDB number can have (up to 38 digits, so every number of 34 below 1e126): a write of any other fails. */
export const storableNumbers = { smallest: 1e-130, below: 1e126 } as const;

/**
 * Where JSON to be stored as a DynamoDB map (a rule's or workflow's
 * definition) holds a number a map cannot keep, or undefined: 1e308 fits a
 * double, not a DynamoDB number, and made the write fail with a 500. (JSON
 * kept as text, such as params and recorded runs, holds any number.)
 */
export function unstorableNumberProblem(value: unknown): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length) {
    const [item, path] = pending.pop()!;
    if (isNum(item)) {
      const size = absolute(item);
      if (size !== 0 && (compare(size, storableNumbers.smallest) < 0 || compare(size, storableNumbers.below) >= 0))
        return `holds the number ${item}${path ? ` (at ${path})` : ''}, which the table cannot keep: numbers range from 1e-130 to 1e125 in size`;
    } else if (item !== null && typeof item === 'object')
      for (const [key, child] of Object.entries(item)) pending.push([child, Array.isArray(item) ? `${path}[${key}]` : `${path}${path ? '.' : ''}${key}`]);
  }
  return undefined;
}

const unkeepableKeys = new Set(['__proto__', 'constructor']);

/** A lone surrogate: in JSON only as an escape (`"\ud800"`), which JSON.parse turns into a string no UTF-8 can hold. */
const loneSurrogate = /\p{Surrogate}/u;

/**
 * Where JSON holds what the service can neither send on nor store, and why,
 * or undefined; checked on every request body and on every record, so that
 * saves, imports and pulls refuse alike:
 * - the keys "__proto__" and "constructor": the document client that writes
 *   items sets the first as a map's prototype instead of an entry, so the
 *   entry is lost or the write fails (an integration's headers, a
 *   definition's test case: a 500), and reads the second to tell a map from
 *   a set, a number or a string, so that `"constructor": 1` fails the write
 *   and `"constructor": {"name": "Set"}` would store something else;
 * - text that is not Unicode (a lone surrogate): encodeURIComponent throws on
 *   it (an integration's test put it in a query: a 500), and UTF-8 has no form
 *   to store it in.
 * Walked without recursion, like the depth.
 */
export function unkeepableProblem(value: unknown): { path: (string | number)[]; message: string } | undefined {
  const pending: [unknown, (string | number)[]][] = [[value, []]];
  const surrogate = (path: (string | number)[]) => ({
    path,
    message: 'holds a lone surrogate (a \\uD800–\\uDFFF escape without its pair), which is not Unicode text',
  });
  while (pending.length) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (loneSurrogate.test(item)) return surrogate(path);
    } else if (item !== null && typeof item === 'object')
      for (const [key, child] of Object.entries(item)) {
        const at = [...path, Array.isArray(item) ? Number(key) : key];
        if (unkeepableKeys.has(key)) return { path: at, message: `is a key "${key}", which the service cannot store: name it otherwise` };
        if (loneSurrogate.test(key)) return surrogate(at);
        pending.push([child, at]);
      }
  }
  return undefined;
}

/** Why `value` is out of bounds, or undefined. The depth is measured first, without recursion. */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds): string | undefined {
  const tooDeep = jsonDepthProblem(value, bounds.maxDepth);
  if (tooDeep) return tooDeep;
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
  return bytes > bounds.maxBytes ? `is ${bytes} bytes as JSON, more than the ${bounds.maxBytes} allowed` : undefined;
}

/** A JSON object within `bounds`. */
export const boundedJsonObject = (bounds: JsonBounds, description: string) =>
  z
    .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
    .check(
      z.superRefine((value, ctx) => {
        const problem = jsonBoundsProblem(value, bounds);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
      }),
    )
    .register(z.globalRegistry, { description: `${description} (at most ${bounds.maxBytes} bytes as JSON, nested at most ${bounds.maxDepth} levels)` });
