/** Work done outside the request that asked for it (a pull, a push, a queued workflow run, a replay), kept so that users can follow it and a dead run is taken over. */
import type { AuditActor } from './audit.ts';

export type TaskState = 'pending' | 'in-progress' | 'completed' | 'failed';

/** The states of a task that has not ended: a run may still take it, the sweeper may still end it. */
export const openTaskStates: TaskState[] = ['pending', 'in-progress'];
export const isOpenTask = (task: Pick<Task, 'taskState'>) => openTaskStates.includes(task.taskState);

/** A range of a rule's recorded executions in key order, as the store finds it: its first and last positions (opaque to the domain) and how many it holds. */
export interface ExecutionRange {
  first: string;
  last: string;
  count: number;
}

/** A task whose work is split into shards, each a message of its own (a replay of many executions): how many, and those done. */
export interface TaskShards {
  count: number;
  /** When each shard finished, by its index: a shard delivered twice is recorded once. */
  done: Record<string, string>;
}

/**
 * What each kind of task holds besides what every task does, by kind. Each
 * kind's area declares its own entry, its data type beside the code that
 * runs it (lib/remote/task.ts, lib/workflows/task.ts, lib/replay/task.ts, by
 * merging into this interface), so that the store keeps every kind's record
 * without importing an area.
 */
export interface TaskKindData {}

/** The kinds of task the queue carries: a pull, a push, an asynchronous workflow run, a replay. */
export type TaskKind = keyof TaskKindData;

/** What every task holds, whatever its kind: what users need to follow it (its state, pending, in-progress, then completed or failed, and what came of it) and what its runs need to hold it. */
export interface TaskCommon {
  taskId: string;
  workspaceId: string;
  branch: string;
  taskState: TaskState;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  error?: string;
  /** While in progress: until when the current run holds it; a run found past it is taken as dead. */
  leaseUntil?: string;
  /** Identifies the run that holds the task, so only it can finish it. */
  runId?: string;
  /** When the sweeper may end it if it is still open; for a run, its lease, for a retry, after the next delivery. */
  dueAt?: string;
  /** Who asked for it and in which request: the audit record of what the task then changes names them. */
  requestedBy?: AuditActor;
  requestId?: string;
  /** Set once a task's work is split into shards. */
  shards?: TaskShards;
}

/** A task of kind `K` (any kind by default): what every task holds, its kind, and its kind's own data. */
export type Task<K extends TaskKind = TaskKind> = K extends TaskKind ? TaskCommon & { kind: K } & TaskKindData[K] : never;

/** What a transition changes of a task: any of what every task holds, and of what its kind holds. A transition never changes a task's kind. */
export type TaskChange = Partial<Omit<TaskCommon, 'taskId' | 'workspaceId' | 'branch' | 'createdAt'>> & { [K in TaskKind]: Partial<TaskKindData[K]> }[TaskKind];
