/**
 * The worker's part of a pull: pending → in-progress → completed or
 * failed. Each step is a conditional write, so a redelivered message never
 * runs a task twice at once and a finished task is never reopened; a run that
 * died leaves a lease that the next delivery, or the sweeper, sees expired.
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
import { randomUUID } from 'node:crypto';
import { entityTypes, type EntityType } from '../entities/kinds.ts';
import { ApiError } from '../http/errors.ts';
import type { OutboundCredential } from '../outbound/index.ts';
import { isOpenTask, type AuditEvent, type PullSummary, type Store, type StoredEntity, type Task } from '../store/types.ts';
import type { Delivery, DeliveryOutcome } from '../tasks/worker.ts';
import { planPull, readEntityFiles, type FileProblem, type PullPlan, type RepositoryFile } from './plan.ts';
import { partlyUpdated } from './stopped.ts';

export interface Snapshot {
  commit: string;
  files: RepositoryFile[];
}

export interface RunDeps {
  store: Store;
  fetchBranch(options: { url: string; branch: string; credential?: OutboundCredential }): Promise<Snapshot>;
  openCredential(workspaceId: string, credentialId: string): Promise<OutboundCredential>;
  /** How long a run may hold a task: longer than the worker's time limit. */
  leaseMs: number;
}

/** Failures worth another delivery: network trouble and throttling, not a bad repository. */
export const isTransient = (error: unknown) => (error as { transient?: boolean }).transient !== false;

const shownProblems = 20;

function describeProblems(problems: FileProblem[]) {
  const listed = problems.slice(0, shownProblems).map((p) => `${p.path}: ${p.message}`);
  const more = problems.length > shownProblems ? `; and ${problems.length - shownProblems} more` : '';
  return `Nothing was applied: ${new Set(problems.map((p) => p.path)).size} file(s) are invalid. ${listed.join('; ')}${more}`;
}

class PullRejected extends Error {
  readonly transient = false;
}

/** Claims the task for this run: a pending task, or one whose last run's lease ran out. */
async function claim(store: Store, task: Task, leaseMs: number): Promise<Task | undefined> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
  const change = { taskState: 'in-progress' as const, runId: randomUUID(), leaseUntil, dueAt: leaseUntil };
  if (task.taskState === 'pending') return store.transitionTask(task.taskId, ['pending'], { ...change, startedAt: now.toISOString() });
  return store.transitionTask(task.taskId, ['in-progress'], change, { leaseExpiredBefore: now.toISOString() });
}

async function finish(store: Store, task: Task, change: Partial<Task>) {
  const ended = await store.transitionTask(task.taskId, ['in-progress'], { ...change, finishedAt: new Date().toISOString() }, { runId: task.runId });
  if (ended) await store.releaseBranchPull(task.workspaceId, task.branch, task.taskId, change.taskState === 'completed' ? change.commit : undefined);
}

/** The remote's credential. One deleted or revoked since the remote was set fails the pull at once: no retry brings it back. */
async function openRemoteCredential(deps: RunDeps, workspaceId: string, credentialId: string): Promise<OutboundCredential> {
  try {
    return await deps.openCredential(workspaceId, credentialId);
  } catch (error) {
    if (error instanceof ApiError) throw new PullRejected(`${error.message} Give the remote another credential with PUT /dev/v1/remote and pull again.`);
    throw error;
  }
}

/**
 * Records that this run begins writing `commit`, if it still holds the task.
 * Before the last delivery the task's deadline moves past the next one (a
 * lease and a visibility timeout): should this run die while writing, the
 * sweeper leaves the task to that delivery, which finishes the update.
 */
function beginApplying(deps: RunDeps, task: Task, commit: string, summary: PullSummary, delivery: Delivery) {
  const nextDelivery = delivery.attempt < delivery.maxAttempts && { dueAt: new Date(Date.parse(task.leaseUntil!) + deps.leaseMs).toISOString() };
  const first = !resumes(task, commit);
  const applying = first ? { applyingCommit: commit, applyingSummary: summary } : {};
  // The branch changes from here: the record goes with the change that says so (a run that resumes it records nothing more).
  const audit: AuditEvent | undefined = first && task.requestedBy ? pullAudit(task, commit, summary) : undefined;
  return deps.store.transitionTask(task.taskId, ['in-progress'], { ...applying, ...nextDelivery }, { runId: task.runId }, audit);
}

/** A pull writing a branch, as the audit log shows it: by whoever asked for it, with the commit and what it changes. */
function pullAudit(task: Task, commit: string, summary: PullSummary): AuditEvent {
  const counts = Object.fromEntries(
    (['rule', 'workflow'] as const).flatMap((type) =>
      (['added', 'updated', 'deleted'] as const).map((what) => [`${type}s${what[0]!.toUpperCase()}${what.slice(1)}`, summary[type][what]]),
    ),
  );
  return {
    actor: task.requestedBy!,
    operation: 'pullApplied',
    requestId: task.requestId ?? task.taskId,
    outcome: 'ok',
    target: { type: 'branch', id: task.branch, branch: task.branch },
    detail: { taskId: task.taskId, commit, ...counts },
  };
}

