/**
 * Rule schedules through the local runtime, whose functions reach the
 * Scheduler endpoint with the real Scheduler client: the body checked
 * through the API (each field at fault named), every error, create, read,
 * replace, saving the same body again (no scheduler call), delete and a
 * second delete, the legacy path, workflows refused, the v1 get of the rule
 * showing the schedule, a rule's delete removing it, and the exact requests
 * the client sent for a save and a delete.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RequestOptions } from '../helpers/api.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { errorsOf, parcelFee, rulesClient, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
let rules: ReturnType<typeof rulesClient>;

beforeAll(() => {
  rules = rulesClient(t.api);
});

interface ScheduleView {
  schedule: Json & { timezone: string; inputParam: Json };
  expression: string;
  nextRuns: { local: string; utc: string }[];
}

/** Saves (POST) a schedule: a body as JSON, or text as it is. */
const save = (id: string, body: unknown, options: RequestOptions & { path?: string } = {}) =>
  t.api<ScheduleView & { deleted?: boolean }>(`${options.path ?? '/dev/v1/rule'}/${id}/schedule`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...options,
  });
const read = (id: string, options: RequestOptions = {}) => t.api<ScheduleView>(`/dev/v1/rule/${id}/schedule`, options);
const requests = () => t.runtime.scheduler.endpoint.requests;
/** What the Scheduler endpoint holds for a rule of the demo workspace's main. */
const deployed = (ruleId: string) => t.runtime.scheduler.endpoint.schedules().find((s) => s.GroupName === 'rules.demo' && s.Name === `${ruleId}__main`);
const scope = (ruleId: string) => ({ workspaceId: 'demo', branch: 'main', ruleId });

const daily = { unit: 'day', spec: { hour: '9', minute: '30' }, timezone: 'Europe/Berlin', inputParam: { weightKg: 1 } };

describe('saving', () => {
  it('stores the schedule with every default applied, and answers its expression and next three runs in its zone and in UTC', async () => {
    await rules.published(parcelFee('sched-daily'));
    const before = Date.now();
    const response = await save('sched-daily', daily);
    expectSuccess(response);
    const { schedule, expression, nextRuns } = response.body.data;
    expect({ schedule, expression }).toEqual({
      schedule: {
        unit: 'day',
        isEnabled: true,
        timezone: 'Europe/Berlin',
        spec: { minute: '30', hour: '9', dayOfMonth: '*', month: '*', dayOfWeek: '*' },
        inputParam: { weightKg: 1 },
      },
      expression: 'cron(30 9 * * ? *)',
    });
    expect(nextRuns).toHaveLength(3);
    for (const [i, run] of nextRuns.entries()) {
      expect(run.local).toMatch(/T09:30:00\+0[12]:00$/);
      expect(run.utc).toMatch(/T0[78]:30:00Z$/);
      expect(Date.parse(run.local)).toBe(Date.parse(run.utc));
      expect(Date.parse(run.utc)).toBeGreaterThan(i ? Date.parse(nextRuns[i - 1]!.utc) : before);
    }
    // The store holds it, applied to the scheduler; the scheduler holds it in the rule's workspace group.
    expect(await t.runtime.store.getSchedule(scope('sched-daily'))).toMatchObject({ schedule, expression, state: 'deployed' });
    expect(deployed('sched-daily')).toMatchObject({ ScheduleExpression: 'cron(30 9 * * ? *)', ScheduleExpressionTimezone: 'Europe/Berlin', State: 'ENABLED' });
  });

  it('reads it back, and the v1 get of the rule shows it (the legacy get does not)', async () => {
    await rules.published(parcelFee('sched-read'));
    const saved = await save('sched-read', daily);
    const response = await read('sched-read');
    expectSuccess(response);
    expect(response.body.data).toEqual(saved.body.data);
    const rule = await rules.get('sched-read');
    expect(rule.body.data.schedule).toEqual({ schedule: saved.body.data.schedule, expression: saved.body.data.expression });
    expect((await t.api<Json>('/dev/rule/sched-read')).body.data).not.toHaveProperty('schedule');
  });

  it("takes the rule's settings.timezone when the body names none, else UTC", async () => {
    await rules.published(parcelFee('sched-zoned', { settings: { recordExecutions: true, timezone: 'America/New_York' } }));
    expect((await save('sched-zoned', { unit: 'hour' })).body.data.schedule.timezone).toBe('America/New_York');
    expect((await save('sched-zoned', { unit: 'hour', timezone: 'Asia/Tokyo' })).body.data.schedule.timezone).toBe('Asia/Tokyo');
    await rules.published(parcelFee('sched-utc'));
    expect((await save('sched-utc', { unit: 'hour' })).body.data.schedule.timezone).toBe('UTC');
  });

  it('replaces the schedule when saved again, and changes nothing (no scheduler call) when the body is the same', async () => {
    await rules.published(parcelFee('sched-replace'));
    await save('sched-replace', daily);
    const mark = requests().length;
    const replaced = await save('sched-replace', { unit: 'week', spec: { dayOfWeek: 'MON-FRI' }, isEnabled: false });
    expectSuccess(replaced);
    expect(replaced.body.data).toMatchObject({
      schedule: { unit: 'week', isEnabled: false, timezone: 'UTC', inputParam: {} },
      expression: 'cron(0 0 ? * MON-FRI *)',
      nextRuns: [],
    });
    // Create answers Conflict, Update replaces the schedule whole.
    expect(
      requests()
        .slice(mark)
        .map((r) => r.operation),
    ).toEqual(['CreateSchedule', 'UpdateSchedule']);
    expect(deployed('sched-replace')).toMatchObject({ ScheduleExpression: 'cron(0 0 ? * MON-FRI *)', State: 'DISABLED' });

    const stored = await t.runtime.store.getSchedule(scope('sched-replace'));
    const again = await save('sched-replace', { unit: 'week', spec: { dayOfWeek: 'MON-FRI' }, isEnabled: false });
    expectSuccess(again);
    expect(again.body.data).toEqual(replaced.body.data);
    expect(requests().length).toBe(mark + 2);
    expect(await t.runtime.store.getSchedule(scope('sched-replace'))).toEqual(stored);
  });

  it('deletes it with isDelete, answering what it was; deleting again answers 200 with nothing to delete', async () => {
    await rules.published(parcelFee('sched-delete'));
    const saved = await save('sched-delete', daily);
    const deleted = await save('sched-delete', { isDelete: true });
    expectSuccess(deleted);
    expect(deleted.body.data).toEqual({ deleted: true, schedule: saved.body.data.schedule, expression: saved.body.data.expression });
    expect(deployed('sched-delete')).toBeUndefined();
    expect(await t.runtime.store.getSchedule(scope('sched-delete'))).toBeUndefined();
    expectFailure(await read('sched-delete'), 404, 'schedule_not_found', {});
    expect((await rules.get('sched-delete')).body.data).not.toHaveProperty('schedule');

    const mark = requests().length;
    const again = await save('sched-delete', { isDelete: true });
    expectSuccess(again);
    expect(again.body.data).toEqual({ deleted: false });
    expect(requests().length).toBe(mark);
  });

  it('serves the legacy path with the same body, ignoring fields it does not know; /dev/v1 refuses them by name', async () => {
    await rules.published(parcelFee('sched-legacy'));
    const legacy = await save('sched-legacy', { ...daily, colour: 'red' }, { path: '/dev/rule' });
    expectSuccess(legacy);
    expect(legacy.body.data.expression).toBe('cron(30 9 * * ? *)');
    const strict = await save('sched-legacy', { ...daily, colour: 'red' });
    expectFailure(strict, 400, 'invalid_request', { errors: [{ in: 'body', field: 'body', message: 'unknown fields: colour' }] });
    expectSuccess(await save('sched-legacy', { isDelete: true }, { path: '/dev/rule' }));
  });
});

