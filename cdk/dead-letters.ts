/**
 * Dead-letter queues as the stack keeps them (the pull's, the schedules'):
 * encrypted, reachable over TLS only, messages kept 14 days to look into;
 * and the alarm on one, raised by its first message, since anything there
 * is work that failed for good.
 */
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

export const deadLetterQueue = (scope: Construct, id: string): Queue =>
  new Queue(scope, id, { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });

export const deadLetterAlarm = (scope: Construct, id: string, queue: Queue, alarmDescription: string): Alarm =>
  new Alarm(scope, id, {
    alarmDescription,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
    threshold: 0,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
