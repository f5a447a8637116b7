/**
 * The replay's request body (zod/mini, as in every API function), its
 * bounds (./bounds.ts) checked before any read; the window's, which need the
 * time, as the replay starts (./start.ts).
 */
import * as z from 'zod/mini';
import { versionLabelPattern } from '../vocabulary/kinds.ts';
import { boundedJsonObject } from '../vocabulary/json-bounds.ts';
import { instant, strictBody } from '../http/queries.ts';
import { paramsBounds } from '../rules/schema.ts';
import { executionRetentionDays } from '../store/model/executions.ts';
import { replayBounds } from './bounds.ts';

const candidatePattern = /^draft$|^v[1-9][0-9]{0,8}$/;

const executionsSource = strictBody({
  from: z.optional(instant()).register(z.globalRegistry, {
    description: `the oldest executions replayed start at or after this; at most ${executionRetentionDays} days ago, its default`,
  }),
  to: z.optional(instant()).register(z.globalRegistry, { description: 'the newest replayed start before this; now, its default and its latest' }),
  limit: z
    .optional(
      z
        .number({ error: `must be a whole number from 1 to ${replayBounds.maxLimit}` })
        .check(
          z.int({ error: `must be a whole number from 1 to ${replayBounds.maxLimit}` }),
          z.minimum(1, 'must be at least 1'),
          z.maximum(replayBounds.maxLimit, `must be at most ${replayBounds.maxLimit}`),
        ),
    )
    .register(z.globalRegistry, { description: `how many of the window's executions, the newest: ${replayBounds.defaultLimit} when absent` }),
});

const paramsList = z.array(boundedJsonObject(paramsBounds, 'params, as an execute takes them')).check(
  z.minLength(1, 'must hold at least one input'),
  z.maxLength(replayBounds.maxParamsList, `must hold at most ${replayBounds.maxParamsList} inputs`),
  z.superRefine((list, ctx) => {
    const bytes = Buffer.byteLength(JSON.stringify(list));
    if (bytes > replayBounds.maxParamsListBytes)
      ctx.addIssue({ code: 'custom', message: `is ${bytes} bytes as JSON, more than the ${replayBounds.maxParamsListBytes} allowed`, input: list });
  }),
);

const source = strictBody({
  executions: z.optional(executionsSource),
  paramsList: z.optional(paramsList),
})
  .check(
    z.refine((value) => (value.executions === undefined) !== (value.paramsList === undefined), {
      error: 'must hold one of executions and paramsList, not both',
    }),
  )
  .register(z.globalRegistry, {
    description: `the inputs: {executions: {from, to, limit}}, the rule's recorded executions, or {paramsList: [...]}, up to ${replayBounds.maxParamsList} params objects (${replayBounds.maxParamsListBytes / 1024} KB of JSON in all, each as an execute's)`,
  });

export const replaySchema = strictBody({
  candidate: z
    .string()
    .check(z.regex(candidatePattern, 'must be "draft" or a published version label such as v2'))
    .register(z.globalRegistry, { description: 'what the change would run: "draft", or a published version such as v3' }),
  baseline: z
    .optional(z.string().check(z.regex(versionLabelPattern, 'must be a published version label such as v1')))
    .register(z.globalRegistry, { description: 'what runs now: a published version; the latest when absent' }),
  source,
});
export type ReplayRequest = z.output<typeof replaySchema>;
