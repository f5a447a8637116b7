/**
 * The queue's side of a task: SQS batches in, partial batch failures out.
 * Each message's task is run by its kind's runner, which the worker function
 * gives (a pull's from lib/remote/run.ts, a workflow run's from
 * lib/workflows/tasks.ts, a replay's from lib/replay/run.ts).
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../logging/logger.ts';
import { isOpenTask, type Task, type TaskStore } from '../store/types.ts';
import { partOf, type TaskKind } from './kinds.ts';
import type { TaskMessage, TaskQueue } from './queue.ts';

/** One receive of a task's message. */
export interface Delivery {
  /** 1 for the first receive of the message. */
  attempt: number;
  /** The receive after which the queue gives the message to its dead-letter queue. */
  maxAttempts: number;
}

/**
 * What a runner asks of the queue: "done" deletes the message; "retry" has
 * it delivered again; "dead-letter" says the task failed after the last
 * delivery, and the message is reported failed once more, so the queue moves
 * it to the dead-letter queue (which raises an alarm).
 */
export type DeliveryOutcome = 'done' | 'retry' | 'dead-letter';

/** Runs one delivery of an open task of its kind: the task's first message, or one of its shards' (`message.shard`). */
export type TaskRunner<K extends TaskKind = TaskKind> = (task: Task<K>, delivery: Delivery, message: TaskMessage) => Promise<DeliveryOutcome>;

/** Each kind's runner. */
export type TaskRunners = { [K in TaskKind]: TaskRunner<K> };

/** How a message whose task is to be tried again comes back, and how often at most. */
export interface Retries {
  maxAttempts: number;
  /** The first retry waits this long, each further one twice as long as the one before. */
  baseDelaySeconds: number;
  queue: Pick<TaskQueue, 'delay'>;
}

/** SQS's limit on a message's visibility timeout. */
const maxDelaySeconds = 12 * 3600;

export const retryDelaySeconds = (attempt: number, baseDelaySeconds: number) => Math.min(maxDelaySeconds, baseDelaySeconds * 2 ** (attempt - 1));

/**
 * Runs each message's task; a message whose task should be tried again, or
 * whose last try failed transiently, is reported as failed, so SQS redelivers
 * only that one, after a delay that doubles with each attempt, and after
 * `maxAttempts` receives moves it to the dead-letter queue. A message whose
 * task is gone or has ended is done with: a finished task is never reopened.
 */
export async function handleTaskMessages(
  deps: { store: Pick<TaskStore, 'getTask'>; runners: TaskRunners },
  event: SQSEvent,
  retries: Retries,
): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const message = JSON.parse(record.body) as TaskMessage;
      const { taskId, shard } = message;
      const attempt = Number(record.attributes.ApproximateReceiveCount);
      const task = await deps.store.getTask(taskId);
      const outcome =
        task && isOpenTask(task) ? await partOf<TaskRunner>(deps.runners, task)(task, { attempt, maxAttempts: retries.maxAttempts }, message) : 'done';
      logger.info('task delivery', { taskId, shard, attempt, outcome, kind: task?.kind });
      if (outcome === 'done') continue;
      batchItemFailures.push({ itemIdentifier: record.messageId });
      // Without this the retry would wait the queue's whole visibility timeout; if it fails, it still does.
      if (outcome === 'retry')
        await retries.queue
          .delay(record.receiptHandle, retryDelaySeconds(attempt, retries.baseDelaySeconds))
          .catch((error: Error) => logger.warn('could not delay the retry', error));
    } catch (error) {
      logger.error('task delivery failed', error as Error);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
