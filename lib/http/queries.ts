/** Request schemas every kind of operation shares (zod/mini, as in every API function); a list's paging is in ./paging.ts. */
import * as z from 'zod/mini';

/** For operations that take no query parameters: any given are ignored. */
export const emptyQuery = z.object({});

/** A JSON object body whose unknown fields are refused by name: a misspelt "valeu" must not pass unnoticed. */
export const strictBody = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown fields: ${issue.keys.join(', ')}` : 'must be a JSON object'),
  });
