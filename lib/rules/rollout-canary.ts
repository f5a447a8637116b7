/**
 * An execution's part in its rule's rollout, decided before the rule runs:
 * which version answers it, and which runs beside it once the answer is
 * ready. Under a canary, the candidate answers `percent` of executions,
 * picked by a stable hash of the `stickyBy` value in the params, so that one
 * customer always gets the same version (and a larger percent keeps those a
 * smaller one chose); params without that value are picked by the
 * execution's id, at random. Only executions that name no version take part:
 * a caller who names one gets it.
 */
import { createHash } from 'node:crypto';
import { isNum, numberText } from '../decimal/decimal.ts';
import type { EntityHead } from './load.ts';
import { isRunning, type EntityRef, type Rollout, type RolloutArm } from '../store/types.ts';

/** How many buckets the hash falls in: a percent is that many of them. */
export const canaryBuckets = 100;

/**
 * The bucket (0 to 99) of a sticky value under a rule's candidate: the first
 * four bytes of the SHA-256 of rule id, candidate and value, modulo 100 (the
 * modulo's bias is below 10⁻⁷). The candidate is part of it, so that each
 * candidate's canary falls on other customers.
 */
export function canaryBucket(ruleId: string, candidate: string, value: string): number {
  return createHash('sha256').update(`${ruleId}\u0000${candidate}\u0000${value}`).digest().readUInt32BE(0) % canaryBuckets;
}

/** The value at `path` (names joined by ".") in the params, as text: a string as it is, a number or boolean as JSON writes it; undefined for anything else or nothing. */
export function stickyValue(params: unknown, path: string): string | undefined {
  let value = params;
  for (const name of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  if (typeof value === 'string') return value;
  if (isNum(value)) return numberText(value);
  return typeof value === 'boolean' ? String(value) : undefined;
}

/** An execution's part in a running rollout. */
export interface RolloutTurn {
  rollout: Rollout;
  /** The served version: what the candidate is compared with. */
  baseline: string;
  servedBy: RolloutArm;
  /** False for a canary execution whose params had no stickyBy value (picked by its id instead). */
  sticky: boolean;
}

/** The version label a turn runs for the caller: the candidate on its canary share, else undefined (the served version). */
export const servedLabel = (turn: RolloutTurn | undefined) => (turn?.servedBy === 'candidate' ? turn.rollout.candidate : undefined);

/** The version run beside the answer, to compare with it. */
export const otherLabel = (turn: RolloutTurn) => (turn.servedBy === 'candidate' ? turn.baseline : turn.rollout.candidate);

/** The execution's part in the rule's running rollout; undefined when it has none, or the request names a version. */
export function rolloutTurn(
  ref: EntityRef,
  head: EntityHead | undefined,
  request: { params?: unknown; version?: string },
  executionId: string,
): RolloutTurn | undefined {
  const rollout = head?.rollout;
  if (request.version !== undefined || !isRunning(rollout) || !head?.version) return undefined;
  const turn: RolloutTurn = { rollout, baseline: head.version, servedBy: 'baseline', sticky: true };
  if (rollout.mode !== 'canary') return turn;
  const value = rollout.stickyBy === undefined ? undefined : stickyValue(request.params, rollout.stickyBy);
  const bucket = canaryBucket(ref.id, rollout.candidate, value ?? executionId);
  return { ...turn, servedBy: bucket < (rollout.percent ?? 0) ? 'candidate' : 'baseline', sticky: rollout.stickyBy === undefined || value !== undefined };
}
