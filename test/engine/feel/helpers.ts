/**
 * Shared by the FEEL engine tests: parse and evaluate in one call, with a
 * fixed clock, returning the plain (JSON) value and the notes that say why a
 * value came out null.
 */
import { compileExpression, compileUnaryTests, rootEnv } from '../../../lib/engine/feel/compile.ts';
import { parseExpression, parseUnaryTests } from '../../../lib/engine/feel/parse.ts';
import { FeelDate, FeelDateTime, FeelDuration, FeelTime } from '../../../lib/engine/feel/temporal.ts';
import { toPlain, type FeelContext, type FeelValue } from '../../../lib/engine/feel/values.ts';

/** The instant every test evaluation sees as "now", unless it passes its own. */
export const clock = new Date('2025-06-01T12:00:00.000Z');

export interface Outcome {
  value: unknown;
  notes: string[];
}

/** Parses and evaluates `text` over `vars`: the value as JSON would carry it, and the notes. */
export function run(text: string, vars: FeelContext = {}, at: Date = clock): Outcome {
  const notes: string[] = [];
  const value = compileExpression(parseExpression(text, Object.keys(vars)))(rootEnv(vars, { clock: at, notes }));
  return { value: toPlain(value), notes };
}

/** The plain value of `text` over `vars`. */
export const feel = (text: string, vars: FeelContext = {}) => run(text, vars).value;

/** Whether `input` passes the unary tests `tests`, with `vars` in scope. */
export function matches(tests: string, input: FeelValue, vars: FeelContext = {}, notes: string[] = []): boolean {
  return compileUnaryTests(parseUnaryTests(tests, Object.keys(vars)))(input, rootEnv(vars, { clock, notes }));
}

/** Temporal values for inputs, from their ISO text. */
export const date = (text: string) => FeelDate.parse(text)!;
export const dateTime = (text: string) => FeelDateTime.parse(text)!;
export const time = (text: string) => FeelTime.parse(text)!;
export const duration = (text: string) => FeelDuration.parse(text)!;
