/**
 * The paging query every list takes (zod/mini), apart from ./queries.ts so
 * that a function that lists nothing does not build it at start-up: its
 * integer coercion and range checks are the only number schemas most of
 * those functions would construct.
 */
import * as z from 'zod/mini';

const whole = (min: number, max: number) => {
  const error = `must be an integer from ${min} to ${max}`;
  return z.coerce.number({ error }).check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error }));
};

/** An integer query parameter from `min` to `max`, `fallback` when absent. */
export const integer = (min: number, max: number, fallback: number, description: string) =>
  z._default(whole(min, max), fallback).register(z.globalRegistry, { description });

/** An integer query parameter from `min` to `max`, or none. */
export const optionalInteger = (min: number, max: number, description: string) => z.optional(whole(min, max)).register(z.globalRegistry, { description });

const maxPageSize = 100;

/** Paging as every list has it (pageNo from 1, pageSize 10 unless asked otherwise). */
export const pageQuerySchema = z.object({
  pageNo: integer(1, 1_000_000, 1, 'page number, from 1'),
  pageSize: integer(1, maxPageSize, 10, 'items per page'),
});
