/**
 * A workflow's run and its steps (lib/workflows), and the answer of testing
 * one step. The test and execute operations (./rules.ts), the executions and
 * the task of an asynchronous run (./tasks.ts) answer the same run and steps,
 * so they take them from here.
 */
import { z } from 'zod';
import { stepStatuses } from '../../store/types.ts';
import type { workflowRoutes } from '../../workflows/routes.ts';
import type { ResponsesOf } from './shared.ts';

export const stepRecordSchema = z.object({
  id: z.string(),
  type: z.enum(['rule', 'apiRequest', 'branch', 'transform', 'end']),
  status: z.enum(stepStatuses),
  durationMs: z.number(),
  output: z
    .unknown()
    .optional()
    .describe("what the step gave: a rule's answer, an API request's {status, headers, body}, a transform's values, the end's output"),
  error: z.string().optional().describe('why the step failed'),
});

export const workflowRunSchema = z.object({
  status: z.enum(['succeeded', 'failed']),
  output: z.unknown().optional().describe("the end step's output, when the run succeeded"),
  error: z.object({ stepId: z.string(), message: z.string() }).optional().describe('which step failed, and why'),
  steps: z.array(stepRecordSchema).describe('the steps run, in order, then those skipped'),
  executionId: z.string().describe('listed by listExecutions when the workflow records executions'),
  version: z.string().describe('the version that ran; empty for the draft'),
  durationMs: z.number().describe('milliseconds the whole run took'),
});

export const workflowRunTaskSchema = z.object({
  workflowId: z.string(),
  version: z.string(),
  executionId: z.string(),
  result: workflowRunSchema
    .extend({ outputOmitted: z.literal(true).optional() })
    .optional()
    .describe('the run, once the task ended'),
});

export const workflowResponses = {
  testWorkflowStep: { data: stepRecordSchema.extend({ next: z.string().optional().describe('the step a run would go to next') }) },
} satisfies ResponsesOf<typeof workflowRoutes>;
