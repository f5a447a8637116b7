import { safeParse, type $ZodType, type output } from 'zod/v4/core';
import { jsonDepthProblem, maxBodyDepth } from './json-bounds.ts';
import { errors, type FieldIssue } from './errors.ts';

/** A field's path as people and the engine write it: `definition.rules[2].when[0]`. */
export const fieldPath = (path: readonly PropertyKey[]): string =>
  path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`)).join('');

/** zod issues as the field details of a 400. */
export const fieldIssues = (issues: readonly { path: readonly PropertyKey[]; message: string }[], location: FieldIssue['in']): FieldIssue[] =>
  issues.map((issue) => ({ in: location, field: fieldPath(issue.path) || location, message: issue.message }));

/** Parses one part of a request with its schema, turning zod issues into field details for a 400. */
export function parseInput<S extends $ZodType>(schema: S, value: unknown, location: FieldIssue['in']): output<S> {
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  throw errors.invalidRequest(fieldIssues(result.error.issues, location));
}

const unkeepableKeys = new Set(['__proto__', 'constructor']);

/** A lone surrogate: in JSON only as an escape (`"\ud800"`), which JSON.parse turns into a string no UTF-8 can hold. */
const loneSurrogate = /\p{Surrogate}/u;

/**
 * Why a body holds what the service can neither send on nor store, with
 * where, or undefined:
 * - the keys "__proto__" and "constructor": the document client that writes
 *   items sets the first as a map's prototype instead of an entry, so the
 *   entry is lost or the write fails (an integration's headers, a
 *   definition's test case: a 500), and reads the second to tell a map from
 *   a set, a number or a string, so that `"constructor": 1` fails the write
 *   and `"constructor": {"name": "Set"}` would store something else;
 * - text that is not Unicode (a lone surrogate): encodeURIComponent throws on
 *   it (an integration's test put it in a query: a 500), and UTF-8 has no form
 *   to store it in.
 */
function unkeepableProblem(value: unknown): { field: string; message: string } | undefined {
  const pending: [unknown, string][] = [[value, '']];
  const surrogate = (field: string) => ({ field: field || 'body', message: 'holds a lone surrogate (a \\uD800–\\uDFFF escape without its pair), which is not Unicode text' });
  while (pending.length) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (loneSurrogate.test(item)) return surrogate(path);
    } else if (item !== null && typeof item === 'object')
      for (const [key, child] of Object.entries(item)) {
        const at = Array.isArray(item) ? `${path}[${key}]` : `${path}${path ? '.' : ''}${key}`;
        if (unkeepableKeys.has(key)) return { field: at, message: `is a key "${key}", which the service cannot store: name it otherwise` };
        if (loneSurrogate.test(key)) return surrogate(at);
        pending.push([child, at]);
      }
  }
  return undefined;
}

/** The JSON body of a request: absent when empty, a 400 when it is not JSON, nests deeper than `maxBodyDepth`, or holds what `unkeepableProblem` names. */
export function jsonBody(body: string | null | undefined, isBase64Encoded: boolean): unknown {
  const text = body && isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  if (!text || !text.trim()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.invalidRequest([{ in: 'body', field: 'body', message: 'is not valid JSON' }]);
  }
  const tooDeep = jsonDepthProblem(parsed, maxBodyDepth);
  if (tooDeep) throw errors.invalidRequest([{ in: 'body', field: 'body', message: tooDeep }]);
  const unkeepable = unkeepableProblem(parsed);
  if (unkeepable) throw errors.invalidRequest([{ in: 'body', ...unkeepable }]);
  return parsed;
}

/** Operations under this prefix refuse query parameters they do not know; their bodies are strict objects too. */
export const strictPathPrefix = '/dev/v1/';

/** A 400 naming every query parameter the operation's schema does not declare. */
export function refuseUnknownQueryParameters(schema: $ZodType, parameters: Record<string, unknown>): void {
  const known = Object.keys((schema._zod.def as { shape?: Record<string, unknown> }).shape ?? {});
  const unknown = Object.keys(parameters).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const takes = known.length ? `it takes ${known.join(', ')}` : 'it takes none';
  throw errors.invalidRequest(unknown.map((name) => ({ in: 'query', field: name, message: `is not a query parameter of this operation (${takes})` })));
}
