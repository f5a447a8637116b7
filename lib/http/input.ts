import type { z } from 'zod';
import { errors, type FieldIssue } from './errors.ts';

/** Parses one part of a request with its schema, turning zod issues into field details for a 400. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, location: FieldIssue['in']): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw errors.invalidRequest(
    result.error.issues.map((issue) => ({ in: location, field: issue.path.join('.') || location, message: issue.message })),
  );
}
