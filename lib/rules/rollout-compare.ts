/**
 * How a candidate's answer is held against the served version's on the same
 * execution: the same output (numbers by value, object keys in any order),
 * the same failure, or which of them failed. Pure, so that the property that
 * checks it needs no store.
 */
import { isNum, numberText } from '../decimal/decimal.ts';
import { maxRecordedOutputBytes } from './executions.ts';
import type { VersionOutcome } from '../store/types.ts';

/** What one version gave on an execution: its output, or why it gave none (an engine error's code, or the loading's). */
export type Result = { output: unknown } | { error: { code: string; message: string } };

/** How the two versions compared on one execution. */
export const agreements = ['agree', 'disagree', 'candidateFailed', 'baselineFailed'] as const;
export type Agreement = (typeof agreements)[number];

/** An output as text that two outputs share exactly when they are the same answer: object keys sorted, each number in its one form. */
export function canonicalOutput(value: unknown): string {
  if (isNum(value)) return numberText(value);
  if (Array.isArray(value)) return `[${value.map(canonicalOutput).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // FEEL's dates, times, durations and ranges answer as the text JSON gives them.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalOutput((value as { toJSON(): unknown }).toJSON());
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalOutput(item)}`).join(',')}}`;
}

export const sameOutput = (a: unknown, b: unknown) => canonicalOutput(a) === canonicalOutput(b);

/** Agreement: the same output, or the same failure; otherwise a disagreement, unless only one of them failed. */
export function agreementOf(baseline: Result, candidate: Result): Agreement {
  if ('error' in candidate) return 'error' in baseline ? (baseline.error.code === candidate.error.code ? 'agree' : 'disagree') : 'candidateFailed';
  if ('error' in baseline) return 'baselineFailed';
  return sameOutput(baseline.output, candidate.output) ? 'agree' : 'disagree';
}

/** A version's result as a sample keeps it: an output larger than an execution keeps is left out, as it is there. */
export function keptOutcome(version: string, result: Result): VersionOutcome {
  if ('error' in result) return { version, error: { code: result.error.code, message: result.error.message } };
  const small = Buffer.byteLength(JSON.stringify(result.output) ?? '') <= maxRecordedOutputBytes;
  return small ? { version, output: result.output } : { version, outputOmitted: true };
}
