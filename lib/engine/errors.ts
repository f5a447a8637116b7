/**
 * Failures of the engine as domain facts, with codes: the HTTP layer maps
 * each code to a status in one place (`lib/vocabulary/errors.ts`), and the
 * scheduled run and the workflow runner record them as they are.
 */

export type EngineErrorCode =
  /** A param has the wrong type for its declared input (details: the problems by field). */
  | 'invalid_params'
  /** The rule ran but cannot give an answer: two rows match under `unique`, disagreeing rows under `any`. */
  | 'evaluation_failed'
  /** A rule set refers to a rule (or version) the branch does not have. */
  | 'rule_reference_not_found'
  /** A rule set refers to itself, directly or through others. */
  | 'rule_reference_cycle';

export interface FieldProblem {
  field: string;
  message: string;
}

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    readonly problems: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
