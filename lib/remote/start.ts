/**
 * Starting a pull or a push, as their operations do: the task is written as
 * pending before its message is sent, and a message that cannot be sent fails
 * the task rather than leaving it pending forever. A branch runs one pull or
 * push at a time, as both read the branch's record of its remote (the commit
 * it was last synced with) and a pull writes the branch a push reads: asking
 * again for the one that is open returns its task, asking for the other while
 * it runs is refused (409 remote_busy).
 */
import { auditEvent, type Auditor } from '../auth/auditor.ts';
import { randomUUID } from 'node:crypto';
import { errors, type ApiError } from '../vocabulary/errors.ts';
import { branchEntities, type RemoteTaskKind } from './remote-task.ts';
import { pushGate } from '../publishing/gate.ts';
import { isOpenTask, type RemoteStore, type Store, type Task, type TaskStore } from '../store/types.ts';
import type { TaskQueue } from '../tasks/queue.ts';

export interface StartDeps {
  store: TaskStore & RemoteStore;
  queue: Pick<TaskQueue, 'send'>;
}

/** `conflict` is the error when every try lost a race with tasks started at the same moment: each kind has its own. */
async function startRemoteTask(
  deps: StartDeps,
  workspaceId: string,
  branch: string,
  kind: RemoteTaskKind,
  conflict: () => ApiError,
  auditor?: Auditor,
): Promise<Task> {
  if (!(await deps.store.getRemote(workspaceId))) throw errors.remoteNotConfigured();
  for (let attempt = 0; attempt < 3; attempt++) {
    const active = (await deps.store.getBranchSync(workspaceId, branch))?.activeTaskId;
    if (active) {
      const task = await deps.store.getTask(active);
      if (task && isOpenTask(task)) {
        if (task.kind === kind) return task;
        throw errors.remoteBusy(kind === 'pull' ? 'push' : 'pull', task.taskId);
      }
    }
    const common = {
      taskId: randomUUID(),
      workspaceId,
      branch,
      taskState: 'pending' as const,
      createdAt: new Date().toISOString(),
      ...(auditor && { requestedBy: auditor.actor, requestId: auditor.requestId }),
    };
    const task: Task<RemoteTaskKind> = kind === 'push' ? { ...common, kind, push: {} } : { ...common, kind };
    // The task exists before the branch names it: a start that reads the claim always finds its task open,
    // rather than taking a claim whose task is not written yet for a stale one and starting a second task.
    await deps.store.createTask(task);
    // Of two started at once, one claims the branch and the other returns its task; the loser's task never runs.
    // The claim starts the task: its audit record goes with it (a loser, which starts nothing, records nothing).
    const audit = auditEvent(auditor, { type: 'task', id: task.taskId, branch });
    if (!(await deps.store.claimBranchSync(workspaceId, branch, task.taskId, active, audit))) {
      await deps.store.transitionTask(task.taskId, ['pending'], {
        taskState: 'failed',
        finishedAt: new Date().toISOString(),
        error: 'Another pull or push of this branch started at the same moment; this one was not run.',
      });
      continue;
    }
    try {
      await deps.queue.send({ taskId: task.taskId, workspaceId });
    } catch (error) {
      await deps.store.transitionTask(task.taskId, ['pending'], {
        taskState: 'failed',
        finishedAt: new Date().toISOString(),
        error: `The ${kind} could not be queued. Retry after a delay.`,
      });
      await deps.store.releaseBranchSync(workspaceId, branch, task.taskId);
      throw error;
    }
    return task;
  }
  throw conflict();
}

export const startPull = (deps: StartDeps, workspaceId: string, branch: string, auditor?: Auditor) =>
  startRemoteTask(deps, workspaceId, branch, 'pull', () => errors.pullConflict(), auditor);

/**
 * A push from a protected branch is refused at once (409 branch_protected, so
 * the refusal is audited) while a draft there is not what it serves; its run
 * checks again before it sends anything (./push-run.ts), since a draft may be
 * edited in between.
 */
export async function startPush(deps: StartDeps & { store: Store }, workspaceId: string, branch: string, auditor?: Auditor) {
  if ((await deps.store.getBranch(workspaceId, branch))?.protection)
    await pushGate(deps.store, workspaceId, branch, (await branchEntities(deps.store, { workspaceId, branch })).current);
  return startRemoteTask(deps, workspaceId, branch, 'push', () => errors.pushConflict(), auditor);
}
