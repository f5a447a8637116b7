/**
 * How a candidate's answer is held against the served version's on the same
 * execution, as the engine compares two outcomes (lib/engine/outcome.ts, the
 * comparison a replay counts too): they agree on the same answer, disagree on
 * another output or another failure code, or one of them failed. Pure, so
 * that the property that checks it needs no store.
 */
import { compareOutcomes, type Comparison, type Outcome } from '../engine/index.ts';
import { maxRecordedOutputBytes } from './executions.ts';
import type { VersionOutcome } from '../store/types.ts';

/** How the two versions compared on one execution. */
export const agreements = ['agree', 'disagree', 'candidateFailed', 'baselineFailed'] as const;
export type Agreement = (typeof agreements)[number];

/** How a rollout counts the engine's comparison (lib/engine/outcome.ts): the same answer (the same output, or failures with the same code) agrees. */
const agreementByComparison: Record<Comparison, Agreement> = {
  same: 'agree',
  bothFailing: 'agree',
  changed: 'disagree',
  newlyFailing: 'candidateFailed',
  newlySucceeding: 'baselineFailed',
};

export const agreementOf = (baseline: Outcome, candidate: Outcome): Agreement => agreementByComparison[compareOutcomes(baseline, candidate)];

/** A version's result as a sample keeps it: an output larger than an execution keeps is left out, as it is there. */
export function keptOutcome(version: string, result: Outcome): VersionOutcome {
  if ('error' in result) return { version, error: { code: result.error.code, message: result.error.message } };
  const small = Buffer.byteLength(JSON.stringify(result.output) ?? '') <= maxRecordedOutputBytes;
  return small ? { version, output: result.output } : { version, outputOmitted: true };
}
