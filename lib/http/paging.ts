/**
 * The paging query every list takes (zod/mini), apart from ./queries.ts so
 * that a function that lists nothing does not build it at start-up: its
 * integer coercion and range checks are the only number schemas most of
 * those functions would construct.
 */
import * as z from 'zod/mini';

const integer = (min: number, max: number, fallback: number, description: string) => {
  const error = `must be an integer from ${min} to ${max}`;
  return z
    ._default(z.coerce.number({ error }).check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error })), fallback)
    .register(z.globalRegistry, { description });
};

const maxPageSize = 100;

/** Paging as every list has it (pageNo from 1, pageSize 10 unless asked otherwise). */
export const pageQuerySchema = z.object({
  pageNo: integer(1, 1_000_000, 1, 'page number, from 1'),
  pageSize: integer(1, maxPageSize, 10, 'items per page'),
});
