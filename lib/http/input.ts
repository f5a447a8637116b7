import { safeParse, type $ZodType, type output } from 'zod/v4/core';
import { parseJson } from '../decimal/json.ts';
import { jsonDepthProblem, maxBodyDepth, unkeepableProblem } from '../vocabulary/json-bounds.ts';
import { errors, type FieldIssue } from '../vocabulary/errors.ts';

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

/** The JSON body of a request: absent when empty, a 400 when it is not JSON, nests deeper than `maxBodyDepth`, or holds what `unkeepableProblem` names. */
export function jsonBody(body: string | null | undefined, isBase64Encoded: boolean): unknown {
  const text = body && isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  if (!text || !text.trim()) return undefined;
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    throw errors.invalidRequest([{ in: 'body', field: 'body', message: 'is not valid JSON' }]);
  }
  const tooDeep = jsonDepthProblem(parsed, maxBodyDepth);
  if (tooDeep) throw errors.invalidRequest([{ in: 'body', field: 'body', message: tooDeep }]);
  const unkeepable = unkeepableProblem(parsed);
  if (unkeepable) throw errors.invalidRequest([{ in: 'body', field: fieldPath(unkeepable.path) || 'body', message: unkeepable.message }]);
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
