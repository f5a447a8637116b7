/**
 * What a pull's and a push's tasks hold besides what every task does: the
 * Git remote's kinds of task, declared into the store's task record
 * (TaskKindData, lib/store/model/tasks.ts) from here, beside the runs that
 * read them (./pull-run.ts, ./push-run.ts).
 */
import type {} from '../store/model/tasks.ts';

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

/** What a pull's or a push's task tells of the remote once it completed. */
interface Synced {
  /** The remote's commit once completed: the one pulled, or the one a push left the remote's branch at. */
  commit?: string;
  /** Once completed: what a pull changed on the branch, or what a push changed on the remote's branch. */
  summary?: PullSummary;
}

declare module '../store/model/tasks.ts' {
  interface TaskKindData {
    pull: Synced & {
      /**
       * A pull's commit, set by a run before it writes the first entity: a task
       * that stopped with it set may have left the branch partly updated, so
       * the run that takes it over finishes the update, and failing it says so.
       */
      applyingCommit?: string;
      /** What the run that set `applyingCommit` planned to change: the summary of the pull, whichever run finishes writing it. */
      applyingSummary?: PullSummary;
    };
    /** `push` is `{}` until its run sends a commit. */
    push: Synced & { push: PushTask };
  }
}
