/**
 * The kinds of task the queue carries, told apart by the task's `kind`. What
 * is particular to a kind (its data, how to run it, what to say when it
 * stopped) lives with the kind, in lib/remote, lib/workflows and lib/replay,
 * and reaches the worker and the sweeper as a record by kind:
 * the task machinery depends on no kind.
 */
import type { Task, TaskKind } from '../store/types.ts';

export type { TaskKind };

/**
 * The part for a task's own kind, taking that task. The compiler cannot
 * follow that `parts[task.kind]` takes `task` (the two are correlated by the
 * kind), so this is the one place that says so.
 */
export const partOf = <Part>(parts: Record<TaskKind, unknown>, task: Task): Part => parts[task.kind] as Part;

/** Whether the task is of kind `kind`: what a kind's run checks of the task its message names. */
export const isKind = <K extends TaskKind>(task: Task | undefined, kind: K): task is Task<K> => task?.kind === kind;
