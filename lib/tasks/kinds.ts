/**
 * The kinds of task the queue carries, told apart by the task's record (a
 * workflow run's names the run, a push's has its push). What is particular to
 * a kind (how to run it, what to say when it stopped) lives with the kind, in lib/pull and
 * lib/workflows, and reaches the worker and the sweeper as a `TaskKinds`
 * record: the task machinery depends on no kind.
 */
import type { Task } from '../store/types.ts';

export type TaskKind = 'pull' | 'push' | 'workflowRun';

/** A task with neither a workflow run nor a push is a pull: pulls were the first tasks, and their records name no kind. */
export const kindOf = (task: Task): TaskKind => (task.workflowRun ? 'workflowRun' : task.push ? 'push' : 'pull');

/** What each kind of task gives the task machinery. */
export type TaskKinds<T> = Record<TaskKind, T>;
