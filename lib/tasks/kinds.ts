/**
 * The kinds of task the queue carries, told apart by the task's record (a
 * workflow run's names the run, a push's has its push, a replay's its
 * replay). What is particular to a kind (how to run it, what to say when it
 * stopped) lives with the kind, in lib/remote, lib/workflows and lib/replay, and reaches the worker and the sweeper as a `TaskKinds`
 * record: the task machinery depends on no kind.
 */
import type { Task } from '../store/types.ts';

export type TaskKind = 'pull' | 'push' | 'workflowRun' | 'replay';

/** A task with no workflow run, push or replay is a pull: pulls were the first tasks, and their records name no kind. */
export const kindOf = (task: Task): TaskKind => (task.workflowRun ? 'workflowRun' : task.push ? 'push' : task.replay ? 'replay' : 'pull');

/** What each kind of task gives the task machinery. */
export type TaskKinds<T> = Record<TaskKind, T>;
