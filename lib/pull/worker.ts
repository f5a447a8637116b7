/** The queue's side of a pull: SQS batches in, partial batch failures out. */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../http/logger.ts';
import type { TaskMessage } from './queue.ts';
import { runPullTask, type RunDeps } from './run.ts';

/**
 * Runs each message's task; a message whose task should be tried again, or
 * whose last try failed transiently, is reported as failed, so SQS redelivers
 * only that one after its visibility timeout, and after `maxAttempts`
 * receives moves it to the dead-letter queue.
 */
export async function handleTaskMessages(deps: RunDeps, event: SQSEvent, maxAttempts: number): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const { taskId } = JSON.parse(record.body) as TaskMessage;
      const attempt = Number(record.attributes.ApproximateReceiveCount);
      const outcome = await runPullTask(deps, taskId, { attempt, maxAttempts });
      logger.info('pull task delivery', { taskId, attempt, outcome });
      if (outcome !== 'done') batchItemFailures.push({ itemIdentifier: record.messageId });
    } catch (error) {
      logger.error('pull task delivery failed', error as Error);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
