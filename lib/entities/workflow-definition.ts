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
import { versionLabelPattern } from '../vocabulary/kinds.ts';
import { entityId, feelText, valueName } from '../vocabulary/schema-parts.ts';
import { httpUrlPattern } from '../vocabulary/patterns.ts';
import { graphProblems } from './workflow-graph.ts';
import { workflowLimits } from './workflow-limits.ts';

const stepId = entityId;
const entityRef = entityId;

/** FEEL text over the workflow context. */
const feel = feelText;
/** Names to FEEL: rule params, query parameters, headers, transformed values, the workflow's output. */
const feelMap = z
  .record(valueName, feel)
  .check(z.refine((map) => Object.keys(map).length <= workflowLimits.mapEntries, `at most ${workflowLimits.mapEntries} entries`));

const ruleStep = z.strictObject({
  id: stepId,
  kind: z.literal('rule'),
  ruleId: entityRef,
  /** A published version; the latest published one when absent. */
  version: z.optional(z.string().check(z.regex(versionLabelPattern, 'must be a version label such as v1'))),
  /** The rule's params, each a FEEL expression over the context; without it, the rule is given the whole context (the inputs and earlier steps' results by name). */
  inputs: z.optional(feelMap),
  next: stepId,
});

/** HTTP statuses an author may take into the context instead of failing the step (401 and 403 always fail: the credential is at fault). */
const acceptedStatus = z.int().check(
  z.minimum(300),
  z.maximum(599),
  z.refine((status) => status !== 401 && status !== 403, '401 and 403 always fail the step: the key is wrong, revoked or lacks the permission'),
);

/** What is sent: where to (an integration and a path under its base URL, or a full URL), and the parts built by FEEL from the context. */
const apiRequest = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    /** An integration of the workspace (base URL, headers and credential kept with it) and a path under it… */
    integrationId: z.optional(entityRef),
    path: z.optional(
      z
        .string()
        .check(z.maxLength(workflowLimits.pathLength), z.regex(/^\/[^\s\x00-\x1f\x7f]*$/, 'must start with "/" and hold no spaces or control characters')),
    ),
    /** …or a full URL, with the step's own credential when it needs one. */
    url: z.optional(
      z.string().check(z.maxLength(workflowLimits.urlLength), z.regex(httpUrlPattern, 'must be an http:// or https:// URL without user name or password')),
    ),
    query: z._default(feelMap, {}),
    headers: z._default(feelMap, {}),
    /** FEEL whose value is sent as JSON (a context literal `{amount: order.total}`, usually). */
    body: z.optional(feel),
  })
  .check(
    z.superRefine((request, ctx) => {
      const viaIntegration = request.integrationId !== undefined || request.path !== undefined;
      if (viaIntegration && request.url !== undefined)
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'give either integrationId and path, or url, not both', input: request.url });
      else if (!viaIntegration && request.url === undefined)
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'give either integrationId and path, or url', input: request });
      else if (viaIntegration && (request.integrationId === undefined || request.path === undefined))
        ctx.addIssue({
          code: 'custom',
          path: [request.integrationId === undefined ? 'integrationId' : 'path'],
          message: 'integrationId and path go together',
          input: request,
        });
    }),
  );

const apiRequestStep = z
  .strictObject({
    id: stepId,
    kind: z.literal('apiRequest'),
    request: apiRequest,
    /** The credential sent with a `url` request; an integration brings its own. */
    credentialId: z.optional(entityRef),
    /** One try's bound. */
    timeoutMs: z._default(z.int().check(z.minimum(1), z.maximum(workflowLimits.maxRequestTimeoutMs)), workflowLimits.defaultRequestTimeoutMs),
    /** Further tries: for GET, PUT and DELETE after no answer or a 429/5xx answer; for any method after a 429 or 503 with Retry-After. */
    retries: z._default(z.int().check(z.minimum(0), z.maximum(workflowLimits.maxRetries)), workflowLimits.defaultRetries),
    /** Statuses that join the context like a 2xx, for a branch to read; any other status fails the step. */
    acceptStatuses: z._default(z.array(acceptedStatus).check(z.maxLength(workflowLimits.acceptStatuses)), []),
    next: stepId,
  })
  .check(
    z.superRefine((step, ctx) => {
      if (step.request.integrationId !== undefined && step.credentialId !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['credentialId'],
          message: 'an integration brings its own credential; credentialId goes with request.url only',
          input: step.credentialId,
        });
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

/** A workflow definition's shape, its graph unchecked: what `./validate.ts` checks whole, reporting the graph's problems with the FEEL's. */
export const workflowShapeSchema = z.strictObject({
  /** What a run is given, typed as a rule's params are: checked and converted on the way in. */
  inputs: z._default(z.array(z.strictObject({ name: valueName, type: z.enum(valueTypes) })).check(z.maxLength(workflowLimits.inputs)), []),
  start: stepId,
  steps: z.array(step).check(z.minLength(1), z.maxLength(workflowLimits.steps)),
  settings: z.optional(
    z.strictObject({
      /** Record API runs of this workflow, as a rule's settings.recordExecutions does. */
      recordExecutions: z.optional(z.boolean()),
    }),
  ),
  /** The whole run's deadline (a synchronous run's is at most `workflowLimits.maxSyncTimeoutMs`). */
  timeoutMs: z._default(z.int().check(z.minimum(1), z.maximum(workflowLimits.maxTimeoutMs)), workflowLimits.defaultTimeoutMs),
});

export type WorkflowDefinition = z.output<typeof workflowShapeSchema>;
/** What an author writes: defaults may be left out. */
export type WorkflowDefinitionInput = z.input<typeof workflowShapeSchema>;

/**
 * A workflow definition that runs: its shape, and a graph that holds
 * together (`./graph.ts`), so that no broken graph is stored, however it
 * comes (a save, an import, a pull). Its FEEL is checked on save by
 * `./validate.ts`.
 *
 * @example
 * workflowDefinitionSchema.parse({ inputs: [{ name: 'order', type: 'context' }], start: 'done', steps: [{ id: 'done', kind: 'end', output: { total: 'order.total' } }] })
 */
export const workflowDefinitionSchema = workflowShapeSchema.check(
  z.superRefine((definition, ctx) => {
    for (const { path, message } of graphProblems(definition)) ctx.addIssue({ code: 'custom', path, message, input: definition });
  }),
);
export type WorkflowStep = WorkflowDefinition['steps'][number];
export type StepKind = WorkflowStep['kind'];
export type StepOf<K extends StepKind> = Extract<WorkflowStep, { kind: K }>;
