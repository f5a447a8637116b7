import { z } from 'zod';
import { entityDetailSchema, entityRecordSchema, entitySummarySchema } from '../entities/schema.ts';
import type { routes } from '../http/routes.ts';

/** What `data` holds in each operation's success envelope; every route must have an entry. */
export const responses = {
  listEntities: { data: z.array(entitySummarySchema) },
  listEntitiesLegacy: { data: z.array(entitySummarySchema) },
  getEntity: { data: entityDetailSchema },
  getEntityLegacy: { data: entityRecordSchema },
} satisfies Record<keyof typeof routes, { data: z.ZodType }>;
