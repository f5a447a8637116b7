/** The answers of the authoring operations (lib/authoring/routes.ts): create, edit, publish and delete a rule or workflow. */
import { z } from 'zod';
import type { authoringRoutes } from '../../authoring/routes.ts';
import { findingSchema, type ResponsesOf } from './shared.ts';

const savedSchema = z.object({
  id: z.string(),
  checksum: z.string().describe('what the draft holds now: send it with the next edit or publish'),
  warnings: z.array(findingSchema).describe('what the save found without refusing it: rows that can never be the answer, gaps'),
});

export const authoringResponses = {
  createEntity: { data: savedSchema, created: true },
  updateEntity: { data: savedSchema },
  publishEntity: {
    data: z.object({
      id: z.string(),
      version: z.string(),
      checksum: z.string(),
      candidate: z.literal(true).optional().describe("set when the version is the rule's candidate, which executions get by default only once promoted"),
      replayTaskId: z
        .string()
        .optional()
        .describe('for a rule with settings.replayGate: the replay the publish ran (or was acknowledged with), at GET /dev/v1/tasks/{taskId}'),
    }),
    created: true,
  },
  deleteEntity: { data: z.object({ id: z.string(), deleted: z.boolean().describe('false when there was nothing to delete') }) },
} satisfies ResponsesOf<typeof authoringRoutes>;
