/**
 * Rule and workflow records: one set of zod schemas validates imported and
 * pulled files, types the domain and store, and feeds the OpenAPI document.
 */
import { z } from 'zod';
import { noControlCharacters } from '../http/patterns.ts';
import { aggregations, hitPolicies, valueTypes } from '../engine/definitions.ts';
import { feelLimits } from '../engine/feel/limits.ts';
import { entityIdPattern, entityStatuses, versionLabelPattern, workflowKind } from './kinds.ts';

export * from './kinds.ts';

const reservedNames = new Set(['__proto__', 'constructor', 'prototype']);

export const entityIdSchema = z
  .string()
  .regex(entityIdPattern, 'letters, digits, ".", "_" or "-", starting with a letter or digit, at most 128 characters');

/** Text meant for people: no control characters, which also keeps index sort keys unambiguous. */
const text = (max: number) =>
  z.string().max(max).regex(noControlCharacters, 'must not contain control characters');

/** FEEL text: an expression (a condition, an input column, a computed output) or a cell's unary tests. */
const expression = z.string().min(1).max(feelLimits.maxLength);
const valueType = z.enum(valueTypes);

/** A name a rule gives a value (an output, a declared input): no dots, so paths stay unambiguous, and no prototype names. */
const valueName = z
  .string()
  .min(1)
  .max(200)
  .regex(noControlCharacters, 'must not contain control characters')
  .refine((name) => !reservedNames.has(name), 'must not be __proto__, constructor or prototype');

/** An output entry: a number, boolean or null as it is; a string is FEEL, so a string literal is written in quotes ("gold"). */
const outputEntry = z.union([z.string().max(feelLimits.maxLength), z.number(), z.boolean(), z.null()]);

/** The rule's inputs (its params), with types: checked and converted on the way in; FEEL may then name only these. */
const parameters = z
  .array(z.strictObject({ name: valueName.refine((n) => !n.includes('.'), 'must not contain "."'), type: valueType }))
  .max(100)
  .optional();

/** Named cases: publishing runs them all and refuses when one fails. */
const testCases = z
  .array(z.strictObject({ name: text(200).min(1), params: z.record(z.string(), z.unknown()), expected: z.unknown() }))
  .max(100)
  .optional();

const settings = z
  .strictObject({
    /** Record API executions of this rule (scheduled runs are always recorded). */
    recordExecutions: z.boolean().optional(),
    /** IANA time zone of the rule's schedule. */
    timezone: z.string().max(64).optional(),
  })
  .optional();

const ruleCommon = { parameters, tests: testCases, settings };

const decisionTable = z
  .strictObject({
    hitPolicy: z.enum(hitPolicies).default('first'),
    aggregation: z.enum(aggregations).optional(),
    inputs: z.array(z.strictObject({ id: entityIdSchema, label: text(200).optional(), expression, type: valueType })).min(1).max(50),
    outputs: z
      .array(
        z.strictObject({
          id: entityIdSchema,
          label: text(200).optional(),
          name: valueName,
          type: valueType,
          /** DMN output values: their order ranks rows for the priority and outputOrder hit policies. */
          allowedValues: z.array(z.union([z.string().max(1000), z.number(), z.boolean()])).min(1).max(1000).optional(),
          /** Used when no row matches (DMN's default output entry). */
          default: outputEntry.optional(),
        }),
      )
      .min(1)
      .max(50),
    rules: z
      .array(
        z.strictObject({
          id: entityIdSchema.optional(),
          description: text(1000).optional(),
          /** One cell of FEEL unary tests per input: "-" or empty for any value. */
          when: z.array(z.string().max(feelLimits.maxLength)),
          /** One entry per output. */
          then: z.array(outputEntry),
        }),
      )
      .max(10_000),
    ...ruleCommon,
  })
  .superRefine((table, ctx) => {
    table.rules.forEach((row, i) => {
      if (row.when.length !== table.inputs.length)
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'when'], message: `needs ${table.inputs.length} entries, one per input` });
      if (row.then.length !== table.outputs.length)
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'then'], message: `needs ${table.outputs.length} entries, one per output` });
    });
  });

const inlineEntry = z.strictObject({
  id: entityIdSchema,
  description: text(1000).optional(),
  /** Higher runs first; equal priorities keep list order. */
  priority: z.number().int().default(0),
  when: expression,
  /** `set` is a dotted path into the outputs (risk.flags.velocity). */
  then: z.array(z.strictObject({ set: z.string().min(1).max(200).refine((path) => path.split('.').every((part) => part && !reservedNames.has(part)), 'must be a dotted path of names'), value: outputEntry })).min(1),
});

const referenceEntry = z.strictObject({
  id: entityIdSchema,
  description: text(1000).optional(),
  priority: z.number().int().default(0),
  /** Another rule of the branch, run with the params and the outputs so far. */
  ruleId: entityIdSchema,
  /** Pinned to a published version; the latest published one when absent. */
  version: z.string().regex(versionLabelPattern, 'must be a version label such as v1').optional(),
});

const ruleSet = z.strictObject({
  strategy: z.enum(['firstMatch', 'allMatch']).default('allMatch'),
  rules: z.array(z.union([referenceEntry, inlineEntry])).min(1).max(10_000),
  ...ruleCommon,
});

const simpleRule = z.strictObject({
  when: expression,
  then: z.record(valueName, outputEntry),
  otherwise: z.record(valueName, outputEntry).optional(),
  ...ruleCommon,
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
