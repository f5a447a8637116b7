/**
 * What a workflow that runs is made of (issue 10): typed inputs, and steps
 * joined by `next` from `start`, as the stored workflow shape already is.
 * Every value a step needs is FEEL text over the workflow context (the inputs,
 * and each step's result under the step's id), so one language reads
 * everywhere and `./validate.ts` can check each name a step reads. The schema
 * is zod/mini, strict, with every bound stated, like `lib/entities/schema.ts`;
 * it checks shape only, and the graph and the FEEL are `./validate.ts`'s job.
 */
import * as z from 'zod/mini';
import { valueTypes } from '../engine/definitions.ts';
import { versionLabelPattern } from '../entities/kinds.ts';
import { entityId, feelText, valueName } from '../entities/schema-parts.ts';
import { httpUrlPattern } from '../http/patterns.ts';

/** Every bound of a definition, in one place, so that the runner and documentation can quote them. */
export const workflowLimits = {
  steps: 500,
  inputs: 100,
  /** Entries of one name → FEEL map (rule inputs, query, headers, set, output). */
  mapEntries: 100,
  cases: 50,
  pathLength: 2000,
  urlLength: 2000,
  /** One API call, per try. */
  maxRequestTimeoutMs: 30_000,
  defaultRequestTimeoutMs: 10_000,
  maxRetries: 3,
  /** The whole run (a Lambda function lives 15 minutes at most). */
  maxTimeoutMs: 900_000,
  defaultTimeoutMs: 60_000,
} as const;

const stepId = entityId;
const entityRef = entityId;

/** FEEL text over the workflow context. */
const feel = feelText;
/** Names to FEEL: rule params, query parameters, headers, transformed values, the workflow's output. */
const feelMap = z.record(valueName, feel).check(z.refine((map) => Object.keys(map).length <= workflowLimits.mapEntries, `at most ${workflowLimits.mapEntries} entries`));

const ruleStep = z.strictObject({
  id: stepId,
  kind: z.literal('rule'),
  ruleId: entityRef,
  /** A published version; the latest published one when absent. */
  version: z.optional(z.string().check(z.regex(versionLabelPattern, 'must be a version label such as v1'))),
  /** The rule's params, each a FEEL expression over the context. */
  inputs: z._default(feelMap, {}),
  next: stepId,
});

const apiRequestStep = z
  .strictObject({
    id: stepId,
    kind: z.literal('apiRequest'),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    /** An integration of the workspace (base URL and credential kept with it) and a path under it… */
    integrationId: z.optional(entityRef),
    path: z.optional(z.string().check(z.maxLength(workflowLimits.pathLength), z.regex(/^\/[^\s\x00-\x1f\x7f]*$/, 'must start with "/" and hold no spaces or control characters'))),
    /** …or a full URL, with its own credential when it needs one. */
    url: z.optional(z.string().check(z.maxLength(workflowLimits.urlLength), z.regex(httpUrlPattern, 'must be an http:// or https:// URL without user name or password'))),
    credentialId: z.optional(entityRef),
    query: z._default(feelMap, {}),
    headers: z._default(feelMap, {}),
    /** FEEL whose value is sent as JSON (a context literal `{amount: order.total}`, usually). */
    body: z.optional(feel),
    timeoutMs: z._default(z.int().check(z.minimum(1), z.maximum(workflowLimits.maxRequestTimeoutMs)), workflowLimits.defaultRequestTimeoutMs),
    /** Further tries after a failed call or a 429/5xx answer. */
    retries: z._default(z.int().check(z.minimum(0), z.maximum(workflowLimits.maxRetries)), 0),
    next: stepId,
  })
  .check(
    z.superRefine((step, ctx) => {
      const viaIntegration = step.integrationId !== undefined || step.path !== undefined;
      if (viaIntegration && step.url !== undefined)
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'give either integrationId and path, or url, not both', input: step.url });
      else if (!viaIntegration && step.url === undefined)
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'give either integrationId and path, or url', input: step });
      else if (viaIntegration && (step.integrationId === undefined || step.path === undefined))
        ctx.addIssue({ code: 'custom', path: [step.integrationId === undefined ? 'integrationId' : 'path'], message: 'integrationId and path go together', input: step });
      if (viaIntegration && step.credentialId !== undefined)
        ctx.addIssue({ code: 'custom', path: ['credentialId'], message: "an integration brings its own credential; credentialId goes with url only", input: step.credentialId });
    }),
  );

