/**
 * The rule schedules' deployed half in the template: the scheduled-run
 * function (the target), the role Scheduler assumes (it may invoke that
 * function and send to the dead-letter queue, nothing else), the encrypted,
 * TLS-only dead-letter queue with its alarm, the function's own bounded
 * retries ending in that queue, and the schedule functions' grants: write
 * actions on this stack's schedule groups only, iam:PassRole on that one
 * role for Scheduler only, and the environment schedulerFromEnv reads.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runRetries } from '../../cdk/rule-schedules.ts';
import { RulesServiceStack, stackId } from '../../cdk/stack.ts';
import { routeList } from '../../lib/api/routes.ts';
import { scheduleGroupName, scheduleName } from '../../lib/schedules/scheduler.ts';
import { actionsOf, roleStatements, type Statement } from './template-checks.ts';

const cdkContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;
const build = (name = stackId) => {
  const stack = new RulesServiceStack(new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false }), name);
  return { stack, resources: Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string; Properties: any }> };
};
const { stack, resources } = build();
const { schedules } = stack;

const logicalId = (construct: IConstruct) => stack.resolve((construct.node.defaultChild as any).logicalId) as string;
const getAtt = (construct: IConstruct, attribute: string) => ({ 'Fn::GetAtt': [logicalId(construct), attribute] });
const propertiesOf = (construct: IConstruct) => resources[logicalId(construct)]!.Properties;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

/** What each role may do, inline or attached (./template-checks.ts). */
const grants = roleStatements(resources);
const statementsOf = (roleId: string): Statement[] => grants.get(roleId) ?? [];
/** The roles with a statement that `matches`. */
const rolesWith = (matches: (statement: Statement) => boolean) => [...grants].filter(([, statements]) => statements.some(matches)).map(([roleId]) => roleId);
const allStatements = () => [...grants.values()].flat();

const runnerArn = getAtt(schedules.runner.function, 'Arn');
const roleArn = getAtt(schedules.executionRole, 'Arn');
const queueArn = getAtt(schedules.deadLetters, 'Arn');
const schedulerArn = (resource: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':scheduler:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:${resource}`]],
});
const schedulingRoutes = routeList.filter((route) => route.schedulerAccess);

describe('the scheduled-run function', () => {
  it('runs run-scheduled-rule with the table, and is no route', () => {
    const props = propertiesOf(schedules.runner.function);
    expect(props).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 30, TracingConfig: { Mode: 'Active' } });
    expect(props.Environment.Variables).toEqual({ TABLE_NAME: { Ref: logicalId(stack.table) }, POWERTOOLS_SERVICE_NAME: 'rules-service' });
    expect(routeList.map((route) => route.handler)).not.toContain('run-scheduled-rule');
    // It reads rules and records runs.
    const dynamo = statementsOf(logicalId(schedules.runner.role)).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(dynamo.flatMap(actionsOf)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem']));
  });

  it('retries a run that failed in it a bounded number of times, then sends it to the dead-letter queue', () => {
    const configs = ofType('AWS::Lambda::EventInvokeConfig');
    expect(configs).toHaveLength(1);
    expect(configs[0]![1].Properties).toEqual({
      FunctionName: { Ref: logicalId(schedules.runner.function) },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: runRetries.attempts,
      MaximumEventAgeInSeconds: runRetries.maxEventAge.toSeconds(),
      DestinationConfig: { OnFailure: { Destination: queueArn } },
    });
    const sends = statementsOf(logicalId(schedules.runner.role)).filter((s) => actionsOf(s).includes('sqs:SendMessage'));
    expect(sends.map((s) => s.Resource)).toEqual([queueArn]);
  });
});

describe("Scheduler's execution role", () => {
  it('may be assumed by EventBridge Scheduler, for this account only', () => {
    expect(propertiesOf(schedules.executionRole).AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      },
    ]);
  });

  it('may invoke the scheduled-run function and send to the dead-letter queue, and nothing else', () => {
    expect(propertiesOf(schedules.executionRole).ManagedPolicyArns).toBeUndefined();
    expect(statementsOf(logicalId(schedules.executionRole))).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: runnerArn },
      { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: queueArn },
    ]);
  });

  it('is the only role that may invoke the scheduled-run function', () => {
    const invokers = rolesWith(
      (s) => actionsOf(s).includes('lambda:InvokeFunction') && JSON.stringify(s.Resource).includes(logicalId(schedules.runner.function)),
    );
    expect(invokers).toEqual([logicalId(schedules.executionRole)]);
    // No resource policy lets another principal in either.
    expect(
      ofType('AWS::Lambda::Permission').filter(([, p]) => JSON.stringify(p.Properties.FunctionName).includes(logicalId(schedules.runner.function))),
    ).toEqual([]);
  });
});

