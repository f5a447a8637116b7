/** Work done outside the request that asked for it (a pull, a push, a queued workflow run, a replay), kept so that users can follow it and a dead run is taken over. */
import type { AuditActor } from './audit.ts';

export type TaskState = 'pending' | 'in-progress' | 'completed' | 'failed';

/** The states of a task that has not ended: a run may still take it, the sweeper may still end it. */
export const openTaskStates: TaskState[] = ['pending', 'in-progress'];
export const isOpenTask = (task: Pick<Task, 'taskState'>) => openTaskStates.includes(task.taskState);

/** What a pull changed on the branch, or a push on the remote's branch. */
export interface PullSummary {
  /** Per entity type: how the pull changed the branch (a push: the remote's files). */
  rule: ChangeCounts;
  workflow: ChangeCounts;
  /** Top-level folders of the repository that hold no entities, ignored (a push leaves them as they are). */
  ignoredFolders: string[];
  /** What the files of other tools (DMN, XLSX, CSV, JDM) hold that no rule keeps, by file and element, and why: the first 100. */
  notCarried?: { path: string; message: string }[];
}

export interface ChangeCounts {
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
}

/** What a task that runs a workflow holds: the version it runs, its params, and the run when it ended. */
export interface WorkflowRunTask {
  workflowId: string;
  version: string;
  executionId: string;
  /** As JSON text: any JSON a caller sent stores as it came. */
  paramsJson: string;
  resultJson?: string;
}

/** What a push task holds besides what every task does. */
export interface PushTask {
  /**
   * The commit a run made and began to send, with what it changes and its
   * message: recorded before it is sent, so that a later run of the task that
   * finds the remote's branch at it knows the push went through.
   */
  sending?: { commit: string; summary: PullSummary; message: string };
  /** Once completed: whether a commit was pushed (false: the remote's branch already held what the branch holds). */
  pushed?: boolean;
}

/** A range of a rule's recorded executions in key order, as the store finds it: its first and last positions (opaque to the domain) and how many it holds. */
export interface ExecutionRange {
  first: string;
  last: string;
  count: number;
}

/** Where a replay's inputs come from: a rule's recorded executions in a window (newest `limit` of it), or a list given with the request. */
export type ReplaySource = { executions: { from: string; to: string; limit: number } } | { paramsList: { count: number } };

/** One side of a replay: `draft` or a version label, with the checksum it had when the replay was asked. */
export interface ReplaySide {
  label: string;
  checksum: string;
}

/** What a replay task holds (lib/replay): the rule, both sides, where its inputs come from, and the report once it ends. */
export interface ReplayTask {
  ruleId: string;
  candidate: ReplaySide;
  baseline: ReplaySide;
  source: ReplaySource;
  /** The inputs of a `paramsList` source as JSON text (any JSON a caller sent stores as it came), until the task ends. */
  paramsJson?: string;
  /** The ranges of executions each shard reads, by shard, recorded before their messages are sent; dropped when the task ends. */
  ranges?: ExecutionRange[];
  /** The report (lib/replay/report.ts) as JSON text, once completed. */
  reportJson?: string;
  /** Set on a replay the publish gate ran: its bound, and whether the draft passed it. */
  gate?: { maxChangedRatio: number; window: string; passed: boolean };
}

/** A task whose work is split into shards, each a message of its own (a replay of many executions): how many, and those done. */
export interface TaskShards {
  count: number;
  /** When each shard finished, by its index: a shard delivered twice is recorded once. */
  done: Record<string, string>;
}

/** A remote pull or push task, an asynchronous workflow run or a replay, with what users need to follow it: its state (pending, in-progress, then completed or failed) and what came of it. */
export interface Task {
  taskId: string;
  workspaceId: string;
  branch: string;
  taskState: TaskState;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** The remote's commit once completed: the one pulled, or the one a push left the remote's branch at. */
  commit?: string;
  /** Once completed: what a pull changed on the branch, or what a push changed on the remote's branch. */
  summary?: PullSummary;
  error?: string;
  /** While in progress: until when the current run holds it; a run found past it is taken as dead. */
  leaseUntil?: string;
  /** Identifies the run that holds the task, so only it can finish it. */
  runId?: string;
  /** When the sweeper may end it if it is still open; for a run, its lease, for a retry, after the next delivery. */
  dueAt?: string;
  /**
   * A pull's commit, set by a run before it writes the first entity: a task
   * that stopped with it set may have left the branch partly updated, so
   * the run that takes it over finishes the update, and failing it says so.
   */
  applyingCommit?: string;
  /** What the run that set `applyingCommit` planned to change: the summary of the pull, whichever run finishes writing it. */
  applyingSummary?: PullSummary;
  /** Who asked for it and in which request: the audit record of what the task then changes names them. */
  requestedBy?: AuditActor;
  requestId?: string;
  /** Set for a workflow run; a pull has none. */
  workflowRun?: WorkflowRunTask;
  /** Set for a push (`{}` until its run sends a commit); a pull has none. */
  push?: PushTask;
  /** Set for a replay of a rule. */
  replay?: ReplayTask;
  /** Set once a task's work is split into shards. */
  shards?: TaskShards;
}