const branchStep = z.strictObject({
  id: stepId,
  kind: z.literal('branch'),
  /** Tried in order; the first whose `when` is true is taken. */
  cases: z.array(z.strictObject({ when: feel, next: stepId })).check(z.minLength(1), z.maxLength(workflowLimits.cases)),
  /** Taken when no case holds; without it, the run fails there. */
  otherwise: z.optional(stepId),
});

const transformStep = z.strictObject({ id: stepId, kind: z.literal('transform'), set: feelMap, next: stepId });

const endStep = z.strictObject({ id: stepId, kind: z.literal('end'), output: z._default(feelMap, {}) });

const step = z.discriminatedUnion('kind', [ruleStep, apiRequestStep, branchStep, transformStep, endStep]);

/**
 * A workflow definition that runs.
 *
 * @example
 * workflowDefinitionSchema.parse({ inputs: [{ name: 'order', type: 'context' }], start: 'done', steps: [{ id: 'done', kind: 'end', output: { total: 'order.total' } }] })
 */
export const workflowDefinitionSchema = z.strictObject({
  /** What a run is given, typed as a rule's params are: checked and converted on the way in. */
  inputs: z._default(z.array(z.strictObject({ name: valueName, type: z.enum(valueTypes) })).check(z.maxLength(workflowLimits.inputs)), []),
  start: stepId,
  steps: z.array(step).check(z.minLength(1), z.maxLength(workflowLimits.steps)),
  /** The whole run's deadline. */
  timeoutMs: z._default(z.int().check(z.minimum(1), z.maximum(workflowLimits.maxTimeoutMs)), workflowLimits.defaultTimeoutMs),
});

export type WorkflowDefinition = z.output<typeof workflowDefinitionSchema>;
/** What an author writes: defaults may be left out. */
export type WorkflowDefinitionInput = z.input<typeof workflowDefinitionSchema>;
export type WorkflowStep = WorkflowDefinition['steps'][number];
export type StepKind = WorkflowStep['kind'];
export type StepOf<K extends StepKind> = Extract<WorkflowStep, { kind: K }>;

/** The steps a step may go to next, each with the path of the field that names it. */
export function successors(step: WorkflowStep): { next: string; field: string }[] {
  switch (step.kind) {
    case 'branch':
      return [...step.cases.map((c, j) => ({ next: c.next, field: `cases[${j}].next` })), ...(step.otherwise === undefined ? [] : [{ next: step.otherwise, field: 'otherwise' }])];
    case 'end':
      return [];
    default:
      return [{ next: step.next, field: 'next' }];
  }
}

/** Whether a step's result joins the context under its id (branches and ends add nothing). */
export const producesValue = (step: WorkflowStep): boolean => step.kind !== 'branch' && step.kind !== 'end';

/** The path of a named entry under `base`, as problems and the prepared form name it: `steps[0].inputs.amount`, `steps[0].headers["X-Id"]`. */
export const fieldPath = (base: string, name: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`);

const mapExpressions = (base: string, map: Record<string, string>) => Object.entries(map).map(([name, text]) => ({ path: fieldPath(base, name), text }));

/** Every FEEL text of a step, with its path: the one list that validation parses and the runner compiles. */
export function stepExpressions(step: WorkflowStep, base: string): { path: string; text: string }[] {
  switch (step.kind) {
    case 'rule':
      return mapExpressions(`${base}.inputs`, step.inputs);
    case 'apiRequest':
      return [...mapExpressions(`${base}.query`, step.query), ...mapExpressions(`${base}.headers`, step.headers), ...(step.body === undefined ? [] : [{ path: `${base}.body`, text: step.body }])];
    case 'branch':
      return step.cases.map((c, j) => ({ path: `${base}.cases[${j}].when`, text: c.when }));
    case 'transform':
      return mapExpressions(`${base}.set`, step.set);
    case 'end':
      return mapExpressions(`${base}.output`, step.output);
  }
}
