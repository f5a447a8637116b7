/**
 * Rule schedules on EventBridge Scheduler: one schedule per rule and branch
 * in a group per workspace (names: scheduler.ts), cron in the schedule's
 * time zone with its start and end dates (all native to Scheduler), no
 * flexible time window, a bounded retry policy and a dead-letter queue, and
 * the scheduled-run function as target with the run's event as input.
 *
 * A put creates the schedule, and updates it (a whole replacement) when it
 * exists; the group is created when Scheduler says it is missing. A delete
 * of a schedule that is not there is not an error. In the local runtime
 * and tests, the client talks to scheduler-endpoint.ts instead.
 */
import {
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  SchedulerClient,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import {
  checkGroupPrefix,
  defaultGroupPrefix,
  scheduleGroupName,
  scheduleInput,
  scheduleName,
  type DeployedSchedule,
  type RuleScheduler,
  type ScheduleDeployment,
  type ScheduleKey,
  type ScheduleTarget,
} from './scheduler.ts';

export interface AwsSchedulerOptions {
  client: SchedulerClient;
  target: ScheduleTarget;
  /** Group names start with it (default "rules"): one per deployment sharing an account and region. */
  groupPrefix?: string;
  /** Epoch ms now (tests). */
  now?: () => number;
}

const isError = (error: unknown, name: string) => (error as { name?: string } | null)?.name === name;

function checkedTarget(target: ScheduleTarget): Required<ScheduleTarget> {
  const attempts = target.maximumRetryAttempts ?? 3;
  const age = target.maximumEventAgeSeconds ?? 3600;
  if (!Number.isInteger(attempts) || attempts < 0 || attempts > 185) throw new Error(`maximumRetryAttempts must be an integer from 0 to 185, not ${attempts}`);
  if (!Number.isInteger(age) || age < 60 || age > 86_400) throw new Error(`maximumEventAgeSeconds must be an integer from 60 to 86400, not ${age}`);
  return { ...target, maximumRetryAttempts: attempts, maximumEventAgeSeconds: age };
}

export function createAwsScheduler(options: AwsSchedulerOptions): RuleScheduler {
  const { client } = options;
  const target = checkedTarget(options.target);
  const prefix = checkGroupPrefix(options.groupPrefix ?? defaultGroupPrefix);
  const now = options.now ?? Date.now;
  const names = (key: ScheduleKey) => ({ Name: scheduleName(key), GroupName: scheduleGroupName(key.workspaceId, prefix) });

  const ensureGroup = async (workspaceId: string) => {
    try {
      await client.send(new CreateScheduleGroupCommand({ Name: scheduleGroupName(workspaceId, prefix) }));
    } catch (error) {
      if (!isError(error, 'ConflictException')) throw error;
    }
  };

  const request = (deployment: ScheduleDeployment): CreateScheduleCommandInput => {
    const { key } = deployment;
    const startAt = deployment.startAt === undefined ? undefined : Date.parse(deployment.startAt);
    return {
      ...names(key),
      Description: `Rule ${key.ruleId} on branch ${key.branch} of workspace ${key.workspaceId}`.slice(0, 512),
      ScheduleExpression: deployment.expression,
      ScheduleExpressionTimezone: deployment.timezone,
      // Scheduler refuses a start date more than 5 minutes past; one in the past changes nothing, so it is left out.
      ...(startAt !== undefined && startAt > now() && { StartDate: new Date(startAt) }),
      ...(deployment.endAt !== undefined && { EndDate: new Date(deployment.endAt) }),
      State: deployment.enabled ? 'ENABLED' : 'DISABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'NONE',
      Target: {
        Arn: target.functionArn,
        RoleArn: target.roleArn,
        Input: scheduleInput(key, deployment.inputParam),
        RetryPolicy: { MaximumRetryAttempts: target.maximumRetryAttempts, MaximumEventAgeInSeconds: target.maximumEventAgeSeconds },
        DeadLetterConfig: { Arn: target.deadLetterArn },
      },
    };
  };

  return {
    ensureGroup,

    async putSchedule(deployment) {
      const input = request(deployment);
      // Create, else update; a group that is missing is created once; a schedule deleted between the two is created again.
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          await client.send(new CreateScheduleCommand(input));
          return;
        } catch (error) {
          if (isError(error, 'ResourceNotFoundException')) {
            await ensureGroup(deployment.key.workspaceId);
            continue;
          }
          if (!isError(error, 'ConflictException')) throw error;
        }
        try {
          await client.send(new UpdateScheduleCommand(input));
          return;
        } catch (error) {
          if (!isError(error, 'ResourceNotFoundException')) throw error;
        }
      }
      throw new Error(`schedule ${input.GroupName}/${input.Name} could not be created or updated: it kept disappearing`);
    },

    async deleteSchedule(key) {
      try {
        await client.send(new DeleteScheduleCommand(names(key)));
        return true;
      } catch (error) {
        if (isError(error, 'ResourceNotFoundException')) return false;
        throw error;
      }
    },

    async getSchedule(key): Promise<DeployedSchedule | undefined> {
      try {
        const out = await client.send(new GetScheduleCommand(names(key)));
        return {
          groupName: out.GroupName!,
          name: out.Name!,
          expression: out.ScheduleExpression!,
          timezone: out.ScheduleExpressionTimezone ?? 'UTC',
          ...(out.StartDate && { startAt: out.StartDate.toISOString() }),
          ...(out.EndDate && { endAt: out.EndDate.toISOString() }),
          enabled: out.State === 'ENABLED',
          input: out.Target?.Input ?? '',
          ...(out.Target && {
            target: {
              functionArn: out.Target.Arn!,
              roleArn: out.Target.RoleArn!,
              deadLetterArn: out.Target.DeadLetterConfig?.Arn ?? '',
              maximumRetryAttempts: out.Target.RetryPolicy?.MaximumRetryAttempts ?? 185,
              maximumEventAgeSeconds: out.Target.RetryPolicy?.MaximumEventAgeInSeconds ?? 86_400,
            },
          }),
        };
      } catch (error) {
        if (isError(error, 'ResourceNotFoundException')) return undefined;
        throw error;
      }
    },
  };
}

/**
 * From a function's environment: SCHEDULE_TARGET_ARN (the scheduled-run
 * function), SCHEDULER_ROLE_ARN, SCHEDULE_DLQ_ARN, SCHEDULE_GROUP_PREFIX
 * (optional); SCHEDULER_ENDPOINT points the client at the local runtime's
 * Scheduler endpoint.
 */
export function schedulerFor(env: NodeJS.ProcessEnv): RuleScheduler {
  const need = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
  };
  const client = new SchedulerClient(
    env.SCHEDULER_ENDPOINT
      ? { endpoint: env.SCHEDULER_ENDPOINT, region: env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {},
  );
  return createAwsScheduler({
    client,
    target: { functionArn: need('SCHEDULE_TARGET_ARN'), roleArn: need('SCHEDULER_ROLE_ARN'), deadLetterArn: need('SCHEDULE_DLQ_ARN') },
    ...(env.SCHEDULE_GROUP_PREFIX && { groupPrefix: env.SCHEDULE_GROUP_PREFIX }),
  });
}

let fromEnv: RuleScheduler | undefined;

/** The function's scheduler (schedulerFor its environment), made on first use and kept by the warm function. */
export function schedulerFromEnv(env: NodeJS.ProcessEnv = process.env): RuleScheduler {
  fromEnv ??= schedulerFor(env);
  return fromEnv;
}
