/**
 * Why a replay's task failed when its messages stopped coming (a worker
 * stopped or ran out of time, or never received them): said by the sweeper
 * (lib/tasks/sweeper.ts, through `sweptReplay`). Kept apart so that the
 * sweeper bundles no engine.
 */
import type { SweptKind } from '../tasks/sweeper.ts';

/** A replay the sweeper ended: it holds nothing besides its task (what its shards found expires with it). */
export const sweptReplay: SweptKind<'replay'> = {
  reason: () => 'The replay stopped before it finished (its worker stopped or ran out of time, or never received it). Nothing was changed: ask for it again.',
};
