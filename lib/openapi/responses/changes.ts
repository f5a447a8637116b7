/** The answers of the maker-checker operations (lib/changes): a branch's protection and a change request. */
import { z } from 'zod';
import type { changeRoutes } from '../../changes/routes.ts';
import { replayTaskSchema } from './replay.ts';
import { timestamp, type ResponsesOf } from './shared.ts';

const approvalSchema = z.object({ owner: z.string(), keyId: z.string(), comment: z.string(), at: timestamp });
const changeRequestSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  branch: z.string(),
  entityType: z.enum(['rule', 'workflow']),
  entityId: z.string(),
  checksum: z.string().describe('the draft proposed'),
  description: z.string(),
  baseVersion: z.string().describe("the version it changes ('' when never published)"),
  baseChecksum: z.string(),
  newestVersion: z
    .string()
    .optional()
    .describe('the newest version, served or candidate, when it was proposed: a version published after it makes the request stale'),
  author: z.object({ owner: z.string(), keyId: z.string() }),
  createdAt: timestamp,
  state: z.enum(['open', 'rejected', 'published']),
  approvals: z
    .array(
      approvalSchema.extend({
        person: z
          .optional(z.object({ issuer: z.string(), subject: z.string(), email: z.optional(z.string()) }))
          .describe('set when a person signed in approved'),
        counts: z.boolean().describe("whether it counts now: its key still usable, holding approve on the branch, its owner's, and not acting for the author"),
      }),
    )
    .describe('one per owner, oldest first'),
  approvalsCounted: z.number().int().describe('the approvals that count now, as a publish weighs them'),
  rejection: z.optional(approvalSchema),
  publishedVersion: z.optional(z.string()),
  closedAt: z.optional(timestamp),
  diff: z
    .array(z.object({ path: z.string(), before: z.optional(z.unknown()), after: z.optional(z.unknown()) }))
    .describe('what changed since the base version'),
  diffTruncated: z.boolean(),
  tests: z.object({ total: z.number().int(), failed: z.number().int(), failures: z.array(z.object({ name: z.string(), message: z.string() })) }),
  replayTaskId: z.string().optional().describe('for a rule with settings.replayGate: the replay of the draft run when it was proposed'),
  replay: replayTaskSchema
    .extend({ taskId: z.string() })
    .partial()
    .optional()
    .describe('getChangeRequest: that replay, with its report, as GET /dev/v1/tasks/{taskId} shows it (only its taskId once the task expired, 30 days on)'),
  stale: z.boolean().describe('the draft was edited after it was proposed'),
  requiredApprovals: z.number().int().describe('what the branch requires now (0: not protected)'),
  publishable: z.boolean(),
});
const protectionAnswer = z.object({
  branch: z.string(),
  protection: z.object({ requiredApprovals: z.number().int(), updatedAt: timestamp }).nullable(),
});

export const changeResponses = {
  protectBranch: { data: protectionAnswer },
  unprotectBranch: { data: protectionAnswer },
  proposeChange: { data: changeRequestSchema, created: true },
  listChangeRequests: { data: z.array(changeRequestSchema) },
  getChangeRequest: { data: changeRequestSchema },
  approveChange: { data: changeRequestSchema },
  rejectChange: { data: changeRequestSchema },
} satisfies ResponsesOf<typeof changeRoutes>;
