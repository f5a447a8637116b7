/** Taking a task for a run: what every kind of task whose run may be taken over (a pull, a push, a replay's planning) does first. */
import { randomUUID } from 'node:crypto';
import type { Task, TaskKind, TaskStore } from '../store/types.ts';

/** The task a claim answers: the same task, of the same kind, in its new state (a transition never changes a kind). */
const claimed = <K extends TaskKind>(task: Promise<Task | undefined>) => task as Promise<Task<K> | undefined>;

/** Claims the task for this run, under a lease of `leaseMs`: a pending task, or one whose last run's lease ran out (it stopped); undefined when another run holds it. */
export async function claimTask<K extends TaskKind>(store: Pick<TaskStore, 'transitionTask'>, task: Task<K>, leaseMs: number): Promise<Task<K> | undefined> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
  const change = { taskState: 'in-progress' as const, runId: randomUUID(), leaseUntil, dueAt: leaseUntil };
  if (task.taskState === 'pending') return claimed(store.transitionTask(task.taskId, ['pending'], { ...change, startedAt: now.toISOString() }));
  return claimed(store.transitionTask(task.taskId, ['in-progress'], change, { leaseExpiredBefore: now.toISOString() }));
}
