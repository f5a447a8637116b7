/**
 * Request bodies of the operations that run rules and workflows (zod/mini, as
 * in every API function): what they share, and the execute body. Params are
 * bounded here, so an oversize or too deeply nested request is refused before
 * any read. The test body is in ./test-schema.ts, so that the execute
 * function builds no schema it never parses.
 */
import * as z from 'zod/mini';
import { versionLabelPattern } from '../vocabulary/kinds.ts';
import { errors } from '../vocabulary/errors.ts';
import { boundedJsonObject } from '../vocabulary/json-bounds.ts';
import { strictBody } from '../http/queries.ts';

/** What one run may be given: small enough to record with its answer, shallow enough for any walk of it. */
export const paramsBounds = { maxBytes: 16 * 1024, maxDepth: 32 } as const;

/**
 * A batch (`paramsList`): how many inputs one call may give; how large they
 * may be together, as JSON, so that the request stays within what API Gateway
 * hands a Lambda function (an event of at most 6 MB, the body in it
 * base64-encoded, a third larger: 4 MiB of params make 5.3 MiB); and how
 * large the answer may grow, its JSON as it travels escaped inside the
 * function's result, below the 6 MB a function may answer.
 */
export const batchBounds = { maxInputs: 1_000, maxBytes: 4 * 1024 * 1024, maxAnswerBytes: 5 * 1024 * 1024 } as const;

export type Params = Record<string, unknown>;

const paramsDescription = "the rule's or workflow's inputs by name";

export const params = z.optional(boundedJsonObject(paramsBounds, `${paramsDescription}, for one run; {} when neither params nor paramsList is given`));

/** Counted before any input is read: a body of a million empty objects is refused at once, not after a million checks. */
const countedList = z.array(z.unknown(), { error: 'must be a list of params objects' }).check(
  z.superRefine((list, ctx) => {
    if (list.length < 1) ctx.addIssue({ code: 'custom', message: 'must hold at least one params object', input: list });
    else if (list.length > batchBounds.maxInputs)
      ctx.addIssue({ code: 'custom', message: `holds ${list.length} params objects, more than the ${batchBounds.maxInputs} allowed: split it`, input: list });
  }),
);

const boundedList = z.array(boundedJsonObject(paramsBounds, paramsDescription)).check(
  z.superRefine((list, ctx) => {
    const bytes = Buffer.byteLength(JSON.stringify(list));
    if (bytes > batchBounds.maxBytes)
      ctx.addIssue({ code: 'custom', message: `is ${bytes} bytes as JSON, more than the ${batchBounds.maxBytes} allowed: split it`, input: list });
  }),
);

export const paramsList = z.optional(
  z.pipe(countedList, boundedList).register(z.globalRegistry, {
    // The document shows the pipe's first stage, which only counts: what each input is, it is told here.
    items: { type: 'object', additionalProperties: {} },
    description: `a batch instead of params: 1 to ${batchBounds.maxInputs} JSON objects, each as params is (at most ${paramsBounds.maxBytes} bytes as JSON, nested at most ${paramsBounds.maxDepth} levels), at most ${batchBounds.maxBytes / 1024 / 1024} MiB as JSON together; answered in order in outputs`,
  }),
);

/** What a run body holds of its inputs: one input, or a batch, never both. */
interface RunInputs {
  params?: Params;
  paramsList?: Params[];
}

const oneOrBatch = (body: RunInputs, ctx: z.core.$RefinementCtx) => {
  if (body.params !== undefined && body.paramsList !== undefined)
    ctx.addIssue({ code: 'custom', path: ['paramsList'], message: 'give params (one input) or paramsList (a batch), not both', input: body });
};

/** The params of a call that runs one input, {} when absent; a workflow's, whose steps run one input at a time, refuse a batch (400 naming paramsList). */
export function singleParams(body: RunInputs, refusal: string): Params {
  if (body.paramsList) throw errors.invalidRequest([{ in: 'body', field: 'paramsList', message: refusal }]);
  return body.params ?? {};
}

export const version = (description: string) =>
  z
    .optional(z.string().check(z.regex(versionLabelPattern, { error: 'must be a published version label such as v1' })))
    .register(z.globalRegistry, { description });

/** A run body: `shape` with params or paramsList. */
export const runBody = <S extends z.core.$ZodLooseShape>(shape: S) =>
  strictBody({ params, paramsList, ...shape }).check(z.superRefine((body, ctx) => oneOrBatch(body as RunInputs, ctx)));

export const executeSchema = runBody({
  version: version('a published version (such as v1) to run instead of the latest'),
  async: z
    .optional(z.boolean())
    .register(z.globalRegistry, { description: 'workflows only: queue the run and answer 202 with a task to follow, for workflows that call slow providers' }),
});
export type ExecuteRequest = z.output<typeof executeSchema>;
