/**
 * What an import, a pulled file or an authoring request holds for a rule or
 * workflow: one set of schemas validates them all and types the domain. In
 * zod/mini, as every function's request schemas are, so that the authoring
 * and pull functions do not bundle the full zod (the records the API serves
 * are described in `./records.ts`); the pieces shared with workflows are in
 * `./schema-parts.ts`.
 */
import * as z from 'zod/mini';
import { aggregations, hitPolicies, valueTypes } from '../engine/definitions.ts';
import { feelLimits } from '../engine/feel/limits.ts';
import { noControlCharacters } from '../vocabulary/patterns.ts';
import { versionLabelPattern, workflowKind } from '../vocabulary/kinds.ts';
import { workflowDefinitionSchema } from './workflow-definition.ts';
import { entityId, exactNumber, feelText as expression, reservedNames, valueName } from '../vocabulary/schema-parts.ts';
import { unkeepableProblem, unstorableNumberProblem } from '../vocabulary/json-bounds.ts';
import { canonicalOutputEntry } from './output-entry.ts';
import { durationMs } from '../vocabulary/duration.ts';
import { executionRetentionDays } from '../store/model/executions.ts';

export * from '../vocabulary/kinds.ts';
export type { Audit, EntityDetail, EntityRecord, EntitySummary, VersionInfo } from '../vocabulary/records.ts';

/** Text meant for people: no control characters, which also keeps index sort keys unambiguous. */
const text = (max: number, min = 0) =>
  z.string().check(...(min ? [z.minLength(min)] : []), z.maxLength(max), z.regex(noControlCharacters, 'must not contain control characters'));

const valueType = z.enum(valueTypes);

/**
 * An output entry: a number, boolean or null as it is; a string is FEEL, so a
 * string literal is written in quotes ("gold"). FEEL text that is only a
 * number, `true`, `false` or `null` is kept as that value (`"0.5"` becomes
 * 0.5): the same answer, one way to write it. That is what makes a table read
 * back from a format that holds only text (CSV, DMN) the very one written.
 */
const outputEntry = z.pipe(
  z.union([z.string().check(z.maxLength(feelLimits.maxLength)), exactNumber, z.boolean(), z.null()]),
  z.transform(canonicalOutputEntry),
);

/** The rule's inputs (its params), with types: checked and converted on the way in; FEEL may then name only these. */
const parameters = z.optional(
  z.array(z.strictObject({ name: valueName.check(z.refine((n) => !n.includes('.'), 'must not contain "."')), type: valueType })).check(z.maxLength(100)),
);

/** Named cases: publishing runs them all and refuses when one fails. */
const testCases = z.optional(
  z.array(z.strictObject({ name: text(200, 1), params: z.record(z.string(), z.unknown()), expected: z.unknown() })).check(z.maxLength(100)),
);

const settings = z.optional(
  z.strictObject({
    /** Record API executions of this rule (scheduled runs are always recorded). */
    recordExecutions: z.optional(z.boolean()),
    /** IANA time zone of the rule's schedule. */
    timezone: z.optional(z.string().check(z.maxLength(64))),
    /** Publish replays the draft against the latest published version over the window's recorded executions first (lib/replay/gate.ts). */
    replayGate: z.optional(
      z.strictObject({
        /** The share of inputs whose outcome may change: above it, the publish is refused. */
        maxChangedRatio: z.number().check(z.minimum(0, 'must be from 0 to 1'), z.maximum(1, 'must be from 0 to 1')),
        /** How far back recorded executions are replayed: an ISO 8601 duration such as "P7D", at most the executions' retention. */
        window: z.string().check(
          z.refine((text) => {
            const ms = durationMs(text);
            return ms !== undefined && ms > 0 && ms <= executionRetentionDays * 24 * 3600_000;
          }, `must be an ISO 8601 duration of weeks, days, hours, minutes or seconds (such as "P7D" or "PT12H"), more than none and at most ${executionRetentionDays} days, the time executions are kept`),
        ),
      }),
    ),
  }),
);

const ruleCommon = { parameters, tests: testCases, settings };

