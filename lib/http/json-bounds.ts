/**
 * Bounds on free-form JSON a caller sends (rule params, rule definitions),
 * checked while the request is parsed, before any read or write: a size that
 * one DynamoDB item (400 KB) can keep and a page of responses can carry, and
 * a depth that no recursive walk of the value can overflow on.
 */
import * as z from 'zod/mini';

export interface JsonBounds {
  maxBytes: number;
  maxDepth: number;
}

/** Why `value` is out of bounds, or undefined. The depth is measured first, without recursion. */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds): string | undefined {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > bounds.maxDepth) return `nests deeper than ${bounds.maxDepth} levels`;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
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
