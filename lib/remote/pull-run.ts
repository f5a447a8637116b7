/**
 * The worker's part of a pull (its task's life, shared with the push, is
 * ./remote-task.ts): fetch the remote's branch, plan, write the branch.
 *
 * Writing a commit's entities takes many requests, so a run that dies while
 * writing leaves the branch partly updated. Before its first write a run
 * records the commit on the task (`applyingCommit`), and writes only if it
 * still holds the task. A later run of the task plans from the branch as it
 * is, so it finishes the update; the summary it reports is the one the
 * first run planned (recorded with the commit), since only that one saw the
 * branch before the pull (should the remote's branch have moved meanwhile,
 * the later run pulls the new commit and counts from the branch as it found
 * it). The sweeper leaves such a task to the
 * message's next delivery while one may come, and only after the last fails
 * it, saying that the branch may be partly updated and the next pull
 * finishes it.
 */
import { deleteGate } from '../publishing/gate.ts';
import { entityTypes, type EntityType } from '../vocabulary/kinds.ts';
import type { OutboundCredential } from '../outbound/index.ts';
import type { Store, StoredEntity, Task } from '../store/types.ts';
import type { PullSummary } from './task.ts';
import type { Delivery, DeliveryOutcome } from '../tasks/worker.ts';
import { describeProblems, planPull, readEntityFiles, type PullPlan, type RepositoryFile } from './pull-plan.ts';
import { branchEntities, remoteOf, runRemoteTask, taskAudit, TaskRefused, untilNextDelivery, type RemoteTaskDeps } from './remote-task.ts';
import { partlyUpdated } from './stopped.ts';

export interface Snapshot {
  commit: string;
  files: RepositoryFile[];
}

export interface RunDeps extends RemoteTaskDeps {
  fetchBranch(options: { url: string; branch: string; credential?: OutboundCredential }): Promise<Snapshot>;
}

/**
 * Records that this run begins writing `commit`, if it still holds the task;
 * should it die while writing, the next delivery finishes the update
 * (untilNextDelivery).
 */
function beginApplying(deps: RunDeps, task: Task<'pull'>, commit: string, summary: PullSummary, delivery: Delivery) {
  const first = !resumes(task, commit);
  const applying = first ? { applyingCommit: commit, applyingSummary: summary } : {};
  // The branch changes from here: the record goes with the change that says so (a run that resumes it records nothing more).
  const audit = first ? taskAudit(task, 'pullApplied', commit, summary) : undefined;
  return deps.store.transitionTask(task.taskId, ['in-progress'], { ...applying, ...untilNextDelivery(deps, task, delivery) }, { runId: task.runId }, audit);
}

/** Whether this run finishes writing the commit an earlier run of the task began (the remote's branch has not moved since). */
const resumes = (task: Task<'pull'>, commit: string) => task.applyingCommit === commit && task.applyingSummary !== undefined;

/** Fetches, plans and writes; undefined when the run no longer held the task when it was to write (it wrote nothing). */
async function pull(deps: RunDeps, task: Task<'pull'>, delivery: Delivery) {
  const { remote, credential } = await remoteOf(deps, task, 'pull');
  const snapshot = await deps.fetchBranch({ url: remote.url, branch: task.branch, credential });
  const { inputs, ignoredFolders, problems, notCarried } = await readEntityFiles(snapshot.files);
  if (problems.length) throw new TaskRefused(`Nothing was applied: ${describeProblems(problems)}`);
  const { scopes, current } = await branchEntities(deps.store, task);
  const plan = planPull(inputs, current, ignoredFolders, new Date().toISOString(), notCarried);
  await refuseUnapprovedChanges(deps.store, task, plan, current);
  const changed = entityTypes.filter((type) => plan.writes[type].length + plan.deletions[type].length > 0);
  if (changed.length > 0 && !(await beginApplying(deps, task, snapshot.commit, plan.summary, delivery))) return undefined;
  for (const type of entityTypes) {
    if (changed.includes(type)) await deps.store.writeEntities(scopes[type], plan.writes[type], plan.deletions[type]);
    // An earlier run may have stopped between writing this type's entities and counting them.
    else if (task.applyingCommit) await deps.store.recount(scopes[type]);
  }
  return { change: { commit: snapshot.commit, summary: resumes(task, snapshot.commit) ? task.applyingSummary! : plan.summary } };
}

/**
 * A pull writes drafts, never versions: on a protected branch what it
 * brings is published only through change requests. What it may not do
 * there is delete what the branch serves or may roll out (lib/publishing/gate.ts),
 * which would bypass approval: such a pull is refused, whole.
 */
async function refuseUnapprovedChanges(store: Store, task: Task, plan: PullPlan, current: Record<EntityType, StoredEntity[]>) {
  const deleted = entityTypes.flatMap((type) => plan.deletions[type].map((id) => current[type].find((e) => e.id === id)));
  await deleteGate(store, task.workspaceId, task.branch, deleted).catch((error: Error) => {
    throw new TaskRefused(`Nothing was pulled: ${error.message}`);
  });
}

/** Runs one delivery of a pull task's message (./remote-task.ts). */
export const runPullTask = (deps: RunDeps, taskId: string, delivery: Delivery): Promise<DeliveryOutcome> =>
  runRemoteTask(deps, taskId, delivery, 'pull', {
    work: (task) => pull(deps, task, delivery),
    // This run, or one before it, may have begun writing the branch.
    failedWith: ({ message }, { applyingCommit }) => (applyingCommit ? `${message} ${partlyUpdated(applyingCommit)}` : message),
  });
