/** A task as its workspace follows it, whatever its kind: what the task operations answer. */
import { errors } from '../vocabulary/errors.ts';
import type { Task, TaskStore } from '../store/types.ts';
import { parseJson } from '../decimal/json.ts';

/**
 * A task as users see it: its progress, never the bookkeeping of runs. A
 * completed task shows no error: the one a retried delivery left is over.
 */
export const taskView = ({ taskId, taskState, branch, createdAt, startedAt, finishedAt, commit, summary, error, workflowRun, push, replay, shards }: Task) => ({
  taskId,
  taskState,
  branch,
  createdAt,
  startedAt,
  finishedAt,
  commit,
  summary,
  error: taskState === 'completed' ? undefined : error,
  ...(workflowRun && {
    workflowRun: {
      workflowId: workflowRun.workflowId,
      version: workflowRun.version,
      executionId: workflowRun.executionId,
      // The run's answer (lib/workflows/tasks.ts), once it ended.
      ...(workflowRun.resultJson !== undefined && { result: parseJson(workflowRun.resultJson) as unknown }),
    },
  }),
  // A push's: once completed, whether it sent a commit (lib/remote/push-run.ts), and that commit's message.
  ...(push && {
    push: { ...(push.pushed !== undefined && { pushed: push.pushed }), ...(push.pushed && push.sending && { message: push.sending.message }) },
  }),
  // A replay's (lib/replay): what it compares, on what, and once completed its report.
  ...(replay && {
    replay: {
      ruleId: replay.ruleId,
      candidate: replay.candidate,
      baseline: replay.baseline,
      source: replay.source,
      ...(replay.gate && { gate: replay.gate }),
      ...(replay.reportJson !== undefined && { report: parseJson(replay.reportJson) as unknown }),
    },
  }),
  ...(shards && { shards: { count: shards.count, done: Object.keys(shards.done).length } }),
});

export async function getTask(store: TaskStore, workspaceId: string, taskId: string, limitedTo?: readonly string[]) {
  const task = await store.getTask(taskId);
  // Another workspace's task is not found, rather than forbidden: ids reveal nothing.
  if (!task || task.workspaceId !== workspaceId) throw errors.taskNotFound(taskId);
  // A key limited to some branches reads the tasks of those only (the branch is known once the task is read).
  if (limitedTo && !limitedTo.includes(task.branch)) throw errors.branchForbidden(task.branch, limitedTo);
  return taskView(task);
}
