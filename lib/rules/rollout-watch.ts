/**
 * What a running rollout learns from live executions, off the request's
 * path: once an execution's answer is ready, the other version (the
 * candidate, or under a canary the served version when the candidate
 * answered) runs on the same params as of the same time, and the two are
 * compared. The comparison is started, never awaited, and never fails the
 * execution: a version that cannot load or that the engine refuses counts as
 * failed; a comparison that cannot be made (the table unreachable) is logged
 * and not counted.
 *
 * Counts go to the warm function's one tally buffer (lib/tallies), one item
 * a rollout, `rollout:<id>`; what a frozen or dead function can lose is
 * written there, and the buffer's flush waits for the comparisons started. Disagreements are kept as a sample, items that expire
 * (`rolloutSampleRetentionDays`), at most one written a second by each warm
 * function for each rollout (`sampleEveryMs`), so a rule that disagrees on
 * every call writes a bounded trickle, not one item a call.
 *
 * Once the other version is compiled in the warm function, the comparison is
 * microseconds of CPU that end before the answer is sent. What still waits on
 * I/O when a Lambda function is frozen after its answer (the other version's
 * first load, a sample's write) goes on when it is next invoked; a function
 * shut down meanwhile loses that comparison, as it loses unflushed counts.
 */
import { EngineError, type Outcome } from '../engine/index.ts';
import { ApiError } from '../vocabulary/errors.ts';
import { logger } from '../logging/logger.ts';
import type { RuleScope, RolloutSample, RolloutStore, TallyStore } from '../store/types.ts';
import { tallyBufferOf, whileCounting } from '../tallies/buffer.ts';
import { otherLabel, type RolloutTurn } from './rollout-canary.ts';
import { agreementOf, keptOutcome } from './rollout-compare.ts';

/** The tally item of a rollout's counts. */
export const rolloutTallyName = (rolloutId: string) => `rollout:${rolloutId}`;

export const sampleLimits = {
  /** At most one sample written per rollout in this time, by each warm function. */
  sampleEveryMs: 1_000,
  /** Rollouts whose last sample time a function keeps: past it, it forgets them all (and may write one more sample each). */
  rememberedRollouts: 1_000,
};

/** The execution as it ran: what the other version runs on. */
export interface RunSeen {
  executionId: string;
  input: unknown;
  startedAt: Date;
}

type WatchStore = Pick<TallyStore, 'addTallies'> & Pick<RolloutStore, 'putRolloutSample'>;

/** Why a version gave no answer (it cannot load, or the engine refused): counted as its failure. Any other error (the table unreachable) is thrown: that comparison is not counted. */
function failureOf(error: unknown): Outcome {
  if (error instanceof EngineError || error instanceof ApiError) return { error: { code: error.code, message: error.message } };
  throw error;
}

export class RolloutWatch {
  private readonly lastSampleAt = new Map<string, number>();

  constructor(
    private readonly store: WatchStore,
    private readonly options: typeof sampleLimits & { now: () => number } = { ...sampleLimits, now: Date.now },
  ) {}

  /**
   * Compares the answer with the other version's, counts and samples, in the
   * background. `evaluate` runs a version on the execution's params as of its
   * start (loading it first when the function has not yet).
   */
  compare(scope: RuleScope, turn: RolloutTurn, run: RunSeen, answer: Outcome, evaluate: (version: string) => Promise<Outcome>) {
    whileCounting(
      this.compared(scope, turn, run, answer, evaluate).catch((error: unknown) => logger.warn('rollout: a comparison was not counted', error as Error)),
    );
  }

  private async compared(scope: RuleScope, turn: RolloutTurn, run: RunSeen, answer: Outcome, evaluate: (version: string) => Promise<Outcome>) {
    const other = await evaluate(otherLabel(turn)).catch(failureOf);
    const [baseline, candidate] = turn.servedBy === 'candidate' ? [other, answer] : [answer, other];
    const agreement = agreementOf(baseline, candidate);
    const { rollout } = turn;
    const counts: [string, number][] = [
      ['compared', 1],
      [agreement, 1],
    ];
    if (rollout.mode === 'canary') counts.push([turn.servedBy === 'candidate' ? 'servedByCandidate' : 'servedByBaseline', 1]);
    if (!turn.sticky) counts.push(['notSticky', 1]);
    tallyBufferOf(this.store).add({ ...scope, name: rolloutTallyName(rollout.id) }, counts);
    if (agreement === 'agree' || !this.mayWriteSample(rollout.id)) return;
    const sample: RolloutSample = {
      executionId: run.executionId,
      at: run.startedAt.toISOString(),
      servedBy: turn.servedBy,
      input: run.input,
      baseline: keptOutcome(turn.baseline, baseline),
      candidate: keptOutcome(rollout.candidate, candidate),
    };
    await this.store.putRolloutSample(scope, rollout.id, sample);
  }

  private mayWriteSample(rolloutId: string) {
    const now = this.options.now();
    if (now - (this.lastSampleAt.get(rolloutId) ?? -Infinity) < this.options.sampleEveryMs) return false;
    if (this.lastSampleAt.size >= this.options.rememberedRollouts) this.lastSampleAt.clear();
    this.lastSampleAt.set(rolloutId, now);
    return true;
  }
}

let shared: RolloutWatch | undefined;

/** The warm function's watch, made on its first rollout with the function's store (one per process, as the store is). */
export const rolloutWatch = (store: WatchStore) => (shared ??= new RolloutWatch(store));
