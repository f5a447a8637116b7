import { safeParse, type $ZodType, type output } from 'zod/v4/core';
import { errors, type FieldIssue } from './errors.ts';

/** Parses one part of a request with its schema, turning zod issues into field details for a 400. */
export function parseInput<S extends $ZodType>(schema: S, value: unknown, location: FieldIssue['in']): output<S> {
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  throw errors.invalidRequest(
    result.error.issues.map((issue) => ({ in: location, field: issue.path.join('.') || location, message: issue.message })),
  );
}
