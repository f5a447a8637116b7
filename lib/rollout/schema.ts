/**
 * Request bodies of the rollout operations (zod/mini, as in every API
 * function). What one field cannot say alone (a canary needs a percent, a
 * shadow takes none) is checked by ./service.ts before anything is read.
 */
import * as z from 'zod/mini';
import { versionLabelPattern } from '../vocabulary/kinds.ts';
import { controlCharacters } from '../vocabulary/patterns.ts';
import { strictBody } from '../http/queries.ts';
import { rolloutModes } from '../store/types.ts';

export const rolloutBounds = { minPercent: 1, maxPercent: 50, maxStickyNames: 8, maxStickyNameLength: 64 } as const;

const stickyName = `[^.${controlCharacters}]{1,${rolloutBounds.maxStickyNameLength}}`;
/** A path into the params: names joined by ".", each without control characters. */
export const stickyPathPattern = new RegExp(`^${stickyName}(\\.${stickyName}){0,${rolloutBounds.maxStickyNames - 1}}$`);

const candidate = (description: string) =>
  z
    .string()
    .check(z.regex(versionLabelPattern, { error: 'must be a version label such as v3' }))
    .register(z.globalRegistry, { description });

export const rolloutBodySchema = strictBody({
  candidate: candidate('the rule\'s candidate version (published with {"candidate": true}), such as v3'),
  mode: z.enum(rolloutModes, { error: `must be one of ${rolloutModes.join(', ')}` }).register(z.globalRegistry, {
    description:
      'shadow: every execution also runs the candidate after its answer, to compare, and the served version answers; canary: the candidate answers `percent` of executions, and the other version runs beside each to compare',
  }),
  percent: z
    .optional(
      z
        .number({ error: `must be a whole number from ${rolloutBounds.minPercent} to ${rolloutBounds.maxPercent}` })
        .check(
          z.int({ error: `must be a whole number from ${rolloutBounds.minPercent} to ${rolloutBounds.maxPercent}` }),
          z.minimum(rolloutBounds.minPercent, `must be at least ${rolloutBounds.minPercent}`),
          z.maximum(rolloutBounds.maxPercent, `must be at most ${rolloutBounds.maxPercent}`),
        ),
    )
    .register(z.globalRegistry, { description: `canary only, and required there: the share of executions the candidate answers, in percent` }),
  stickyBy: z
    .optional(
      z.string().check(
        z.regex(stickyPathPattern, {
          error: `must be a path into the params: names joined by "." (at most ${rolloutBounds.maxStickyNames}, each of 1 to ${rolloutBounds.maxStickyNameLength} characters, no control characters)`,
        }),
      ),
    )
    .register(z.globalRegistry, {
      description:
        'canary only: the param (such as customer.id) whose value picks the version, so that the same value always gets the same one; without it, or for params without that value, each execution is picked at random',
    }),
});
export type RolloutBody = z.output<typeof rolloutBodySchema>;

export const promoteBodySchema = strictBody({
  candidate: candidate('the candidate you mean to promote: refused (409) when it is no longer the candidate, answered as done when it is already served'),
});
export type PromoteBody = z.output<typeof promoteBodySchema>;
