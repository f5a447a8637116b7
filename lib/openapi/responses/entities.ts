/** The answers of reading rules and workflows (lib/entities): the list, and a record with what the other areas store beside it. */
import { z } from 'zod';
import type { entityRoutes } from '../../entities/routes.ts';
import { entityDetailSchema, entityRecordSchema, entitySummarySchema } from '../../vocabulary/records.ts';
import { candidateSchema } from './rollout.ts';
import { scheduleExpressionSchema, storedScheduleSchema } from './schedules.ts';
import { findingSchema, type ResponsesOf } from './shared.ts';

export const entityResponses = {
  listEntities: { data: z.array(entitySummarySchema) },
  listEntitiesLegacy: { data: z.array(entitySummarySchema) },
  getEntity: {
    data: entityDetailSchema.extend({
      warnings: z.array(findingSchema).describe('the analysis the last save stored (empty when the writer did not analyse it: import, pull)'),
      schedule: z
        .object({ schedule: storedScheduleSchema, expression: scheduleExpressionSchema })
        .optional()
        .describe("a rule's schedule, when it has one (its next runs: getSchedule)"),
      candidate: candidateSchema.optional().describe("a rule's candidate version, when it has one (its rollout: getRollout)"),
    }),
  },
  getEntityLegacy: { data: entityRecordSchema },
} satisfies ResponsesOf<typeof entityRoutes>;