/** Whether this run finishes writing the commit an earlier run of the task began (the remote's branch has not moved since). */
const resumes = (task: Task, commit: string) => task.applyingCommit === commit && task.applyingSummary !== undefined;

/** Fetches, plans and writes; undefined when the run no longer held the task when it was to write (it wrote nothing). */
async function pull(deps: RunDeps, task: Task, delivery: Delivery) {
  const remote = await deps.store.getRemote(task.workspaceId);
  if (!remote) throw new PullRejected('The workspace has no remote any more: set one with PUT /dev/v1/remote and pull again.');
  const credential = remote.credentialId ? await openRemoteCredential(deps, task.workspaceId, remote.credentialId) : undefined;
  const snapshot = await deps.fetchBranch({ url: remote.url, branch: task.branch, credential });
  const { inputs, ignoredFolders, problems } = readEntityFiles(snapshot.files);
  if (problems.length) throw new PullRejected(describeProblems(problems));
  const scopes = Object.fromEntries(entityTypes.map((entityType) => [entityType, { workspaceId: task.workspaceId, branch: task.branch, entityType }]));
  const current = Object.fromEntries(
    await Promise.all(entityTypes.map(async (type) => [type, await deps.store.listEntityStates(scopes[type]!)] as const)),
  ) as Record<EntityType, StoredEntity[]>;
  const plan = planPull(inputs, current, ignoredFolders, new Date().toISOString());
  await refuseUnapprovedChanges(deps.store, task, plan, current);
  const changed = entityTypes.filter((type) => plan.writes[type].length + plan.deletions[type].length > 0);
  if (changed.length > 0 && !(await beginApplying(deps, task, snapshot.commit, plan.summary, delivery))) return undefined;
  for (const type of entityTypes) {
    if (changed.includes(type)) await deps.store.writeEntities(scopes[type]!, plan.writes[type], plan.deletions[type]);
    // An earlier run may have stopped between writing this type's entities and counting them.
    else if (task.applyingCommit) await deps.store.recount(scopes[type]!);
  }
  return { commit: snapshot.commit, summary: resumes(task, snapshot.commit) ? task.applyingSummary! : plan.summary };
}

/**
 * A pull writes drafts, never versions: on a protected branch what it
 * brings is published only through change requests. What it may not do
 * there is delete a published rule or workflow (its versions would no longer
 * run), which would bypass approval: such a pull is refused, whole.
 */
async function refuseUnapprovedChanges(store: Store, task: Task, plan: PullPlan, current: Record<EntityType, StoredEntity[]>) {
  if (!(await store.getBranch(task.workspaceId, task.branch))?.protection) return;
  const published = entityTypes.flatMap((type) =>
    plan.deletions[type].filter((id) => current[type].some((e) => e.id === id && e.version)).map((id) => `${type} ${id}`),
  );
  if (published.length)
    throw new PullRejected(
      `The branch "${task.branch}" is protected, and this commit would delete what is published there (${published.slice(0, 10).join(', ')}${published.length > 10 ? `, and ${published.length - 10} more` : ''}): deleting a published rule or workflow needs the protection taken away first.`,
    );
}

/**
 * Runs one delivery of a pull task's message. Returns "retry" when the
 * message should come back (a transient failure before its last delivery);
 * "dead-letter" when a transient failure lasted to the last delivery (the
 * task is failed); "done" otherwise, including for a task that another run
 * holds or that has ended.
 */
export async function runPullTask(deps: RunDeps, taskId: string, delivery: Delivery): Promise<DeliveryOutcome> {
  const found = await deps.store.getTask(taskId);
  if (!found || !isOpenTask(found)) return 'done';
  const task = await claim(deps.store, found, deps.leaseMs);
  if (!task) return 'done';
  try {
    const pulled = await pull(deps, task, delivery);
    if (pulled) await finish(deps.store, task, { taskState: 'completed', ...pulled });
    return 'done';
  } catch (error) {
    const message = (error as Error).message;
    if (isTransient(error) && delivery.attempt < delivery.maxAttempts) {
      // The next delivery may take the task over at once; the sweeper waits for it (a lease and a visibility timeout).
      const now = Date.now();
      await deps.store.transitionTask(
        task.taskId,
        ['in-progress'],
        { leaseUntil: new Date(now).toISOString(), dueAt: new Date(now + 2 * deps.leaseMs).toISOString(), error: message },
        { runId: task.runId },
      );
      return 'retry';
    }
    // This run, or one before it, may have begun writing the branch.
    const { applyingCommit } = (await deps.store.getTask(task.taskId)) ?? {};
    await finish(deps.store, task, { taskState: 'failed', error: applyingCommit ? `${message} ${partlyUpdated(applyingCommit)}` : message });
    return isTransient(error) ? 'dead-letter' : 'done';
  }
}
