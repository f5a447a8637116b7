/** A task as its workspace follows it, whatever its kind: what the task operations answer. */
import { errors } from '../vocabulary/errors.ts';
import type { Task, TaskStore } from '../store/types.ts';
import { parseJson } from '../decimal/json.ts';

/**
 * A task as users see it: its progress, never the bookkeeping of runs. A
 * completed task shows no error: the one a retried delivery left is over.
 */
export const taskView = (task: Task) => {
  const { taskId, taskState, branch, createdAt, startedAt, finishedAt, error, shards } = task;
  return {
    taskId,
    taskState,
    branch,
    createdAt,
    startedAt,
    finishedAt,
    ...((task.kind === 'pull' || task.kind === 'push') && { commit: task.commit, summary: task.summary }),
    error: taskState === 'completed' ? undefined : error,
    ...(task.kind === 'workflowRun' && {
      workflowRun: {
        workflowId: task.workflowRun.workflowId,
        version: task.workflowRun.version,
        executionId: task.workflowRun.executionId,
        // The run's answer (lib/workflows/tasks.ts), once it ended.
        ...(task.workflowRun.resultJson !== undefined && { result: parseJson(task.workflowRun.resultJson) as unknown }),
      },
    }),
    // A push's: once completed, whether it sent a commit (lib/remote/push-run.ts), and that commit's message.
    ...(task.kind === 'push' && {
      push: {
        ...(task.push.pushed !== undefined && { pushed: task.push.pushed }),
        ...(task.push.pushed && task.push.sending && { message: task.push.sending.message }),
      },
    }),
    // A replay's (lib/replay): what it compares, on what, and once completed its report.
    ...(task.kind === 'replay' && {
      replay: {
        ruleId: task.replay.ruleId,
        candidate: task.replay.candidate,
        baseline: task.replay.baseline,
        source: task.replay.source,
        ...(task.replay.gate && { gate: task.replay.gate }),
        ...(task.replay.reportJson !== undefined && { report: parseJson(task.replay.reportJson) as unknown }),
      },
    }),
    ...(shards && { shards: { count: shards.count, done: Object.keys(shards.done).length } }),
  };
};

export async function getTask(store: TaskStore, workspaceId: string, taskId: string, limitedTo?: readonly string[]) {
  const task = await store.getTask(taskId);
  // Another workspace's task is not found, rather than forbidden: ids reveal nothing.
  if (!task || task.workspaceId !== workspaceId) throw errors.taskNotFound(taskId);
  // A key limited to some branches reads the tasks of those only (the branch is known once the task is read).
  if (limitedTo && !limitedTo.includes(task.branch)) throw errors.branchForbidden(task.branch, limitedTo);
  return taskView(task);
}
