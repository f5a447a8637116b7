/**
 * Ends, on a schedule, the tasks that no run can finish any more, so that none
 * stays open forever. What a stopped task says, and what else ending it lets
 * go of, is its kind's (lib/remote/stopped.ts, lib/workflows/stopped.ts).
 */
import { isOpenTask, openTaskStates, type Task, type TaskStore } from '../store/types.ts';
import { partOf, type TaskKind } from './kinds.ts';

/** What the sweeper needs of the tasks of kind `K`; `S`, the store its release writes to (the sweeper's own store has every kind's ports). */
export interface SweptKind<K extends TaskKind = TaskKind, S extends TaskStore = TaskStore> {
  /** Why a task of this kind stopped before it finished: the error the sweeper ends it with. */
  reason(task: Task<K>): string;
  /** Lets go of what the task held besides itself, once the sweeper has ended it. */
  release?(store: S, task: Task<K>): Promise<void>;
}

/** Each kind's part of the sweep. */
export type SweptKinds<S extends TaskStore = TaskStore> = { [K in TaskKind]: SweptKind<K, S> };

/**
 * Ends tasks that can no longer finish: pending past their deadline, in
 * progress past their lease, or past the later deadline a run set to wait
 * for the message's next delivery (a pull that stopped while writing).
 */
export async function sweepTasks<S extends TaskStore>(store: S, kinds: SweptKinds<S>, now = new Date()): Promise<number> {
  let swept = 0;
  for (const taskId of await store.listOverdueTasks(now.toISOString())) {
    const task = await store.getTask(taskId);
    if (!task || !isOpenTask(task)) continue;
    const kind = partOf<SweptKind<TaskKind, S>>(kinds, task);
    const ended = await store.transitionTask(
      taskId,
      openTaskStates,
      { taskState: 'failed', finishedAt: now.toISOString(), error: kind.reason(task) },
      { leaseExpiredBefore: now.toISOString() },
    );
    if (ended) {
      await kind.release?.(store, ended);
      swept++;
    }
  }
  return swept;
}
