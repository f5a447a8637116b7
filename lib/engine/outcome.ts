/**
 * What one evaluation of a rule gave, and whether two evaluations gave the
 * same answer: one type and one comparison for every place that holds an
 * answer (execute, a scheduled run, coverage counting) or two side by side
 * (a rollout's shadow and canary, a replay), so that a shadow's agreement
 * and a replay's counts can never contradict each other on the same inputs.
 *
 * The same answer: the same output, numbers by value (`1.50` is `1.5`), FEEL
 * dates, times, durations and ranges by the text JSON gives them, object keys
 * in any order, lists in order; or two failures with the same code. Two
 * failures with different codes (`no_match` then `invalid_input`) are a
 * changed answer: a caller that branches on the code sees a difference.
 */
import { isNum, numbersEqual } from '../decimal/decimal.ts';
import { evaluateRule, type CompiledRule, type RunOptions } from './compile.ts';
import { EngineError } from './errors.ts';

/** Why an evaluation gave no answer, as it is kept and shown: the code callers branch on, and the message. */
export interface Failure {
  code: string;
  message: string;
}

/** What one evaluation gave: the answer, with the indexes of the rule's coverage units that gave it when asked; or its failure. */
export type Outcome<F = Failure> = { output: unknown; hits?: number[] } | { error: F };

/** How a candidate's outcome stands against the baseline's on the same input. */
export const comparisons = ['same', 'changed', 'newlyFailing', 'newlySucceeding', 'bothFailing'] as const;
export type Comparison = (typeof comparisons)[number];

/**
 * Evaluates `rule` on `params` with its hits, as an outcome: the engine's
 * refusal is the failure, kept as the error it is; any other error (a bug)
 * is thrown.
 *
 * @example
 * const outcome = evaluateOutcome(rule, { weightKg: 12 }, { clock: new Date() });
 * if ('error' in outcome) console.log(outcome.error.code);
 */
export function evaluateOutcome(rule: CompiledRule, params: unknown, options: Omit<RunOptions, 'hits' | 'trace'> = {}): Outcome<EngineError> {
  try {
    const { output, hits } = evaluateRule(rule, params, { ...options, hits: true });
    return { output, hits: hits ?? [] };
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return { error };
  }
}

/** The hits of an answer; a failure has none. */
export const hitsOf = (outcome: Outcome<unknown>): number[] => ('error' in outcome ? [] : (outcome.hits ?? []));

/** The outcome as it is kept (in a report, a sample): the failure as its code and message alone. */
export const keptFailure = <F extends Failure>(outcome: Outcome<F>): Outcome =>
  'error' in outcome ? { error: { code: outcome.error.code, message: outcome.error.message } } : outcome;

/** Whether two outputs are the same answer (see the header). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isNum(a) || isNum(b)) return isNum(a) && isNum(b) && numbersEqual(a, b);
  a = jsonForm(a);
  b = jsonForm(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const [keysA, keysB] = [Object.keys(a), Object.keys(b)];
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** A FEEL date, time, duration or range as the text JSON gives it; anything else as it is. */
const jsonForm = (value: unknown) =>
  value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ? (value as { toJSON(): unknown }).toJSON()
    : value;

/**
 * Compares the candidate's outcome with the baseline's: the same answer, a
 * changed one (another output, or another failure code), or which of them
 * failed.
 *
 * @example
 * compareOutcomes({ output: { fee: 1.5 } }, { output: { fee: parseNumber('1.50') } }); // 'same'
 * compareOutcomes({ error: { code: 'no_match', message: '' } }, { error: { code: 'invalid_input', message: '' } }); // 'changed'
 */
export function compareOutcomes(baseline: Outcome<Failure>, candidate: Outcome<Failure>): Comparison {
  if ('error' in baseline) {
    if (!('error' in candidate)) return 'newlySucceeding';
    return baseline.error.code === candidate.error.code ? 'bothFailing' : 'changed';
  }
  if ('error' in candidate) return 'newlyFailing';
  return sameValue(baseline.output, candidate.output) ? 'same' : 'changed';
}
