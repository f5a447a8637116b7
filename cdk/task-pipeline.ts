/**
 * The task queue (lib/tasks), on which remote pulls and pushes, asynchronous
 * workflow runs and replays wait, with its dead-letter queue and alarms, the worker that consumes
 * it, and the sweeper that ends tasks no run can finish any more.
 */
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterAlarm, deadLetterQueue } from './dead-letters.ts';
import { ServiceFunction } from './service-function.ts';
import { taskDelivery, taskTimes } from '../lib/tasks/delivery.ts';

const workerTimeout = Duration.millis(taskTimes.workerTimeoutMs);

export interface TaskPipelineProps {
  /** Environment every function of the pipeline needs (table name, key id). */
  environment: Record<string, string>;
  /** Grants a function what it needs of the table and the credentials key. */
  grant(fn: ServiceFunction, needs: { table: 'readWrite'; key?: 'decrypt' }): void;
}

export class TaskPipeline extends Construct {
  readonly queue: Queue;
  readonly deadLetters: Queue;
  readonly worker: ServiceFunction;
  readonly sweeper: ServiceFunction;

  constructor(scope: Construct, id: string, props: TaskPipelineProps) {
    super(scope, id);

    // The queues' ids are those they had when the pipeline carried pulls alone: a queue whose id changes is replaced, and the
    // messages in flight are lost (test/cdk/stateful-ids.test.ts).
    this.deadLetters = deadLetterQueue(this, 'DeadLetters');
    this.queue = new Queue(this, 'Tasks', {
      // Longer than the worker may run, so a message is never handed to a second worker while the first still runs.
      visibilityTimeout: Duration.seconds(Math.ceil(workerTimeout.toSeconds() * 1.2)),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: taskDelivery.maxReceiveCount },
    });

    this.worker = new ServiceFunction(this, 'Worker', {
      handler: 'task-worker',
      description: 'Runs the tasks of the task queue: remote pulls and pushes, asynchronous workflow runs, replays',
      timeout: workerTimeout,
      // Unpacking a Git pack file is CPU- and memory-bound.
      memorySize: 1024,
      environment: {
        ...props.environment,
        MAX_RECEIVE_COUNT: String(taskDelivery.maxReceiveCount),
        TASK_RETRY_BASE_SECONDS: String(taskDelivery.retryBaseSeconds),
        // The worker delays a retry by changing the received message's visibility.
        TASK_QUEUE_URL: this.queue.queueUrl,
      },
    });
    props.grant(this.worker, { table: 'readWrite', key: 'decrypt' });
    // A replay's first message sends one message per shard of its window (lib/replay/run.ts).
    this.queue.grantSendMessages(this.worker.function);
    this.worker.function.addEventSource(
      new SqsEventSource(this.queue, { batchSize: taskDelivery.batchSize, maxConcurrency: taskDelivery.maxConcurrency, reportBatchItemFailures: true }),
    );

    this.sweeper = new ServiceFunction(this, 'Sweeper', {
      handler: 'task-sweeper',
      description: 'Fails tasks that can no longer finish',
      timeout: Duration.minutes(1),
      environment: props.environment,
    });
    props.grant(this.sweeper, { table: 'readWrite' });
    new Rule(this, 'SweepSchedule', { schedule: Schedule.rate(Duration.minutes(5)), targets: [new LambdaFunction(this.sweeper.function)] });

    new Alarm(this, 'BacklogAlarm', {
      alarmDescription: 'Tasks are waiting: the worker is not keeping up or not running',
      metric: this.queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 100,
      evaluationPeriods: 3,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    deadLetterAlarm(this, 'DeadLetterAlarm', this.deadLetters, 'Task messages reached the dead-letter queue: their tasks failed after every retry');
  }
}
