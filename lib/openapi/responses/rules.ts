/**
 * The answers of testing and executing a rule or workflow, one input or a
 * batch (`paramsList`), and of listing the executions recorded (lib/rules).
 */
import { z } from 'zod';
import type { runRoutes } from '../../rules/routes.ts';
import { queuedTaskSchema, timestamp, type ResponsesOf } from './shared.ts';
import { stepRecordSchema, workflowRunSchema } from './workflows.ts';

// Traces are loose objects: the engine may explain more in later versions.
const rowTraceSchema = z.looseObject({
  row: z.number().int().describe('1-based'),
  id: z.string().optional(),
  matched: z.boolean(),
  failed: z
    .looseObject({ input: z.string(), cell: z.string(), value: z.unknown(), reason: z.string().optional() })
    .optional()
    .describe('for a row that did not match: the first cell that failed, the value it was given, and why when a type error made it fail'),
});
const ruleTraceSchema = z
  .union([
    z.looseObject({
      kind: z.literal('decisionTable'),
      inputs: z.array(z.looseObject({ label: z.string(), value: z.unknown() })),
      rows: z.array(rowTraceSchema),
    }),
    z.looseObject({ kind: z.literal('simpleRule'), condition: z.string(), result: z.boolean().nullable(), reason: z.string().optional() }),
    z.looseObject({
      kind: z.literal('ruleSet'),
      entries: z.array(
        z.looseObject({
          id: z.string(),
          matched: z.boolean(),
          ruleId: z.string().optional(),
          condition: z.string().optional(),
          reason: z.string().optional(),
          trace: z.looseObject({ kind: z.string() }).optional().describe("the referenced rule's own trace, of the shape above"),
        }),
      ),
    }),
  ])
  .describe('why the rule answered as it did');

const durationMs = z.number().describe('milliseconds the evaluation took (loading and compiling not included)');

/** A batch's answer to one input that gave none. */
const slotErrorSchema = z
  .object({
    code: z.string().describe('what a call with this input alone answers: invalid_request (params that do not fit the inputs), evaluation_failed, ...'),
    message: z.string(),
    fields: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe('the params at fault, by name (params.<input>)'),
  })
  .describe('why this input has no output');

/** A batch's answer (`paramsList`): a slot an input, in order, `answered` for an input that answered, and `each` for every input. */
const batchAnswer = (slots: { answered: z.ZodRawShape; each: z.ZodRawShape }, extra: z.ZodRawShape, description: string) =>
  z
    .object({
      outputs: z
        .array(z.union([z.object({ ...slots.answered, ...slots.each }), z.object({ error: slotErrorSchema, ...slots.each })]))
        .describe('one an input of paramsList, in its order'),
      ...extra,
      durationMs: z.number().describe('milliseconds the evaluations of every input took (loading and compiling, once, not included)'),
    })
    .describe(description);

const executionSchema = z.object({
  executionId: z.string(),
  ruleId: z.string().optional().describe("a rule's execution: the rule"),
  workflowId: z.string().optional().describe("a workflow's execution: the workflow"),
  steps: z.array(stepRecordSchema).optional().describe("a workflow's execution: its steps (without their outputs when together they were too large to keep)"),
  version: z.string().describe('the version that ran; empty when none could (a scheduled run of a rule deleted or not published)'),
  trigger: z.enum(['api', 'schedule']),
  scheduledTime: timestamp.optional().describe("a scheduled run: when it was due (its params are the schedule's inputParam, its clock this time)"),
  outcome: z.enum(['succeeded', 'failed']),
  input: z.unknown().describe('the params as given'),
  output: z.unknown().optional().describe("the rule's answer; absent when it failed or was too large to keep"),
  outputOmitted: z.boolean().optional().describe('true when the answer was larger than an execution keeps'),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  durationMs,
  startedAt: timestamp,
  finishedAt: timestamp,
  expiresAt: timestamp.describe('when the record is deleted'),
});

export const runResponses = {
  testEntity: {
    data: z.union([
      z.object({ output: z.unknown(), trace: ruleTraceSchema, durationMs }).describe('a rule'),
      batchAnswer(
        {
          answered: {
            output: z.unknown(),
            trace: ruleTraceSchema.optional(),
            traceOmitted: z.literal(true).optional().describe('no trace: the answer had no room left for it (test this input alone to see it)'),
          },
          each: {},
        },
        { version: z.string().optional().describe('the published version tested, when one was named') },
        'a rule, given paramsList',
      ),
      workflowRunSchema.describe('a workflow'),
    ]),
  },
  executeEntity: {
    data: z.union([
      z
        .object({
          output: z.unknown(),
          version: z.string(),
          executionId: z.string().describe('listed by listExecutions when the rule records executions'),
          durationMs,
        })
        .describe('a rule'),
      batchAnswer(
        {
          answered: { output: z.unknown() },
          each: { executionId: z.string().optional().describe("the input's recorded execution, when the rule records executions") },
        },
        { version: z.string() },
        'a rule, given paramsList',
      ),
      workflowRunSchema.describe('a workflow'),
    ]),
    accepted: queuedTaskSchema
      .extend({ executionId: z.string(), version: z.string() })
      .describe('a workflow run with async: true: follow it at GET /dev/v1/tasks/{taskId}'),
  },
  listExecutions: { data: z.array(executionSchema) },
} satisfies ResponsesOf<typeof runRoutes>;