const decisionTable = z
  .strictObject({
    hitPolicy: z._default(z.enum(hitPolicies), 'first'),
    aggregation: z.optional(z.enum(aggregations)),
    inputs: z.array(z.strictObject({ id: entityId, label: z.optional(text(200)), expression, type: valueType })).check(z.minLength(1), z.maxLength(50)),
    outputs: z
      .array(
        z.strictObject({
          id: entityId,
          label: z.optional(text(200)),
          name: valueName,
          type: valueType,
          /** DMN output values: their order ranks rows for the priority and outputOrder hit policies. */
          allowedValues: z.optional(z.array(z.union([z.string().check(z.maxLength(1000)), exactNumber, z.boolean()])).check(z.minLength(1), z.maxLength(1000))),
          /** Used when no row matches (DMN's default output entry). */
          default: z.optional(outputEntry),
        }),
      )
      .check(z.minLength(1), z.maxLength(50)),
    rules: z
      .array(
        z.strictObject({
          id: z.optional(entityId),
          description: z.optional(text(1000)),
          /** One cell of FEEL unary tests per input: "-" or empty for any value. */
          when: z.array(z.string().check(z.maxLength(feelLimits.maxLength))),
          /** One entry per output. */
          then: z.array(outputEntry),
        }),
      )
      .check(z.maxLength(10_000)),
    ...ruleCommon,
  })
  .check(
    z.superRefine((table, ctx) => {
      table.rules.forEach((row, i) => {
        if (row.when.length !== table.inputs.length)
          ctx.addIssue({ code: 'custom', path: ['rules', i, 'when'], message: `needs ${table.inputs.length} entries, one per input`, input: row.when });
        if (row.then.length !== table.outputs.length)
          ctx.addIssue({ code: 'custom', path: ['rules', i, 'then'], message: `needs ${table.outputs.length} entries, one per output`, input: row.then });
      });
    }),
  );

const priority = z._default(z.int(), 0);

const inlineEntry = z.strictObject({
  id: entityId,
  description: z.optional(text(1000)),
  /** Higher runs first; equal priorities keep list order. */
  priority,
  when: expression,
  /** `set` is a dotted path into the outputs (risk.flags.velocity). */
  then: z
    .array(
      z.strictObject({
        set: z.string().check(
          z.minLength(1),
          z.maxLength(200),
          z.refine((path) => path.split('.').every((part) => part && !reservedNames.has(part)), 'must be a dotted path of names'),
        ),
        value: outputEntry,
      }),
    )
    .check(z.minLength(1)),
});

const referenceEntry = z.strictObject({
  id: entityId,
  description: z.optional(text(1000)),
  priority,
  /** Another rule of the branch, run with the params and the outputs so far. */
  ruleId: entityId,
  /** Pinned to a published version; the latest published one when absent. */
  version: z.optional(z.string().check(z.regex(versionLabelPattern, 'must be a version label such as v1'))),
});

const ruleSet = z.strictObject({
  strategy: z._default(z.enum(['firstMatch', 'allMatch']), 'allMatch'),
  rules: z.array(z.union([referenceEntry, inlineEntry])).check(z.minLength(1), z.maxLength(10_000)),
  ...ruleCommon,
});

const simpleRule = z.strictObject({
  when: expression,
  then: z.record(valueName, outputEntry),
  otherwise: z.optional(z.record(valueName, outputEntry)),
  ...ruleCommon,
});

/** Ids the API's paths take for operations (POST /dev/v1/rule/import): no rule or workflow may have one. */
export const reservedEntityIds: ReadonlySet<string> = new Set(['import']);

const common = {
  id: entityId.check(z.refine((id) => !reservedEntityIds.has(id), 'is reserved for an operation of the API (/dev/v1/rule/import): choose another id')),
  name: text(200, 1).check(z.refine((n) => n.trim() === n, 'must not start or end with whitespace')),
  description: z._default(text(2000), ''),
  tags: z._default(z.array(text(64, 1)).check(z.maxLength(50)), []),
};

/**
 * What a save, an import or a pulled file holds. Server-managed fields
 * (status, version, checksum, timestamps) may be present, as in a record the
 * API served, and are ignored. The definition is stored as a DynamoDB map: a
 * key or a number a map cannot keep is refused here, not left to fail the
 * write or be dropped (the key "__proto__" is checked before the record is
 * parsed, as parsing drops it).
 */
export const entityInputSchema = z.pipe(
  z.unknown().check(
    z.superRefine((raw, ctx) => {
      const problem = unkeepableProblem(raw);
      if (problem) ctx.addIssue({ code: 'custom', message: problem.message, input: raw, path: problem.path });
    }),
  ),
  z
    .discriminatedUnion('type', [
      z.object({ ...common, type: z.literal('decisionTable'), definition: decisionTable }),
      z.object({ ...common, type: z.literal('ruleSet'), definition: ruleSet }),
      z.object({ ...common, type: z.literal('simpleRule'), definition: simpleRule }),
      z.object({ ...common, type: z.literal(workflowKind), definition: workflowDefinitionSchema }),
    ])
    .check(
      z.superRefine((record, ctx) => {
        const problem = unstorableNumberProblem(record.definition);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, input: record.definition, path: ['definition'] });
      }),
    ),
);
export type EntityInput = z.infer<typeof entityInputSchema>;

/** The definition schema of each kind, to check a definition on its own (its problems found even when the record around it has others). */
export const definitionSchemas: Record<EntityInput['type'], z.ZodMiniType> = { decisionTable, ruleSet, simpleRule, [workflowKind]: workflowDefinitionSchema };
