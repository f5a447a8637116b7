/** The answer of a rule's rollout operations (lib/rollout): its versions, the rollout and its comparison; getEntity shows the candidate too (./entities.ts). */
import { z } from 'zod';
import type { rolloutRoutes } from '../../rollout/routes.ts';
import { rolloutCounts, type RolloutView } from '../../rollout/service.ts';
import { rolloutEndings, rolloutModes } from '../../store/types.ts';
import { timestamp, type ResponsesOf } from './shared.ts';

export const candidateSchema = z
  .object({
    version: z.string(),
    checksum: z.string(),
    changeRequestId: z
      .string()
      .optional()
      .describe('the approved change request that published it; on a protected branch only such a candidate is rolled out or promoted'),
  })
  .describe('the candidate version: published with {"candidate": true}, run only when named or by a rollout until promoted');
const versionOutcomeSchema = z.object({
  version: z.string(),
  output: z.unknown().optional().describe('what the version answered'),
  outputOmitted: z.literal(true).optional().describe('set instead of output when the answer was larger than an execution keeps'),
  error: z.object({ code: z.string(), message: z.string() }).optional().describe('why the version gave no answer'),
});
const rolloutViewSchema = z.object({
  version: z.string().describe('the version executions get by default; empty when none'),
  candidate: candidateSchema.nullable(),
  rollout: z
    .object({
      id: z.string().describe('names its counts and sample: a new rollout starts them afresh'),
      candidate: z.string(),
      mode: z.enum(rolloutModes),
      percent: z.number().int().optional().describe("a canary's share of executions the candidate answers"),
      stickyBy: z.string().optional().describe('the param whose value picks the version'),
      state: z.enum(['running', ...rolloutEndings]).describe('running, or how it stopped: ended, promoted, or superseded by a publish'),
      startedAt: timestamp,
      startedBy: z.string(),
      updatedAt: timestamp.optional().describe('the last change of percent or stickyBy'),
      updatedBy: z.string().optional(),
      endedAt: timestamp.optional(),
      endedBy: z.string().optional(),
      ending: z.enum(rolloutEndings).optional(),
    })
    .nullable()
    .describe('the running rollout, or the last one; null before the first'),
  counts: z
    .object(Object.fromEntries(rolloutCounts.map((name) => [name, z.number().int()])) as Record<(typeof rolloutCounts)[number], z.ZodNumber>)
    .nullable()
    .describe('executions compared and how (see the operation), counted by the functions every 10 s at most'),
  agreementRate: z.number().nullable().describe('agree ÷ compared, to 4 decimals; null before any execution was compared'),
  disagreements: z
    .array(
      z.object({
        executionId: z.string(),
        at: timestamp.describe('when the execution ran: both versions ran as of this time'),
        servedBy: z.enum(['baseline', 'candidate']).describe('which version answered the caller'),
        input: z.unknown().describe('the params as given'),
        baseline: versionOutcomeSchema.describe('the served version'),
        candidate: versionOutcomeSchema,
      }),
    )
    .describe('the newest sampled disagreements, newest first'),
}) satisfies z.ZodType<RolloutView>;

export const rolloutResponses = {
  getRollout: { data: rolloutViewSchema },
  startRollout: { data: rolloutViewSchema },
  promoteCandidate: { data: rolloutViewSchema },
  endRollout: { data: rolloutViewSchema },
} satisfies ResponsesOf<typeof rolloutRoutes>;