describe('refusals', () => {
  it('refuses a workflow with 400 schedule_not_supported', async () => {
    expectFailure(await save('checkout', { unit: 'day' }, { path: '/dev/v1/workflow' }), 400, 'schedule_not_supported', {});
    expectFailure(await save('checkout', { unit: 'day' }, { path: '/dev/workflow' }), 400, 'schedule_not_supported', {});
    expectFailure(await t.api('/dev/v1/workflow/checkout/schedule'), 400, 'schedule_not_supported', {});
  });

  it('answers 404 for a rule that is not there, and 409 rule_not_published for one never published', async () => {
    expectFailure(await save('nobody', { unit: 'day' }), 404, 'entity_not_found');
    expectFailure(await save('nobody', { isDelete: true }), 404, 'entity_not_found');
    expectFailure(await read('nobody'), 404, 'entity_not_found');
    await rules.create(parcelFee('sched-draft'));
    expectFailure(await save('sched-draft', { unit: 'day' }), 409, 'rule_not_published', {});
    expectFailure(await read('sched-draft'), 404, 'schedule_not_found');
  });

  it('answers a body that is not JSON, or not an object, with 400', async () => {
    await rules.published(parcelFee('sched-malformed'));
    expectFailure(await save('sched-malformed', '{"unit": "day"'), 400, 'invalid_request', {
      errors: [{ in: 'body', field: 'body', message: 'is not valid JSON' }],
    });
    expectFailure(await save('sched-malformed', '[]'), 400, 'invalid_request', { errors: [{ in: 'body', field: 'body', message: 'must be a JSON object' }] });
  });

  it.each([
    [{}, 'unit', 'is required: minute, hour, day, week or month'],
    [{ unit: 'hourly' }, 'unit', 'must be minute, hour, day, week or month'],
    [{ unit: 'hour', spec: { minute: '61' } }, 'spec.minute', '61 is out of range: minutes are 0-59'],
    [
      { unit: 'week', spec: { dayOfMonth: '13' } },
      'spec.dayOfMonth',
      'a week schedule runs on days of the week (spec.dayOfWeek): leave dayOfMonth out or *, or use unit month',
    ],
    [{ unit: 'day', timezone: 'Mars/Base' }, 'timezone', '"Mars/Base" is not a time zone this service knows (an IANA name such as "Europe/Berlin" or "UTC")'],
    [{ unit: 'minute', endAt: '2020-01-01T00:00:00Z' }, 'endAt', 'is in the past: the schedule could never run (delete it instead)'],
    [{ unit: 'minute', isEnabled: 'yes' }, 'isEnabled', 'must be true or false'],
    [{ unit: 'minute', inputParam: [1] }, 'inputParam', "must be a JSON object (the rule's params for each run)"],
  ])('answers the invalid spec %j with 400 naming %s and why', async (body, field, message) => {
    await rules.published(parcelFee('sched-invalid'));
    const response = await save('sched-invalid', body);
    expectFailure(response, 400, 'invalid_request', { errors: [{ in: 'body', field, message }] });
    expect(response.body.message).toContain(field);
    expectFailure(await read('sched-invalid'), 404, 'schedule_not_found');
  });

  it("checks inputParam against the rule's declared inputs: 400 naming inputParam.<name>", async () => {
    await rules.published(parcelFee('sched-params'));
    const response = await save('sched-params', { unit: 'day', inputParam: { weightKg: 'heavy' } });
    expectFailure(response, 400, 'invalid_request', {
      errors: [{ in: 'body', field: 'inputParam.weightKg', message: 'expected a number, got the string "heavy"' }],
    });
    expectFailure(await read('sched-params'), 404, 'schedule_not_found');
  });

  it('refuses an inputParam larger than a run event carries, before any read', async () => {
    const response = await save('nobody-at-all', { unit: 'day', inputParam: { text: 'x'.repeat(9000) } });
    expectFailure(response, 400, 'invalid_request');
    expect(errorsOf(response)[0]).toMatchObject({ field: 'inputParam', message: expect.stringMatching(/more than the 8192 allowed$/) });
  });
});

