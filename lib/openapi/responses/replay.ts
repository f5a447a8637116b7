/**
 * The answers of a replay (lib/replay): its report, and the replay task that
 * carries it, which the task, a change request and a publish refused by the
 * replay gate show too.
 */
import { z } from 'zod';
import type { replayRoutes } from '../../replay/routes.ts';
import { count, queuedTaskSchema, timestamp, type ResponsesOf } from './shared.ts';

const replaySideSchema = z.object({
  label: z.string().describe('"draft", or a version label'),
  checksum: z.string().describe('what it held when the replay was asked'),
});
const caseSideSchema = z.object({
  output: z.unknown().optional(),
  error: z.object({ code: z.string(), message: z.string().optional() }).optional().describe('why it failed, when it did'),
  hits: z.array(z.string()).describe('the rows, entries or branches that gave the answer, by name (the first 10)'),
  moreHits: count.optional(),
});
const unitHitsSchema = z.object({ name: z.string().describe('row 3, entry risk, then, otherwise'), id: z.string().optional(), hits: count });

/** A replay's report (lib/replay/report.ts). */
export const replayReportSchema = z.object({
  counts: z.object({
    inputs: count,
    same: count,
    changed: count.describe('both answered, differently'),
    newlyFailing: count.describe('the baseline answered, the candidate failed'),
    newlySucceeding: count.describe('the baseline failed, the candidate answered'),
    bothFailing: count,
  }),
  hits: z
    .object({
      baseline: z.array(unitHitsSchema),
      candidate: z.array(unitHitsSchema),
      notListed: z.object({ baseline: count, candidate: count }).optional().describe('units past the listed JSON (50 KB a side), counted'),
    })
    .describe('per row, entry or branch of each side, in order: how often it gave the answer'),
  fields: z
    .array(
      z.object({
        field: z.string().describe('a top-level output field, [i] for an item of a list answer, (answer) for another answer'),
        changed: count,
        delta: z
          .object({ count, mean: z.number(), min: z.number(), max: z.number() })
          .optional()
          .describe('candidate − baseline, exact, over the changes where both were numbers'),
        overflow: z.literal(true).optional().describe('a delta beyond decimal128: no statistics'),
      }),
    )
    .describe('the fields of changed outputs that changed, most often first (the first 100)'),
  moreFields: count.optional(),
  fieldsNotTracked: z.literal(true).optional().describe('outputs had more than 300 fields: those after it in text order were not tallied'),
  sample: z
    .array(
      z.object({
        inputIndex: count.describe('its place among the inputs: executions oldest first, or the list'),
        executionId: z.string().optional(),
        input: z.unknown().optional(),
        baseline: caseSideSchema,
        candidate: caseSideSchema,
        omitted: z.literal(true).optional().describe('larger than 6 KB: input, outputs and error messages left out'),
      }),
    )
    .describe('the first 20 changed outcomes, in input order'),
});

export const replayTaskSchema = z.object({
  ruleId: z.string(),
  candidate: replaySideSchema,
  baseline: replaySideSchema,
  source: z
    .union([z.object({ executions: z.object({ from: timestamp, to: timestamp, limit: count }) }), z.object({ paramsList: z.object({ count }) })])
    .describe('the window of recorded executions, as replayed, or how many params were given'),
  gate: z
    .object({ maxChangedRatio: z.number(), window: z.string(), passed: z.boolean() })
    .optional()
    .describe("set when a publish ran it for the rule's replayGate"),
  report: replayReportSchema.optional().describe('once completed'),
});

export const replayResponses = {
  replayRule: {
    accepted: queuedTaskSchema.describe('the replay task: follow it at GET /dev/v1/tasks/{taskId}, which holds the report'),
  },
} satisfies ResponsesOf<typeof replayRoutes>;
