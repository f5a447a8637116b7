/**
 * The AWS adapter with the real Scheduler client, against the local
 * endpoint that records what it is sent: the exact paths, methods and
 * bodies (expression, time zone, dates, state, target, retry policy,
 * dead-letter queue, input), create-then-update, the group created on
 * demand, idempotent deletes, and re-creating after a delete.
 */
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAwsScheduler } from '../../lib/schedules/aws-scheduler.ts';
import { startSchedulerEndpoint, type SchedulerEndpoint } from '../../lib/local/scheduler-endpoint.ts';
import { deploymentOf, type RuleScheduler, type ScheduleDeployment } from '../../lib/schedules/scheduler.ts';
import { parseScheduleBody } from '../../lib/schedules/spec.ts';

const target = {
  functionArn: 'arn:aws:lambda:eu-central-1:123456789012:function:rules-scheduled-run',
  roleArn: 'arn:aws:iam::123456789012:role/rules-scheduler',
  deadLetterArn: 'arn:aws:sqs:eu-central-1:123456789012:rules-scheduled-dlq',
};

let endpoint: SchedulerEndpoint;
let scheduler: RuleScheduler;
let client: SchedulerClient;

beforeAll(async () => {
  endpoint = await startSchedulerEndpoint({ region: 'eu-central-1', accountId: '123456789012' });
  client = new SchedulerClient({
    endpoint: endpoint.endpoint,
    region: 'eu-central-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  scheduler = createAwsScheduler({ client, target });
});
afterAll(async () => {
  client?.destroy();
  await endpoint?.close();
});
beforeEach(() => {
  endpoint.requests.length = 0;
});

let workspaces = 0;
/** A key in a workspace of its own, so each test starts without a group. */
const freshKey = (ruleId = 'shipping-cost', branch = 'main') => ({ workspaceId: `ws-${++workspaces}`, branch, ruleId });

const deployment = (key: ScheduleDeployment['key'], changes: Partial<ScheduleDeployment> = {}): ScheduleDeployment => ({
  key,
  expression: 'cron(30 2 ? * MON-FRI *)',
  timezone: 'Europe/Berlin',
  startAt: '2030-01-01T00:00:00+01:00',
  endAt: '2031-01-01T00:00:00Z',
  enabled: true,
  inputParam: { weight: 2 },
  ...changes,
});

/** The body CreateSchedule and UpdateSchedule carry for `deployment()` of `key`. */
const expectedBody = (key: ScheduleDeployment['key'], group: string) => ({
  GroupName: group,
  Description: `Rule ${key.ruleId} on branch ${key.branch} of workspace ${key.workspaceId}`,
  ScheduleExpression: 'cron(30 2 ? * MON-FRI *)',
  ScheduleExpressionTimezone: 'Europe/Berlin',
  StartDate: Date.parse('2030-01-01T00:00:00+01:00') / 1000,
  EndDate: Date.parse('2031-01-01T00:00:00Z') / 1000,
  State: 'ENABLED',
  FlexibleTimeWindow: { Mode: 'OFF' },
  ActionAfterCompletion: 'NONE',
  Target: {
    Arn: target.functionArn,
    RoleArn: target.roleArn,
    Input: JSON.stringify({
      workspaceId: key.workspaceId,
      branch: key.branch,
      ruleId: key.ruleId,
      scheduledTime: '<aws.scheduler.scheduled-time>',
      inputParam: { weight: 2 },
    }),
    RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
    DeadLetterConfig: { Arn: target.deadLetterArn },
  },
  ClientToken: expect.any(String),
});

describe('put', () => {
  it("creates the workspace's group when Scheduler says it is missing, then the schedule", async () => {
    const key = freshKey();
    await scheduler.putSchedule(deployment(key));
    const group = `rules.${key.workspaceId}`;
    expect(endpoint.requests).toEqual([
      { operation: 'CreateSchedule', method: 'POST', path: '/schedules/shipping-cost__main', query: {}, body: expectedBody(key, group) },
      { operation: 'CreateScheduleGroup', method: 'POST', path: `/schedule-groups/${group}`, query: {}, body: { ClientToken: expect.any(String) } },
      { operation: 'CreateSchedule', method: 'POST', path: '/schedules/shipping-cost__main', query: {}, body: expectedBody(key, group) },
    ]);
    expect(endpoint.schedules().find((s) => s.GroupName === group)).toMatchObject({
      Arn: `arn:aws:scheduler:eu-central-1:123456789012:schedule/${group}/shipping-cost__main`,
      State: 'ENABLED',
    });
  });

  it('saving again is an update: Create answers Conflict, Update replaces the schedule whole', async () => {
    const key = freshKey();
    await scheduler.putSchedule(deployment(key));
    endpoint.requests.length = 0;
    await scheduler.putSchedule(deployment(key));
    const group = `rules.${key.workspaceId}`;
    expect(endpoint.requests).toEqual([
      { operation: 'CreateSchedule', method: 'POST', path: '/schedules/shipping-cost__main', query: {}, body: expectedBody(key, group) },
      { operation: 'UpdateSchedule', method: 'PUT', path: '/schedules/shipping-cost__main', query: {}, body: expectedBody(key, group) },
    ]);
  });

  it('disables and enables through State', async () => {
    const key = freshKey();
    await scheduler.putSchedule(deployment(key));
    await scheduler.putSchedule(deployment(key, { enabled: false }));
    expect(endpoint.requests.at(-1)).toMatchObject({ operation: 'UpdateSchedule', body: { State: 'DISABLED' } });
    expect((await scheduler.getSchedule(key))?.enabled).toBe(false);
    await scheduler.putSchedule(deployment(key, { enabled: true }));
    expect(endpoint.requests.at(-1)).toMatchObject({ operation: 'UpdateSchedule', body: { State: 'ENABLED' } });
    expect((await scheduler.getSchedule(key))?.enabled).toBe(true);
  });

  it('sends a start date only when it is ahead (Scheduler refuses one more than 5 minutes past), and no end date when there is none', async () => {
    const key = freshKey();
    await scheduler.putSchedule(deployment(key, { startAt: '2020-01-01T00:00:00Z', endAt: undefined }));
    const body = endpoint.requests.at(-1)!.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('StartDate');
    expect(body).not.toHaveProperty('EndDate');
  });

  it('sends what a prepared body gives: its expression, time zone and input', async () => {
    const key = freshKey('order-check', 'release/2026.04');
    const result = parseScheduleBody(
      { unit: 'minute', spec: { minute: '*/15', hour: '8-18', dayOfWeek: '1-5' }, timezone: 'America/New_York', inputParam: { region: 'us' } },
      { now: Date.now() },
    );
    if (!result.ok || result.isDelete) throw new Error('refused');
    await scheduler.putSchedule(deploymentOf(key, result.prepared));
    expect(endpoint.requests.at(-1)).toMatchObject({
      operation: 'CreateSchedule',
      path: '/schedules/order-check__release_2F2026.04',
      body: {
        ScheduleExpression: 'cron(0/15 8-18 ? * MON-FRI *)',
        ScheduleExpressionTimezone: 'America/New_York',
        State: 'ENABLED',
        Target: { Input: JSON.stringify({ ...key, scheduledTime: '<aws.scheduler.scheduled-time>', inputParam: { region: 'us' } }) },
      },
    });
  });

  it("passes Scheduler's other refusals on", async () => {
    const key = freshKey();
    await expect(scheduler.putSchedule(deployment(key, { expression: 'cron(0 0 L * ? *)' }))).rejects.toMatchObject({
      name: 'ValidationException',
      message: expect.stringMatching(/^Invalid Schedule Expression cron\(0 0 L \* \? \*\)/),
    });
    const badRole = createAwsScheduler({ client, target: { ...target, roleArn: 'not-a-role' } });
    await expect(badRole.putSchedule(deployment(freshKey()))).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('takes retry bounds within what Scheduler allows', async () => {
    const bounded = createAwsScheduler({ client, target: { ...target, maximumRetryAttempts: 0, maximumEventAgeSeconds: 60 } });
    const key = freshKey();
    await bounded.putSchedule(deployment(key));
    expect(endpoint.requests.at(-1)).toMatchObject({ body: { Target: { RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 } } } });
    expect(() => createAwsScheduler({ client, target: { ...target, maximumRetryAttempts: 186 } })).toThrow(/0 to 185/);
    expect(() => createAwsScheduler({ client, target: { ...target, maximumEventAgeSeconds: 59 } })).toThrow(/60 to 86400/);
  });
});

describe('get', () => {
  it('reads the schedule back, with its target and dates in UTC', async () => {
    const key = freshKey();
    await scheduler.putSchedule(deployment(key));
    endpoint.requests.length = 0;
    expect(await scheduler.getSchedule(key)).toEqual({
      groupName: `rules.${key.workspaceId}`,
      name: 'shipping-cost__main',
      expression: 'cron(30 2 ? * MON-FRI *)',
      timezone: 'Europe/Berlin',
      startAt: '2029-12-31T23:00:00.000Z',
      endAt: '2031-01-01T00:00:00.000Z',
      enabled: true,
      input: JSON.stringify({ ...key, scheduledTime: '<aws.scheduler.scheduled-time>', inputParam: { weight: 2 } }),
      target: { ...target, maximumRetryAttempts: 3, maximumEventAgeSeconds: 3600 },
    });
    expect(endpoint.requests).toEqual([
      { operation: 'GetSchedule', method: 'GET', path: '/schedules/shipping-cost__main', query: { groupName: `rules.${key.workspaceId}` }, body: undefined },
    ]);
  });

  it('is undefined for a schedule that does not exist', async () => {
    expect(await scheduler.getSchedule(freshKey())).toBeUndefined();
  });
});

describe('delete', () => {
  it('deletes from the group, and deleting again is not an error', async () => {
    const key = freshKey();
    await scheduler.putSchedule(deployment(key));
    endpoint.requests.length = 0;
    expect(await scheduler.deleteSchedule(key)).toBe(true);
    expect(await scheduler.deleteSchedule(key)).toBe(false);
    const request = {
      operation: 'DeleteSchedule',
      method: 'DELETE',
      path: '/schedules/shipping-cost__main',
      query: { groupName: `rules.${key.workspaceId}`, clientToken: expect.any(String) },
      body: undefined,
    };
    expect(endpoint.requests).toEqual([request, request]);
    expect(await scheduler.getSchedule(key)).toBeUndefined();
  });

  it('a schedule deleted can be created again, in the group that is still there', async () => {
    const key = freshKey();
    await scheduler.putSchedule(deployment(key));
    await scheduler.deleteSchedule(key);
    endpoint.requests.length = 0;
    await scheduler.putSchedule(deployment(key, { expression: 'cron(0 6 1 * ? *)' }));
    expect(endpoint.requests.map((r) => r.operation)).toEqual(['CreateSchedule']);
    expect((await scheduler.getSchedule(key))?.expression).toBe('cron(0 6 1 * ? *)');
  });
});

describe('groups', () => {
  it('ensureGroup creates the group once; an existing group is not an error', async () => {
    const key = freshKey();
    await scheduler.ensureGroup(key.workspaceId);
    await scheduler.ensureGroup(key.workspaceId);
    expect(endpoint.requests.map((r) => [r.operation, r.path])).toEqual([
      ['CreateScheduleGroup', `/schedule-groups/rules.${key.workspaceId}`],
      ['CreateScheduleGroup', `/schedule-groups/rules.${key.workspaceId}`],
    ]);
    expect(endpoint.groups()).toContain(`rules.${key.workspaceId}`);
  });

  it('one group per workspace, one schedule per rule and branch, under the deployment prefix', async () => {
    const prod = createAwsScheduler({ client, target, groupPrefix: 'rules-prod' });
    const key = freshKey();
    await prod.putSchedule(deployment(key));
    await prod.putSchedule(deployment({ ...key, branch: 'staging' }));
    await prod.putSchedule(deployment({ ...key, workspaceId: `${key.workspaceId}-b` }));
    const mine = endpoint.schedules().filter((s) => s.GroupName.startsWith(`rules-prod.${key.workspaceId}`));
    expect(mine.map((s) => `${s.GroupName}/${s.Name}`).sort()).toEqual([
      `rules-prod.${key.workspaceId}-b/shipping-cost__main`,
      `rules-prod.${key.workspaceId}/shipping-cost__main`,
      `rules-prod.${key.workspaceId}/shipping-cost__staging`,
    ]);
  });
});