describe("a rule's delete", () => {
  it('deletes its schedule from the scheduler and the store; a rule made again with the same id has none', async () => {
    await rules.published(parcelFee('sched-rule-gone'));
    await save('sched-rule-gone', daily);
    expect(deployed('sched-rule-gone')).toBeDefined();
    expectSuccess(await rules.remove('sched-rule-gone'));
    expect(deployed('sched-rule-gone')).toBeUndefined();
    expect(await t.runtime.store.getSchedule(scope('sched-rule-gone'))).toBeUndefined();
    await rules.published(parcelFee('sched-rule-gone'));
    expectFailure(await read('sched-rule-gone'), 404, 'schedule_not_found');
  });
});

describe('the requests the Scheduler client sent', () => {
  it('for a save: the schedule, the group made when Scheduler says it is missing, the schedule again; for a delete: one DeleteSchedule', async () => {
    const { key } = await createWorkspaceWithKey(t.runtime.store, { id: 'sched-wire', entities: [simpleRule('nightly', 'Nightly')], publish: true });
    const mark = requests().length;
    expectSuccess(await save('nightly', { unit: 'day', spec: { hour: '2' }, timezone: 'Europe/Berlin', inputParam: { x: 2 } }, { key }));
    const body = {
      GroupName: 'rules.sched-wire',
      Description: 'Rule nightly on branch main of workspace sched-wire',
      ScheduleExpression: 'cron(0 2 * * ? *)',
      ScheduleExpressionTimezone: 'Europe/Berlin',
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'NONE',
      Target: {
        Arn: 'arn:aws:lambda:local:000000000000:function:local-run-scheduled-rule',
        RoleArn: 'arn:aws:iam::000000000000:role/local-scheduler',
        Input: JSON.stringify({
          workspaceId: 'sched-wire',
          branch: 'main',
          ruleId: 'nightly',
          scheduledTime: '<aws.scheduler.scheduled-time>',
          inputParam: { x: 2 },
        }),
        RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
        DeadLetterConfig: { Arn: 'arn:aws:sqs:local:000000000000:schedule-dead-letters' },
      },
      ClientToken: expect.any(String),
    };
    expect(requests().slice(mark)).toEqual([
      { operation: 'CreateSchedule', method: 'POST', path: '/schedules/nightly__main', query: {}, body },
      { operation: 'CreateScheduleGroup', method: 'POST', path: '/schedule-groups/rules.sched-wire', query: {}, body: { ClientToken: expect.any(String) } },
      { operation: 'CreateSchedule', method: 'POST', path: '/schedules/nightly__main', query: {}, body },
    ]);

    const deleteMark = requests().length;
    expectSuccess(await save('nightly', { isDelete: true }, { key }));
    expect(requests().slice(deleteMark)).toEqual([
      {
        operation: 'DeleteSchedule',
        method: 'DELETE',
        path: '/schedules/nightly__main',
        query: { groupName: 'rules.sched-wire', clientToken: expect.any(String) },
        body: undefined,
      },
    ]);
  });
});