describe('the dead-letter queue', () => {
  it('is encrypted, keeps messages 14 days, and refuses requests without TLS', () => {
    expect(propertiesOf(schedules.deadLetters)).toEqual({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
    const [policy] = ofType('AWS::SQS::QueuePolicy').filter(([, p]) => p.Properties.Queues.some((q: any) => q.Ref === logicalId(schedules.deadLetters)));
    expect(policy![1].Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } }, Principal: { AWS: '*' } }),
    );
  });

  it('raises an alarm, sent to the alarm topic, as soon as a run lands in it', () => {
    const alarm = propertiesOf(schedules.deadLetterAlarm);
    expect(alarm).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: getAtt(schedules.deadLetters, 'QueueName') }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: logicalId(stack.alarms.topic) }],
      OKActions: [{ Ref: logicalId(stack.alarms.topic) }],
    });
  });
});

describe('the schedule functions', () => {
  it("are the schedule saves and the entity delete (it deletes a rule's schedule); reading a schedule needs none of it", () => {
    expect(schedulingRoutes.map((route) => route.operationId).sort()).toEqual(['deleteEntity', 'saveSchedule', 'saveScheduleLegacy']);
  });

  it('get what schedulerFromEnv reads: the target, the role, the dead-letter queue and the group prefix', () => {
    for (const route of routeList) {
      const variables = propertiesOf(stack.routeFunctions.get(route.operationId)!.function).Environment.Variables;
      if (!route.schedulerAccess) {
        expect(
          Object.keys(variables).filter((name) => name.startsWith('SCHEDULE')),
          route.operationId,
        ).toEqual([]);
        continue;
      }
      expect(variables, route.operationId).toMatchObject({
        SCHEDULE_TARGET_ARN: runnerArn,
        SCHEDULER_ROLE_ARN: roleArn,
        SCHEDULE_DLQ_ARN: queueArn,
        SCHEDULE_GROUP_PREFIX: 'RulesService',
      });
    }
  });

  it("may write schedules and create groups in this stack's groups only, and pass the execution role to Scheduler only", () => {
    for (const route of schedulingRoutes) {
      const statements = statementsOf(logicalId(stack.routeFunctions.get(route.operationId)!.role));
      const scheduling = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('scheduler:') || a.startsWith('iam:')));
      expect(scheduling, route.operationId).toEqual([
        {
          Action: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:UpdateSchedule'],
          Effect: 'Allow',
          Resource: [schedulerArn('schedule/RulesService.*/*'), schedulerArn('schedule/RulesService_*/*')],
        },
        {
          Action: 'scheduler:CreateScheduleGroup',
          Effect: 'Allow',
          Resource: [schedulerArn('schedule-group/RulesService.*'), schedulerArn('schedule-group/RulesService_*')],
        },
        { Action: 'iam:PassRole', Effect: 'Allow', Resource: roleArn, Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } },
      ]);
    }
  });

  it('are the only functions with any scheduler action or iam:PassRole', () => {
    const schedulingRoles = schedulingRoutes.map((route) => logicalId(stack.routeFunctions.get(route.operationId)!.role));
    const holders = rolesWith((s) => actionsOf(s).some((a) => a.startsWith('scheduler:') || a === 'iam:PassRole'));
    expect(holders.sort()).toEqual(schedulingRoles.sort());
    expect(allStatements().some((s) => actionsOf(s).some((a) => a === 'scheduler:*' || a === 'iam:*'))).toBe(false);
  });
});

describe('the group prefix', () => {
  /** Whether an IAM resource pattern (only * as a wildcard) covers a name. */
  const covers = (pattern: string, name: string) =>
    new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(name);

  it.each([
    ['RulesService', 'RulesService'],
    ['Rules-Service-Production-Europe', /^Rules-Servi-[0-9a-f]{8}$/],
  ])('is the stack name %s when it can be one, else a cut of it and a hash, and covers every group and schedule name the functions make', (name, expected) => {
    const { stack: named } = build(name);
    const prefix = named.schedules.groupPrefix;
    expect(prefix).toMatch(expected);
    const groupPatterns = named.schedules
      .ownArns('schedule-group')
      .map((arn) => (named.resolve(arn) as any)['Fn::Join'][1].at(-1).replace(/^:schedule-group\//, ''));
    const schedulePatterns = named.schedules.ownArns('schedule').map((arn) => (named.resolve(arn) as any)['Fn::Join'][1].at(-1).replace(/^:schedule\//, ''));
    for (const workspaceId of ['acme', 'a'.repeat(63)]) {
      const group = scheduleGroupName(workspaceId, prefix);
      expect(
        groupPatterns.some((pattern: string) => covers(pattern, group)),
        group,
      ).toBe(true);
      const schedule = `${group}/${scheduleName({ ruleId: 'shipping-cost', branch: 'feature/x' })}`;
      expect(
        schedulePatterns.some((pattern: string) => covers(pattern, schedule)),
        schedule,
      ).toBe(true);
    }
    // Another stack's groups are not covered.
    expect(groupPatterns.some((pattern: string) => covers(pattern, scheduleGroupName('acme', `${prefix}X`.slice(-20))))).toBe(false);
    expect(Stack.of(named.schedules).stackName).toBe(name);
  });
});
