/**
 * Asynchronous workflow runs, a kind of task on the queue and worker of
 * lib/tasks: `execute` with `async: true` writes a pending task naming the
 * version to run and sends its id; the worker claims it (in progress, under a
 * lease), runs it with the workflow's whole deadline rather than the
 * synchronous one, and ends it completed (the run succeeded) or failed (a
 * step failed, or the run could not start), keeping the run's answer in the
 * task. Steps may have effects on providers, so a run is never started
 * twice: a delivery that finds the task already taken leaves it, and one
 * whose worker died is failed (by the next delivery or the sweeper) rather
 * than run again.
 */
import { randomUUID } from 'node:crypto';
import { convertParams } from '../engine/compile.ts';
import { queueTask, type QueueDeps } from '../tasks/start.ts';
import { newExecutionId, withoutOutputs } from '../rules/executions.ts';
import { type EntityRef, type EntityStore, type Task, type TaskStore } from '../store/types.ts';
import { publishedWorkflow } from './load.ts';
import { publishedWithRules, runAndRecord, type RunAnswer, type RunDeps } from './run.ts';
import { workflowRunStopped } from './stopped.ts';
import { parseJson } from '../decimal/json.ts';

/** The largest run answer a task keeps whole; past it the steps' outputs are left out, then the output too (a task is one DynamoDB item). */
export const maxTaskResultBytes = 64 * 1024;

/**
 * Checks what can be checked at once (the version to run exists and was
 * prepared, the params fit its inputs: 409 and 400 as for a synchronous run),
 * then queues the run.
 */
export async function startWorkflowRun(
  deps: QueueDeps & { store: EntityStore },
  ref: EntityRef,
  request: { params: Record<string, unknown>; version?: string },
) {
  const workflow = await publishedWorkflow(deps.store, ref, request.version);
  convertParams(request.params, workflow.workflow.definition.inputs);
  const task: Task<'workflowRun'> = {
    kind: 'workflowRun',
    taskId: randomUUID(),
    workspaceId: ref.workspaceId,
    branch: ref.branch,
    taskState: 'pending',
    createdAt: new Date().toISOString(),
    workflowRun: { workflowId: ref.id, version: workflow.version, executionId: newExecutionId(), paramsJson: JSON.stringify(request.params) },
  };
  await queueTask(deps, task, 'The run');
  return { taskId: task.taskId, taskState: task.taskState, executionId: task.workflowRun.executionId, version: workflow.version };
}

/** A run's answer as a task keeps it: whole when small, else without the steps' outputs, else without its output too. */
export function keptResult(answer: RunAnswer): RunAnswer & { outputOmitted?: boolean } {
  const fits = (value: unknown) => Buffer.byteLength(JSON.stringify(value)) <= maxTaskResultBytes;
  if (fits(answer)) return answer;
  const steps = withoutOutputs(answer.steps);
  if (fits({ ...answer, steps })) return { ...answer, steps };
  const { output: _output, ...rest } = answer;
  return { ...rest, steps, outputOmitted: true };
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs one delivery of a workflow-run task's message. Always "done": a run
 * is never delivered to a second worker for another try.
 */
export async function runWorkflowTask(
  deps: RunDeps & { store: TaskStore },
  task: Task<'workflowRun'>,
  bounds: { leaseMs: number; runMs: number },
): Promise<'done'> {
  const run = task.workflowRun;
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + bounds.leaseMs).toISOString();
  if (task.taskState === 'in-progress') {
    // Taken before by a worker that did not finish it: its steps may have had effects, so it is not run again.
    await deps.store.transitionTask(
      task.taskId,
      ['in-progress'],
      { taskState: 'failed', finishedAt: now.toISOString(), error: workflowRunStopped },
      { leaseExpiredBefore: now.toISOString() },
    );
    return 'done';
  }
  const claimed = await deps.store.transitionTask(task.taskId, ['pending'], {
    taskState: 'in-progress',
    runId: randomUUID(),
    startedAt: now.toISOString(),
    leaseUntil,
    dueAt: leaseUntil,
  });
  if (!claimed) return 'done';
  const finish = (change: Partial<Task>) =>
    deps.store.transitionTask(task.taskId, ['in-progress'], { ...change, finishedAt: new Date().toISOString() }, { runId: claimed.runId });
  const ref: EntityRef = { workspaceId: task.workspaceId, branch: task.branch, entityType: 'workflow', id: run.workflowId };
  try {
    const { workflow, loadRule } = await publishedWithRules(deps.store, ref, run.version);
    // The worker's time limit bounds the run too (it is less than the lease, so the sweeper never fails a run that is still going).
    const timeoutMs = Math.min(workflow.workflow.definition.timeoutMs, bounds.runMs);
    const params = parseJson(run.paramsJson) as Record<string, unknown>;
    const answer = await runAndRecord(deps, ref, workflow, params, {
      loadRule,
      timeoutMs,
      record: workflow.recordExecutions,
      executionId: run.executionId,
      counted: true,
    });
    const workflowRun = { ...run, resultJson: JSON.stringify(keptResult(answer)) };
    await finish(
      answer.status === 'succeeded'
        ? { taskState: 'completed', workflowRun }
        : { taskState: 'failed', workflowRun, error: `The step "${answer.error!.stepId}" failed: ${answer.error!.message}` },
    );
  } catch (error) {
    // The run could not start: the version is gone, or the params no longer fit (an error the API would have answered).
    await finish({ taskState: 'failed', error: describe(error) });
  }
  return 'done';
}
