/**
 * What a pull or a push that stopped says, to whoever fails it: its last
 * delivery (./pull-run.ts, ./push-run.ts) and the sweeper (lib/tasks/sweeper.ts,
 * through `sweptPull` and `sweptPush`). Kept apart from the runs so that the
 * sweeper bundles no Git or planning code.
 */
import type { SweptKind } from '../tasks/sweeper.ts';
import type { RemoteStore, TaskStore } from '../store/types.ts';

/** A pull's or a push's branch record is the remote's. */
type RemoteSweptStore = TaskStore & Pick<RemoteStore, 'releaseBranchSync'>;

export const partlyUpdated = (commit: string) => `The branch may be partly updated to commit ${commit}: pull again, and that pull finishes the update.`;

/** A push whose sending of `commit` did not end in an answer: the remote may hold it, and the branch's record does not say so, so the next push would be refused. */
export const mayHaveArrived = (commit: string) =>
  `The commit ${commit} may have reached the remote: pull (which finds nothing to change if it did), then push again.`;

/** Either frees its branch for the next pull or push. */
const release: SweptKind<'pull' | 'push', RemoteSweptStore>['release'] = (store, task) => store.releaseBranchSync(task.workspaceId, task.branch, task.taskId);

/** A pull the sweeper ended: one that stopped while writing the branch, or one that wrote nothing. */
export const sweptPull: SweptKind<'pull', RemoteSweptStore> = {
  reason: (task) =>
    task.applyingCommit
      ? `The pull stopped while it was updating the branch. ${partlyUpdated(task.applyingCommit)}`
      : 'The pull stopped before it finished (the worker ran out of time or was never reached). Pull again.',
  release,
};

/** A push the sweeper ended: one that stopped while sending its commit, or one that sent nothing. */
export const sweptPush: SweptKind<'push', RemoteSweptStore> = {
  reason: (task) =>
    task.push?.sending
      ? `The push stopped while it was sending its commit. ${mayHaveArrived(task.push.sending.commit)}`
      : 'The push stopped before it finished (the worker ran out of time or was never reached). Push again.',
  release,
};
