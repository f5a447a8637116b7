/**
 * Request bodies of the operations that run rules and workflows (zod/mini, as
 * in every API function): what they share, and the execute body. Params are
 * bounded here, so an oversize or too deeply nested request is refused before
 * any read. The test body is in ./test-schema.ts, so that the execute
 * function builds no schema it never parses.
 */
import * as z from 'zod/mini';
import { versionLabelPattern } from '../entities/kinds.ts';
import { boundedJsonObject } from '../http/json-bounds.ts';
import { strictBody } from '../http/queries.ts';

/** What one run may be given: small enough to record with its answer, shallow enough for any walk of it. */
export const paramsBounds = { maxBytes: 16 * 1024, maxDepth: 32 } as const;

export const params = z._default(boundedJsonObject(paramsBounds, "the rule's or workflow's inputs by name; {} when absent"), {});

export const version = (description: string) =>
  z
    .optional(z.string().check(z.regex(versionLabelPattern, { error: 'must be a published version label such as v1' })))
    .register(z.globalRegistry, { description });

export const executeSchema = strictBody({
  params,
  version: version('a published version (such as v1) to run instead of the latest'),
  async: z
    .optional(z.boolean())
    .register(z.globalRegistry, { description: 'workflows only: queue the run and answer 202 with a task to follow, for workflows that call slow providers' }),
});
export type ExecuteRequest = z.output<typeof executeSchema>;
