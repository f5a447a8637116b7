/**
 * Starting a task of a kind that needs nothing else claimed (an asynchronous
 * workflow run, a replay): the task is written pending before its message is
 * sent, so the worker always finds it, and a message that cannot be sent
 * fails the task rather than leaving it pending until the sweeper gives up.
 */
import type { Task, TaskStore } from '../store/types.ts';
import type { TaskQueue } from './queue.ts';

export interface QueueDeps {
  store: Pick<TaskStore, 'createTask' | 'transitionTask'>;
  queue: Pick<TaskQueue, 'send'>;
}

/** Writes `task` (pending) and sends its first message; `what` names it in the failure ("The run"). */
export async function queueTask(deps: QueueDeps, task: Task, what: string): Promise<void> {
  await deps.store.createTask(task);
  try {
    await deps.queue.send({ taskId: task.taskId, workspaceId: task.workspaceId });
  } catch (error) {
    await deps.store.transitionTask(task.taskId, ['pending'], {
      taskState: 'failed',
      finishedAt: new Date().toISOString(),
      error: `${what} could not be queued. Retry after a delay.`,
    });
    throw error;
  }
}
