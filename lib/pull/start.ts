/**
 * Starting a pull, as both forms of the pull operation do: the task is written as pending before its
 * message is sent, a branch runs one pull at a time, and a message that cannot
 * be sent fails the task rather than leaving it pending forever.
 */
import { auditEvent, type Auditor } from '../audit/auditor.ts';
import { randomUUID } from 'node:crypto';
import { errors } from '../http/errors.ts';
import { isOpenTask, type Task, type TaskStore } from '../store/types.ts';
import type { TaskQueue } from '../tasks/queue.ts';

export async function startPull(
  deps: { store: TaskStore; queue: Pick<TaskQueue, 'send'> },
  workspaceId: string,
  branch: string,
  auditor?: Auditor,
): Promise<Task> {
  if (!(await deps.store.getRemote(workspaceId))) throw errors.remoteNotConfigured();
  for (let attempt = 0; attempt < 3; attempt++) {
    const active = (await deps.store.getBranchPull(workspaceId, branch))?.activeTaskId;
    if (active) {
      const task = await deps.store.getTask(active);
      if (task && isOpenTask(task)) return task;
    }
    const task: Task = {
      taskId: randomUUID(),
      workspaceId,
      branch,
      taskState: 'pending',
      createdAt: new Date().toISOString(),
      ...(auditor && { requestedBy: auditor.actor, requestId: auditor.requestId }),
    };
    // The task exists before the branch names it: a pull that reads the claim always finds its task open,
    // rather than taking a claim whose task is not written yet for a stale one and starting a second pull.
    await deps.store.createTask(task);
    // Of two pulls asked for at once, one claims the branch and the other returns its task; the loser's task never runs.
    // The claim starts the pull: its audit record goes with it (a loser, which starts nothing, records nothing).
    const audit = auditEvent(auditor, { type: 'task', id: task.taskId, branch });
    if (!(await deps.store.claimBranchPull(workspaceId, branch, task.taskId, active, audit))) {
      await deps.store.transitionTask(task.taskId, ['pending'], {
        taskState: 'failed',
        finishedAt: new Date().toISOString(),
        error: 'Another pull of this branch started at the same moment; this one was not run.',
      });
      continue;
    }
    try {
      await deps.queue.send({ taskId: task.taskId, workspaceId });
    } catch (error) {
      await deps.store.transitionTask(task.taskId, ['pending'], {
        taskState: 'failed',
        finishedAt: new Date().toISOString(),
        error: 'The pull could not be queued. Retry after a delay.',
      });
      await deps.store.releaseBranchPull(workspaceId, branch, task.taskId);
      throw error;
    }
    return task;
  }
  throw errors.pullConflict();
}
