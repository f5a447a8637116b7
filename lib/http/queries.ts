/** Request schemas every kind of operation shares (zod/mini, as in every API function). */
import * as z from 'zod/mini';

const integer = (min: number, max: number, fallback: number, description: string) => {
  const error = `must be an integer from ${min} to ${max}`;
  return z._default(z.coerce.number({ error }).check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error })), fallback).register(
    z.globalRegistry,
    { description },
  );
};

const maxPageSize = 100;

/** Paging as every list has it (spec 4.1 and 8). */
export const pageQuerySchema = z.object({
  pageNo: integer(1, 1_000_000, 1, 'page number, from 1'),
  pageSize: integer(1, maxPageSize, 10, 'items per page'),
});

/** For operations that take no query parameters: any given are ignored. */
export const emptyQuery = z.object({});

/** A JSON object body whose unknown fields are refused by name: a misspelt "valeu" must not pass unnoticed. */
export const strictBody = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown fields: ${issue.keys.join(', ')}` : 'must be a JSON object'),
  });
