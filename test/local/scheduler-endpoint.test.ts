/**
 * The local Scheduler endpoint as Scheduler behaves, through the real
 * client: it listens on loopback only, answers the errors the adapter
 * relies on (conflict, not found) with the exceptions the client maps, and
 * refuses what Scheduler refuses (a start date long past, dates out of
 * order, a bad name) and operations it does not serve.
 */
import {
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleGroupCommand,
  GetScheduleGroupCommand,
  ListSchedulesCommand,
  SchedulerClient,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSchedulerEndpoint, type SchedulerEndpoint } from '../../lib/local/scheduler-endpoint.ts';
import type { LocalScheduleEntry } from '../../lib/local/scheduler.ts';

let endpoint: SchedulerEndpoint;
let client: SchedulerClient;
const applied: LocalScheduleEntry[] = [];
const removed: string[] = [];
const now = Date.parse('2026-03-20T12:00:00Z');

beforeAll(async () => {
  endpoint = await startSchedulerEndpoint({
    now: () => now,
    scheduler: { apply: (entry) => void applied.push(entry), remove: (group, name) => (removed.push(`${group}/${name}`), true) },
  });
  client = new SchedulerClient({
    endpoint: endpoint.endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client?.destroy();
  await endpoint?.close();
});

const schedule = (changes: Partial<CreateScheduleCommandInput> = {}): CreateScheduleCommandInput => ({
  Name: 'r__main',
  GroupName: 'g1',
  ScheduleExpression: 'cron(0 9 ? * MON-FRI *)',
  ScheduleExpressionTimezone: 'Europe/Berlin',
  FlexibleTimeWindow: { Mode: 'OFF' },
  State: 'DISABLED',
  StartDate: new Date(now + 3_600_000),
  Target: { Arn: 'arn:aws:lambda:local:000000000000:function:f', RoleArn: 'arn:aws:iam::000000000000:role/r', Input: '{"a":1}' },
  ...changes,
});

it('listens on 127.0.0.1 only', () => {
  expect(new URL(endpoint.endpoint).hostname).toBe('127.0.0.1');
});

describe('groups', () => {
  it('creates, refuses a second create, reads and deletes a group with its schedules', async () => {
    const created = await client.send(new CreateScheduleGroupCommand({ Name: 'g1' }));
    expect(created.ScheduleGroupArn).toBe('arn:aws:scheduler:local:000000000000:schedule-group/g1');
    await expect(client.send(new CreateScheduleGroupCommand({ Name: 'g1' }))).rejects.toMatchObject({
      name: 'ConflictException',
      $metadata: { httpStatusCode: 409 },
    });
    const group = await client.send(new GetScheduleGroupCommand({ Name: 'g1' }));
    expect(group).toMatchObject({ Name: 'g1', State: 'ACTIVE', CreationDate: new Date(now) });

    await client.send(new CreateScheduleCommand(schedule()));
    expect(applied.at(-1)).toEqual({
      groupName: 'g1',
      name: 'r__main',
      expression: 'cron(0 9 ? * MON-FRI *)',
      timezone: 'Europe/Berlin',
      startDate: now + 3_600_000,
      enabled: false,
      input: '{"a":1}',
    });
    await client.send(new DeleteScheduleGroupCommand({ Name: 'g1' }));
    expect(removed).toEqual(['g1/r__main']);
    expect(endpoint.schedules()).toEqual([]);
    await expect(client.send(new GetScheduleGroupCommand({ Name: 'g1' }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});

describe('schedules', () => {
  beforeAll(async () => {
    await client.send(new CreateScheduleGroupCommand({ Name: 'g2' }));
  });

  it('creates a schedule once, and updates only one that exists', async () => {
    await expect(client.send(new UpdateScheduleCommand(schedule({ GroupName: 'g2', Name: 'missing' })))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    await client.send(new CreateScheduleCommand(schedule({ GroupName: 'g2' })));
    await expect(client.send(new CreateScheduleCommand(schedule({ GroupName: 'g2' })))).rejects.toMatchObject({ name: 'ConflictException' });
    await client.send(new UpdateScheduleCommand(schedule({ GroupName: 'g2', State: 'ENABLED' })));
    expect(endpoint.schedules().find((s) => s.GroupName === 'g2')).toMatchObject({ State: 'ENABLED', CreationDate: now, LastModificationDate: now });
  });

  it('refuses what Scheduler refuses', async () => {
    const refused = (changes: Partial<CreateScheduleCommandInput>) =>
      client.send(new CreateScheduleCommand(schedule({ GroupName: 'g2', Name: 'other', ...changes })));
    await expect(refused({ StartDate: new Date(now - 6 * 60_000) })).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'The StartDate you specify cannot be earlier than 5 minutes ago.',
    });
    await expect(refused({ EndDate: new Date(now) })).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(refused({ Name: 'has/slash' })).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(refused({ ScheduleExpressionTimezone: 'Mars/Olympus' })).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(refused({ ScheduleExpression: 'cron(0 9 * * MON *)' })).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(refused({ GroupName: 'nowhere' })).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'Schedule group nowhere does not exist.',
    });
    // A start up to 5 minutes past is taken.
    await expect(refused({ StartDate: new Date(now - 4 * 60_000) })).resolves.toHaveProperty('ScheduleArn');
  });

  it('answers an operation it does not serve with an error', async () => {
    await expect(client.send(new ListSchedulesCommand({}))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    expect(endpoint.requests.at(-1)).toMatchObject({ operation: 'Unknown', method: 'GET', path: '/schedules' });
  });
});
