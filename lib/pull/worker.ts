/** The queue's side of a task (a pull, or an asynchronous workflow run): SQS batches in, partial batch failures out. */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../http/logger.ts';
import type { Task } from '../store/types.ts';
import type { TaskMessage, TaskQueue } from '../tasks/queue.ts';
import { runPullTask, type RunDeps } from './run.ts';

/**
 * Runs each message's task; a message whose task should be tried again, or
 * whose last try failed transiently, is reported as failed, so SQS redelivers
 * only that one, after a delay that doubles with each attempt, and after
 * `maxAttempts` receives moves it to the dead-letter queue.
 */
export interface Retries {
  maxAttempts: number;
  /** The first retry waits this long, each further one twice as long as the one before. */
  baseDelaySeconds: number;
  queue: Pick<TaskQueue, 'delay'>;
}

/** SQS's limit on a message's visibility timeout. */
const maxDelaySeconds = 12 * 3600;

export const retryDelaySeconds = (attempt: number, baseDelaySeconds: number) => Math.min(maxDelaySeconds, baseDelaySeconds * 2 ** (attempt - 1));

/** Runs a task that runs a workflow (lib/workflows/tasks.ts): never tried again by another delivery. */
export type RunWorkflowTask = (task: Task) => Promise<'done'>;

export async function handleTaskMessages(deps: RunDeps & { runWorkflowTask: RunWorkflowTask }, event: SQSEvent, retries: Retries): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const { taskId } = JSON.parse(record.body) as TaskMessage;
      const attempt = Number(record.attributes.ApproximateReceiveCount);
      const task = await deps.store.getTask(taskId);
      const outcome = task?.workflowRun ? await deps.runWorkflowTask(task) : await runPullTask(deps, taskId, { attempt, maxAttempts: retries.maxAttempts });
      logger.info('task delivery', { taskId, attempt, outcome, kind: task?.workflowRun ? 'workflowRun' : 'pull' });
      if (outcome === 'done') continue;
      batchItemFailures.push({ itemIdentifier: record.messageId });
      // Without this the retry would wait the queue's whole visibility timeout; if it fails, it still does.
      if (outcome === 'retry')
        await retries.queue.delay(record.receiptHandle, retryDelaySeconds(attempt, retries.baseDelaySeconds)).catch((error: Error) => logger.warn('could not delay the retry', error));
    } catch (error) {
      logger.error('task delivery failed', error as Error);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
