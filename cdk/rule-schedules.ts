/**
 * Rule schedules' deployed half. The API functions create the schedules in
 * EventBridge Scheduler themselves (one per rule and branch, in a group per
 * workspace, lib/schedules); the stack gives them what those schedules
 * need: the scheduled-run function they target, the role Scheduler assumes
 * to invoke it, and a dead-letter queue with an alarm. And it grants the
 * schedule functions Scheduler's write actions on this stack's groups only
 * (their names start with the stack's group prefix), and iam:PassRole on
 * that one role, for Scheduler only.
 *
 * Scheduler invokes a Lambda function asynchronously: its retry policy and
 * dead-letter queue (set on each schedule, lib/schedules/aws-scheduler.ts)
 * cover runs it could not deliver, and the function's own asynchronous
 * invocation settings cover runs that failed in it (a store failure: the
 * only failure it throws), with a bounded retry and the same dead-letter
 * queue. So every run that was never recorded ends in one queue, and one
 * alarm tells.
 */
import { Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { groupPrefixFor } from '../lib/schedules/scheduler.ts';
import { deadLetterAlarm, deadLetterQueue } from './dead-letters.ts';
import { InlinePolicyRole } from './inline-policy-role.ts';
import { ServiceFunction } from './service-function.ts';

/** Retries of a run that failed in the function (Lambda's asynchronous invocation), and how long it may keep being retried. */
export const runRetries = { attempts: 2, maxEventAge: Duration.hours(1) };

export interface RuleSchedulesProps {
  /** Environment the scheduled-run function needs (the table name). */
  environment: Record<string, string>;
  /** Grants a function what it needs of the table. */
  grant(fn: ServiceFunction, needs: { table: 'readWrite' }): void;
  /** Reserved concurrency of the scheduled-run function (`scheduledRuns` in ./limits.ts). */
  reservedConcurrency?: number;
}

export class RuleSchedules extends Construct {
  /** The target of every schedule: runs the rule and records the run. */
  readonly runner: ServiceFunction;
  /** The role Scheduler assumes to invoke the runner (and to send to the dead-letter queue). */
  readonly executionRole: InlinePolicyRole;
  readonly deadLetters: Queue;
  readonly deadLetterAlarm: Alarm;
  /** Every schedule group of this stack is named `<prefix>.<workspace>` or `<prefix>_<...>` (lib/schedules/scheduler.ts). */
  readonly groupPrefix: string;

  constructor(scope: Construct, id: string, props: RuleSchedulesProps) {
    super(scope, id);
    const stack = Stack.of(this);
    if (Token.isUnresolved(stack.stackName)) throw new Error('The schedule group prefix is made from the stack name, which must be known at synthesis');
    this.groupPrefix = groupPrefixFor(stack.stackName);

    this.deadLetters = deadLetterQueue(this, 'DeadLetters');
    Validations.of(this.deadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself the dead-letter queue of the rule schedules (Scheduler's DeadLetterConfig and the scheduled-run function's on-failure destination): nothing consumes it but people looking into failed runs.",
    });

    this.runner = new ServiceFunction(this, 'Runner', {
      handler: 'run-scheduled-rule',
      description: 'Runs a rule on its schedule and records the run',
      timeout: Duration.seconds(30),
      environment: props.environment,
      reservedConcurrentExecutions: props.reservedConcurrency,
    });
    props.grant(this.runner, { table: 'readWrite' });
    this.runner.function.configureAsyncInvoke({
      retryAttempts: runRetries.attempts,
      maxEventAge: runRetries.maxEventAge,
      onFailure: new SqsDestination(this.deadLetters),
    });

    this.executionRole = new InlinePolicyRole(this, 'ExecutionRole', {
      // Only on behalf of this account's schedules (the confused deputy).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': stack.account } } }),
      description: 'EventBridge Scheduler invokes the scheduled-run function with it',
    });
    this.executionRole.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.runner.function.functionArn] }));
    this.executionRole.addToPolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deadLetters.queueArn] }));

    this.deadLetterAlarm = deadLetterAlarm(
      this,
      'DeadLetterAlarm',
      this.deadLetters,
      'Scheduled rule runs reached the dead-letter queue: they were not delivered, or failed in the function after every retry, and are not recorded',
    );
  }

  /** What a function that saves schedules reads (schedulerFromEnv in lib/schedules/aws-scheduler.ts). */
  get environment(): Record<string, string> {
    return {
      SCHEDULE_TARGET_ARN: this.runner.function.functionArn,
      SCHEDULER_ROLE_ARN: this.executionRole.roleArn,
      SCHEDULE_DLQ_ARN: this.deadLetters.queueArn,
      SCHEDULE_GROUP_PREFIX: this.groupPrefix,
    };
  }

  /** Names, with wildcards, of this stack's schedule groups (`schedule-group`) or of the schedules in them (`schedule`). */
  private ownNames(resource: ScheduleResource): string[] {
    return ['.', '_'].map((separator) => `${this.groupPrefix}${separator}*${resource === 'schedule' ? '/*' : ''}`);
  }

  ownArns(resource: ScheduleResource): string[] {
    return this.ownNames(resource).map((resourceName) => Stack.of(this).formatArn({ service: 'scheduler', resource, resourceName }));
  }

  /** Lets a function create, replace and delete schedules in this stack's groups (creating a group when missing), targeting the runner. */
  grantScheduling(fn: ServiceFunction): void {
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'],
        resources: this.ownArns('schedule'),
      }),
    );
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['scheduler:CreateScheduleGroup'], resources: this.ownArns('schedule-group') }));
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.executionRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    const resources = (['schedule', 'schedule-group'] as const).flatMap((resource) => this.ownNames(resource).map((name) => `${resource}/${name}`));
    Validations.of(fn.role).acknowledge(
      ...resources.map((resource) => ({
        // As cdk-nag names the ARN formatArn makes, pseudo parameters and all.
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:${resource}]`,
        reason: `Schedules and their groups are made at run time, a schedule per rule and branch in a group per workspace: the wildcard stands for those names, within this stack's groups (prefix "${this.groupPrefix}") only.`,
      })),
    );
  }
}

type ScheduleResource = 'schedule' | 'schedule-group';
