/**
 * What a batch (`paramsList`) answers for each input, shared by execute and
 * test: an input that fails gets its error in its slot, as a call with that
 * input alone would have answered it, and the others still run. The whole
 * answer is bounded as it grows, so that a batch is refused (413
 * answer_too_large, split the list) before it outgrows what a Lambda function
 * can answer, and before anything of it is recorded.
 */
import type { EngineError, FieldProblem } from '../engine/errors.ts';
import { errors, fromEngineError } from '../vocabulary/errors.ts';
import { batchBounds } from './schema.ts';

/** Why one input gave no answer: the code and message a call with it alone answers, and the params at fault. */
export interface SlotError {
  code: string;
  message: string;
  fields?: FieldProblem[];
}

export const slotError = (error: EngineError): SlotError => {
  const { code, message } = fromEngineError(error);
  return { code, message, ...(error.problems.length > 0 && { fields: error.problems }) };
};

/** The bytes `part` of an answer takes as it travels: its JSON, escaped as a string inside the function's result. */
export const answerBytes = (part: unknown) => Buffer.byteLength(JSON.stringify(JSON.stringify(part)));

/** The bytes of a batch's answer so far, bounded by `batchBounds.maxAnswerBytes`. */
export class AnswerBudget {
  private bytes = 0;

  constructor(private readonly inputs: number) {}

  /** What the answer may still take. */
  get room(): number {
    return batchBounds.maxAnswerBytes - this.bytes;
  }

  /** Counts the slot of input `index`, or refuses the batch (413 answer_too_large) when it does not fit. */
  take(slot: unknown, index: number): void {
    const size = answerBytes(slot);
    if (size > this.room) throw errors.answerTooLarge(index + 1, this.inputs, batchBounds.maxAnswerBytes);
    this.bytes += size;
  }
}
