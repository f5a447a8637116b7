/**
 * The worker's part of a push (its task's life, shared with the pull, is
 * ./remote-task.ts): fetch the remote's branch, refuse it if it moved since
 * the branch last synced with it, work out the files (./push-plan.ts),
 * commit and send them (./git-push.ts), and record the commit the branch is
 * now synced with. Never forced: a remote that moved is refused with the
 * commits named, and pulling first (which records the new commit) lets the
 * next push through. A remote with no such branch gets it created.
 *
 * A push changes something outside the service, so a run that dies between
 * sending and ending its task must neither send again nor take its own
 * commit for someone else's: before sending, a run records the commit on the
 * task (`push.sending`, only if it still holds the task); a later run of the
 * task that finds the remote's branch at that commit completes the task with
 * it.
 */
import type { Task } from '../store/types.ts';
import type { Delivery, DeliveryOutcome } from '../tasks/worker.ts';
import type { FetchBranchOptions } from './git-remote.ts';
import type { RemoteBranch } from './git-push.ts';
import { describeProblems, readEntityFiles } from './pull-plan.ts';
import { authorOf, commitMessage, committer, planPush } from './push-plan.ts';
import { withFormat } from './config.ts';
import { branchEntities, isTransient, remoteOf, runRemoteTask, taskAudit, TaskRefused, untilNextDelivery, type RemoteTaskDeps } from './remote-task.ts';
import { mayHaveArrived } from './stopped.ts';
import { pushGate } from '../publishing/gate.ts';

export interface PushDeps extends RemoteTaskDeps {
  /** lib/remote/git-push.ts's, in production. */
  withRemoteBranch<T>(options: Pick<FetchBranchOptions, 'url' | 'branch' | 'credential'>, work: (branch: RemoteBranch) => Promise<T>): Promise<T>;
}

type Sending = NonNullable<Task<'push'>['push']['sending']>;

/** The task completed with the commit sent; recorded in the audit log with it. */
const pushed = (task: Task<'push'>, sending: Sending) => ({
  change: { commit: sending.commit, summary: sending.summary, push: { sending, pushed: true } },
  audit: taskAudit(task, 'pushApplied', sending.commit, sending.summary),
});

/** Refuses a remote's branch that is not at the commit the branch last synced with: what is there would be lost, or never seen. */
function refuseMoved(branch: string, synced: string | undefined, found: string | undefined) {
  if (found === undefined || found === synced) return;
  throw new TaskRefused(
    synced
      ? `The remote's ${branch} moved from ${synced} to ${found} since the last pull or push; pull first, then push again.`
      : `The remote's ${branch} is at ${found}, which this branch has never pulled or pushed; pull first, then push again.`,
  );
}

async function push(deps: PushDeps, task: Task<'push'>, delivery: Delivery) {
  const { remote, credential } = await remoteOf(deps, task, 'push');
  const synced = (await deps.store.getBranchSync(task.workspaceId, task.branch))?.syncedCommit;
  return deps.withRemoteBranch({ url: remote.url, branch: task.branch, credential }, async (branch) => {
    const sent = task.push.sending;
    // An earlier run of this task sent it, and stopped before it could say so.
    if (sent && branch.commit === sent.commit) return pushed(task, sent);
    refuseMoved(task.branch, synced, branch.commit);
    const files = await readEntityFiles(branch.files);
    if (files.problems.length)
      throw new TaskRefused(`Nothing was pushed: in the remote's ${branch.commit ? task.branch : 'default branch'}, ${describeProblems(files.problems)}`);
    const current = (await branchEntities(deps.store, task)).current;
    await pushGate(deps.store, task.workspaceId, task.branch, current).catch((error: Error) => {
      throw new TaskRefused(`Nothing was pushed: ${error.message}`);
    });
    // Planning is pure: a file no format can write (an entity a format refuses) fails the same on every delivery.
    const plan = await planPush(files, current, withFormat(remote).format).catch((error: Error) => {
      throw new TaskRefused(`Nothing was pushed: ${error.message}`);
    });
    const creating = branch.commit === undefined;
    if (!creating && plan.changes.length === 0) return { change: { commit: branch.commit, summary: plan.summary, push: { pushed: false } } };

    const author = authorOf(task.requestedBy);
    const message = commitMessage(task.branch, plan, author.name, creating);
    const commit = await branch.commitChange({ writes: plan.writes, deletions: plan.deletions, message, author, committer });
    const sending: Sending = { commit, summary: plan.summary, message };
    const change = { push: { sending }, ...untilNextDelivery(deps, task, delivery) };
    if (!(await deps.store.transitionTask(task.taskId, ['in-progress'], change, { runId: task.runId }))) return undefined;
    await branch.push(commit);
    return pushed(task, sending);
  });
}

/** Runs one delivery of a push task's message (./remote-task.ts). */
export const runPushTask = (deps: PushDeps, taskId: string, delivery: Delivery): Promise<DeliveryOutcome> =>
  runRemoteTask(deps, taskId, delivery, 'push', {
    work: (task) => push(deps, task, delivery),
    // A refusal is an answer: the commit did not arrive. A failure without one (the host went silent) leaves it unknown.
    failedWith: (error, task) => (task.push.sending && isTransient(error) ? `${error.message} ${mayHaveArrived(task.push.sending.commit)}` : error.message),
  });
