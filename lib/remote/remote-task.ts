/**
 * What the worker's runs of pulls (./pull-run.ts) and pushes (./push-run.ts)
 * share. A task goes pending → in-progress → completed or failed, each step
 * a conditional write, so a redelivered message never runs a task twice at
 * once and a finished task is never reopened; a run that died leaves a lease
 * that the next delivery, or the sweeper, sees expired. A transient failure
 * (network trouble, throttling) before the last delivery hands the message
 * back for another; any other failure, or one on the last delivery, fails
 * the task. Ending a task lets the branch go for its next pull or push, and
 * a completed one records the remote's commit the branch is synced with.
 */
import { claimTask } from '../tasks/claim.ts';
import { isKind } from '../tasks/kinds.ts';
import { entityTypes, type EntityType } from '../vocabulary/kinds.ts';
import { ApiError } from '../vocabulary/errors.ts';
import type { OutboundCredential } from '../outbound/index.ts';
import { isOpenTask, type AuditEvent, type EntityScope, type RemoteConfig, type Store, type StoredEntity, type Task, type TaskChange } from '../store/types.ts';
import { type PullSummary } from './task.ts';
import type { Delivery, DeliveryOutcome } from '../tasks/worker.ts';

/** The Git remote's kinds of task. */
export type RemoteTaskKind = 'pull' | 'push';

export interface RemoteTaskDeps {
  store: Store;
  openCredential(workspaceId: string, credentialId: string): Promise<OutboundCredential>;
  /** How long a run may hold a task: longer than the worker's time limit. */
  leaseMs: number;
}

/** Failures worth another delivery: network trouble and throttling, not a bad repository. */
export const isTransient = (error: unknown) => (error as { transient?: boolean }).transient !== false;

/** A failure no other delivery mends (a bad file, a remote that moved): the task fails at once, with this message. */
export class TaskRefused extends Error {
  readonly transient = false;
}

/** What a run of one kind does; the skeleton around it is runRemoteTask's. */
export interface RemoteTaskRun<K extends RemoteTaskKind> {
  /**
   * The task's work: what the completed task records (with the audit event
   * that goes with it), or undefined when the run no longer held the task
   * when it was to change anything (it changed nothing).
   */
  work(task: Task<K>): Promise<{ change: TaskChange & { commit?: string }; audit?: AuditEvent } | undefined>;
  /** The error a failed task ends with, from the failure and the task as stored (what a run recorded before it stopped). */
  failedWith(error: Error, task: Task<K>): string;
}

async function finish(store: Store, task: Task<RemoteTaskKind>, change: TaskChange & { commit?: string }, audit?: AuditEvent) {
  const ended = await store.transitionTask(task.taskId, ['in-progress'], { ...change, finishedAt: new Date().toISOString() }, { runId: task.runId }, audit);
  if (ended) await store.releaseBranchSync(task.workspaceId, task.branch, task.taskId, change.taskState === 'completed' ? change.commit : undefined);
}

/**
 * Runs one delivery of a pull or push task's message. Returns "retry" when
 * the message should come back (a transient failure before its last
 * delivery); "dead-letter" when a transient failure lasted to the last
 * delivery (the task is failed); "done" otherwise, including for a task that
 * another run holds or that has ended.
 */
export async function runRemoteTask<K extends RemoteTaskKind>(
  deps: RemoteTaskDeps,
  taskId: string,
  delivery: Delivery,
  kind: K,
  run: RemoteTaskRun<K>,
): Promise<DeliveryOutcome> {
  const found = await deps.store.getTask(taskId);
  if (!isKind(found, kind) || !isOpenTask(found)) return 'done';
  const task = await claimTask(deps.store, found, deps.leaseMs);
  if (!task) return 'done';
  try {
    const done = await run.work(task);
    if (done) await finish(deps.store, task, { taskState: 'completed', ...done.change }, done.audit);
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
    // This run, or one before it, may have recorded what it began (a pull writing the branch, a push sending its commit).
    await finish(deps.store, task, { taskState: 'failed', error: run.failedWith(error as Error, await recorded(deps.store, task)) });
    return isTransient(error) ? 'dead-letter' : 'done';
  }
}

/** The task as stored now, with what its runs recorded; the task as this run took it when it is gone. */
async function recorded<K extends RemoteTaskKind>(store: Store, task: Task<K>): Promise<Task<K>> {
  const stored = await store.getTask(task.taskId);
  return isKind(stored, task.kind as K) ? stored : task;
}

/**
 * The deadline of a task whose run begins what a later run must finish or
 * acknowledge (a pull writing the branch, a push sending its commit): before
 * the last delivery it moves past the next one (a lease and a visibility
 * timeout), so that should this run die, the sweeper leaves the task to that
 * delivery.
 */
export const untilNextDelivery = (deps: RemoteTaskDeps, task: Task, delivery: Delivery): { dueAt?: string } =>
  delivery.attempt < delivery.maxAttempts ? { dueAt: new Date(Date.parse(task.leaseUntil!) + deps.leaseMs).toISOString() } : {};

/** The remote and its credential as the run finds them. A remote taken away, or a credential deleted or revoked since it was set, fails the task at once: no retry brings them back. */
export async function remoteOf(deps: RemoteTaskDeps, task: Task, again: 'pull' | 'push'): Promise<{ remote: RemoteConfig; credential?: OutboundCredential }> {
  const remote = await deps.store.getRemote(task.workspaceId);
  if (!remote) throw new TaskRefused(`The workspace has no remote any more: set one with PUT /dev/v1/remote and ${again} again.`);
  if (!remote.credentialId) return { remote };
  try {
    return { remote, credential: await deps.openCredential(task.workspaceId, remote.credentialId) };
  } catch (error) {
    if (error instanceof ApiError) throw new TaskRefused(`${error.message} Give the remote another credential with PUT /dev/v1/remote and ${again} again.`);
    throw error;
  }
}

/** Every working copy of the task's branch, by type, and the scope of each type. */
export async function branchEntities(store: Store, task: Pick<Task, 'workspaceId' | 'branch'>) {
  const scopes = Object.fromEntries(
    entityTypes.map((entityType) => [entityType, { workspaceId: task.workspaceId, branch: task.branch, entityType }]),
  ) as Record<EntityType, EntityScope>;
  const current = Object.fromEntries(await Promise.all(entityTypes.map(async (type) => [type, await store.listEntityStates(scopes[type])] as const))) as Record<
    EntityType,
    StoredEntity[]
  >;
  return { scopes, current };
}

/**
 * What a pull or push did, as the audit log shows it: by whoever asked for it
 * (nobody audits a task the CLI or a test started without one), with the
 * commit and its counts.
 */
export function taskAudit(task: Task, operation: 'pullApplied' | 'pushApplied', commit: string, summary: PullSummary): AuditEvent | undefined {
  if (!task.requestedBy) return undefined;
  const counts = Object.fromEntries(
    entityTypes.flatMap((type) =>
      (['added', 'updated', 'deleted'] as const).map((what) => [`${type}s${what[0]!.toUpperCase()}${what.slice(1)}`, summary[type][what]]),
    ),
  );
  return {
    actor: task.requestedBy,
    operation,
    requestId: task.requestId ?? task.taskId,
    outcome: 'ok',
    target: { type: 'branch', id: task.branch, branch: task.branch },
    detail: { taskId: task.taskId, commit, ...counts },
  };
}
