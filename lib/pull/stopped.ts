/**
 * What a pull that stopped says, to whoever fails it: its last delivery
 * (./run.ts) and the sweeper (lib/tasks/sweeper.ts, through `sweptPull`).
 * Kept apart from ./run.ts so that the sweeper bundles no Git or planning code.
 */
import type { SweptKind } from '../tasks/sweeper.ts';

export const partlyUpdated = (commit: string) => `The branch may be partly updated to commit ${commit}: pull again, and that pull finishes the update.`;

/** A pull the sweeper ended: one that stopped while writing the branch, or one that wrote nothing; either frees its branch for the next pull. */
export const sweptPull: SweptKind = {
  reason: (task) =>
    task.applyingCommit
      ? `The pull stopped while it was updating the branch. ${partlyUpdated(task.applyingCommit)}`
      : 'The pull stopped before it finished (the worker ran out of time or was never reached). Pull again.',
  release: (store, task) => store.releaseBranchPull(task.workspaceId, task.branch, task.taskId),
};
