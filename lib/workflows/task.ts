/**
 * What an asynchronous workflow run's task holds besides what every task
 * does, declared into the store's task record (TaskKindData,
 * lib/store/model/tasks.ts) from here, beside the run that reads it
 * (./tasks.ts).
 */
import type {} from '../store/model/tasks.ts';

/** What a task that runs a workflow holds: the version it runs, its params, and the run when it ended. */
export interface WorkflowRunTask {
  workflowId: string;
  version: string;
  executionId: string;
  /** As JSON text: any JSON a caller sent stores as it came. */
  paramsJson: string;
  resultJson?: string;
}

declare module '../store/model/tasks.ts' {
  interface TaskKindData {
    workflowRun: { workflowRun: WorkflowRunTask };
  }
}
