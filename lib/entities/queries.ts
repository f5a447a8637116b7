/** Query parameters of the entity operations; the same schemas validate requests and describe them in OpenAPI. */
import { z } from 'zod';
import { entityStatuses, versionLabelSchema } from './schema.ts';

const integer = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `must be an integer from ${min} to ${max}` })
    .int({ error: `must be an integer from ${min} to ${max}` })
    .min(min, { error: `must be an integer from ${min} to ${max}` })
    .max(max, { error: `must be an integer from ${min} to ${max}` })
    .default(fallback);

/** An empty filter (`?name=`) means no filter, as it does in most list APIs. */
const filter = (max: number, description: string) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((value) => value || undefined)
    .describe(description);

export const maxPageSize = 100;

export const legacyListQuerySchema = z.object({
  pageNo: integer(1, 1_000_000, 1).describe('page number, from 1'),
  pageSize: integer(1, maxPageSize, 10).describe('items per page'),
  name: filter(200, 'case-insensitive substring of the name'),
  type: filter(64, 'exact kind, such as decisionTable, ruleSet, simpleRule or workflow'),
});

export const listQuerySchema = legacyListQuerySchema.extend({
  status: z.enum(entityStatuses).optional().describe('draft or published'),
  sortBy: z.enum(['name', 'createdAt', 'updatedAt']).default('name'),
  sortDir: z.enum(['asc', 'desc']).default('asc'),
});
export type ListQueryParams = z.output<typeof listQuerySchema>;

export const getQuerySchema = z.object({
  version: versionLabelSchema.optional().describe('a published version label such as v1; absent for the working copy'),
});
