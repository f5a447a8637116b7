/**
 * The work one evaluation may do, counted in steps. FEEL text is bounded (see
 * ./limits.ts), but what it does is not: two ranges of 100,000 iterated
 * together, a list or a string doubled forty times, a pattern run over a long
 * text. Each such operation spends steps here as it goes, and the evaluation
 * stops with `evaluation_failed` once they run out, instead of holding the
 * function (and, locally, the whole runtime) for hours.
 *
 * Steps are counted, not timed, so that the same rule on the same params
 * always gives the same answer, whatever the machine.
 */
import { EngineError } from '../errors.ts';

/**
 * Steps one evaluation may spend. A step is about one elementary operation:
 * one node of an iteration's body for each value it binds, one item or
 * character made, walked or compared, one state of a pattern's automaton per
 * character. Far more than any rule needs (a `for` over 100,000 values with a
 * body of a few operators spends under a million), and a few hundred
 * milliseconds of work at most.
 */
export const maxEvaluationSteps = 5_000_000;

export class Budget {
  #left = maxEvaluationSteps;

  /** Takes `steps` from what is left; throws `evaluation_failed` when that is more than there is. */
  spend(steps: number): void {
    this.#left -= steps;
    if (this.#left < 0)
      throw new EngineError(
        'evaluation_failed',
        `The evaluation was stopped after ${maxEvaluationSteps.toLocaleString('en')} steps of work (values iterated over, items and characters made or compared): iterate over fewer values, or build smaller lists and texts.`,
      );
  }
}
