/**
 * Rule and workflow records: one set of zod schemas validates imported and
 * pulled files, types the domain and store, and feeds the OpenAPI document.
 */
import { z } from 'zod';
import { noControlCharacters } from '../http/patterns.ts';
import { entityStatuses, workflowKind } from './kinds.ts';

export * from './kinds.ts';

export const entityIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'letters, digits, ".", "_" or "-", starting with a letter or digit, at most 128 characters');

/** Text meant for people: no control characters, which also keeps index sort keys unambiguous. */
const text = (max: number) =>
  z.string().max(max).regex(noControlCharacters, 'must not contain control characters');

/** An expression over the input document; a later issue gives it an evaluator. */
const expression = z.string().min(1).max(4000);
const valueType = z.enum(['string', 'number', 'boolean', 'date', 'object', 'array']);

const decisionTable = z
  .object({
    hitPolicy: z.enum(['first', 'unique', 'any', 'collect', 'priority']).default('first'),
    inputs: z.array(z.object({ id: entityIdSchema, label: text(200).optional(), expression, type: valueType })).min(1).max(50),
    outputs: z.array(z.object({ id: entityIdSchema, label: text(200).optional(), name: z.string().min(1).max(200), type: valueType })).min(1).max(50),
    rules: z
      .array(
        z.object({
          id: entityIdSchema.optional(),
          description: text(1000).optional(),
          /** One unary test per input, "-" for any value. */
          when: z.array(z.string().max(4000)),
          /** One value per output. */
          then: z.array(z.unknown()),
        }),
      )
      .max(10_000),
  })
  .superRefine((table, ctx) => {
    table.rules.forEach((row, i) => {
      if (row.when.length !== table.inputs.length)
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'when'], message: `needs ${table.inputs.length} entries, one per input` });
      if (row.then.length !== table.outputs.length)
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'then'], message: `needs ${table.outputs.length} entries, one per output` });
    });
  });

const ruleSet = z.object({
  strategy: z.enum(['firstMatch', 'allMatch']).default('allMatch'),
  rules: z
    .array(
      z.object({
        id: entityIdSchema,
        description: text(1000).optional(),
        priority: z.number().int().default(0),
        when: expression,
        then: z.array(z.object({ set: z.string().min(1).max(200), value: z.unknown() })).min(1),
      }),
    )
    .min(1)
    .max(10_000),
});

const simpleRule = z.object({
  when: expression,
  then: z.record(z.string(), z.unknown()),
  otherwise: z.record(z.string(), z.unknown()).optional(),
});

const step = z.discriminatedUnion('kind', [
  z.object({ id: entityIdSchema, kind: z.literal('rule'), ruleId: entityIdSchema, next: entityIdSchema.optional() }),
  z.object({
    id: entityIdSchema,
    kind: z.literal('apiRequest'),
    request: z.object({
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
      url: z.string().url(),
      headers: z.record(z.string(), z.string()).optional(),
      body: z.unknown().optional(),
    }),
    credentialId: z.string().min(1).max(128).optional(),
    next: entityIdSchema.optional(),
  }),
  z.object({
    id: entityIdSchema,
    kind: z.literal('branch'),
    cases: z.array(z.object({ when: expression, next: entityIdSchema })).min(1),
    otherwise: entityIdSchema.optional(),
  }),
  z.object({ id: entityIdSchema, kind: z.literal('end') }),
]);
type Step = z.infer<typeof step>;

const successors = (s: Step): (string | undefined)[] =>
  s.kind === 'branch' ? [...s.cases.map((c) => c.next), s.otherwise] : s.kind === 'end' ? [] : [s.next];

const workflow = z
  .object({ start: entityIdSchema, steps: z.array(step).min(1).max(500) })
  .superRefine((flow, ctx) => {
    const ids = new Set<string>();
    flow.steps.forEach((s, i) => {
      if (ids.has(s.id)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'id'], message: `duplicate step id "${s.id}"` });
      ids.add(s.id);
    });
    if (!ids.has(flow.start)) ctx.addIssue({ code: 'custom', path: ['start'], message: `no step has id "${flow.start}"` });
    flow.steps.forEach((s, i) => {
      for (const next of successors(s))
        if (next !== undefined && !ids.has(next))
          ctx.addIssue({ code: 'custom', path: ['steps', i], message: `refers to missing step "${next}"` });
    });
  });

const common = {
  id: entityIdSchema,
  name: text(200).min(1).refine((n) => n.trim() === n, 'must not start or end with whitespace'),
  description: text(2000).default(''),
  tags: z.array(text(64).min(1)).max(50).default([]),
};

/**
 * What an import or a pulled file holds. Server-managed fields (status,
 * version, checksum, timestamps) may be present, as in a record the API
 * served, and are ignored.
 */
export const entityInputSchema = z.discriminatedUnion('type', [
  z.object({ ...common, type: z.literal('decisionTable'), definition: decisionTable }),
  z.object({ ...common, type: z.literal('ruleSet'), definition: ruleSet }),
  z.object({ ...common, type: z.literal('simpleRule'), definition: simpleRule }),
  z.object({ ...common, type: z.literal(workflowKind), definition: workflow }),
]);
export type EntityInput = z.infer<typeof entityInputSchema>;

const timestamp = z.string().datetime();

export const entitySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  status: z.enum(entityStatuses).describe('published when the working copy is the latest published version'),
  version: z.string().describe('latest published version label, or empty when never published'),
  tags: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type EntitySummary = z.infer<typeof entitySummarySchema>;

export const entityRecordSchema = entitySummarySchema.extend({
  definition: z.record(z.string(), z.unknown()),
  checksum: z.string().describe('sha256 of the canonical JSON of name, description, type, tags and definition'),
});
export type EntityRecord = z.infer<typeof entityRecordSchema>;

export const auditSchema = z.object({
  createdBy: z.string(),
  updatedBy: z.string(),
  revision: z.number().int().describe('increases by one with each change of the working copy'),
});
export type Audit = z.infer<typeof auditSchema>;

export const versionInfoSchema = z.object({
  version: z.string(),
  checksum: z.string(),
  publishedAt: timestamp,
  publishedBy: z.string(),
});
export type VersionInfo = z.infer<typeof versionInfoSchema>;

export const entityDetailSchema = entityRecordSchema.extend({ ...auditSchema.shape, versions: z.array(versionInfoSchema) });
export type EntityDetail = z.infer<typeof entityDetailSchema>;
