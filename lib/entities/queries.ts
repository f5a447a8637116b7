/**
 * Query parameters of the entity operations; the same schemas validate
 * requests and describe them in OpenAPI. Written with zod/mini, which
 * tree-shakes: the full zod would double every function's bundle.
 */
import * as z from 'zod/mini';
import { pageQuerySchema } from '../http/paging.ts';
import { entityStatuses, versionLabelPattern } from '../vocabulary/kinds.ts';

/** An empty filter (`?name=`) means no filter, as it does in most list APIs. */
const filter = (max: number, description: string) =>
  z
    .pipe(
      z.optional(z.string().check(z.maxLength(max, { error: `must be at most ${max} characters` }))),
      z.transform((value) => value || undefined),
    )
    .register(z.globalRegistry, { description });

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` });

export const legacyListQuerySchema = z.extend(pageQuerySchema, {
  name: filter(200, 'case-insensitive substring of the name'),
  type: filter(64, 'exact kind, such as decisionTable, ruleSet, simpleRule or workflow'),
});

export const listQuerySchema = z.extend(legacyListQuerySchema, {
  status: z.optional(oneOf(entityStatuses)).register(z.globalRegistry, { description: 'draft or published' }),
  sortBy: z._default(oneOf(['name', 'createdAt', 'updatedAt']), 'name'),
  sortDir: z._default(oneOf(['asc', 'desc']), 'asc'),
});
export type ListQueryParams = z.output<typeof listQuerySchema>;

export const getQuerySchema = z.object({
  version: z
    .optional(z.string().check(z.regex(versionLabelPattern, { error: 'must be a published version label such as v1' })))
    .register(z.globalRegistry, { description: 'a published version label such as v1; absent for the working copy' }),
});
