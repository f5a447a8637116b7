/**
 * EventBridge Scheduler's REST-JSON API on loopback, enough of it for the
 * AWS adapter: create, update, get and delete a schedule, create, get and
 * delete a schedule group. It keeps what it is sent as Scheduler would
 * (conflicts, missing schedules and groups, the checks the adapter must
 * pass), records every request, and hands each schedule to a local
 * scheduler when it is given one. So the local runtime runs the functions
 * with the real Scheduler client, as it does with SQS (lib/local/sqs.ts),
 * and tests assert the exact requests that client sends.
 *
 * Expressions are checked against the cron forms this service writes
 * (lib/schedules/cron.ts), which are stricter than Scheduler's: an expression outside
 * them is a bug here, and fails loudly.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseSchedulerExpression, maxExpressionLength } from '../schedules/cron.ts';
import type { LocalScheduler } from './scheduler.ts';
import { checkTimeZone } from '../schedules/zone.ts';

export interface RecordedRequest {
  /** CreateSchedule, UpdateSchedule, GetSchedule, DeleteSchedule, CreateScheduleGroup, GetScheduleGroup, DeleteScheduleGroup, or Unknown. */
  operation: string;
  method: string;
  /** Decoded path: /schedules/{Name}. */
  path: string;
  query: Record<string, string>;
  /** The JSON body, parsed; undefined when there was none. */
  body: unknown;
}

/** A schedule as the endpoint holds it: the request's fields, with Name, GroupName, Arn and dates in epoch ms. */
export interface StoredWireSchedule {
  Arn: string;
  Name: string;
  GroupName: string;
  ScheduleExpression: string;
  ScheduleExpressionTimezone?: string;
  StartDate?: number;
  EndDate?: number;
  Description?: string;
  State: 'ENABLED' | 'DISABLED';
  FlexibleTimeWindow: { Mode: string; MaximumWindowInMinutes?: number };
  ActionAfterCompletion?: string;
  Target: Record<string, unknown> & { Arn: string; RoleArn: string; Input?: string };
  CreationDate: number;
  LastModificationDate: number;
}

export interface SchedulerEndpointOptions {
  /** Receives every schedule created, updated or deleted. */
  scheduler?: Pick<LocalScheduler, 'apply' | 'remove'>;
  port?: number;
  region?: string;
  accountId?: string;
  /** Epoch ms now (tests). */
  now?: () => number;
}

class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const namePattern = /^[0-9a-zA-Z-_.]{1,64}$/;
const roleArnPattern = /^arn:aws(-[a-z]+)?:iam::\d{12}:role\/[\w+=,.@\/-]+$/;
const invalid = (message: string) => new ApiFailure(400, 'ValidationException', message);
const notFound = (message: string) => new ApiFailure(404, 'ResourceNotFoundException', message);
const conflict = (message: string) => new ApiFailure(409, 'ConflictException', message);

/** A timestamp as the client sends it (epoch seconds in REST-JSON), in epoch ms. */
function timestamp(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw invalid(`${field} is not a timestamp`);
  return ms;
}

export async function startSchedulerEndpoint(options: SchedulerEndpointOptions = {}) {
  const now = options.now ?? Date.now;
  const arn = (kind: 'schedule' | 'schedule-group', path: string) =>
    `arn:aws:scheduler:${options.region ?? 'local'}:${options.accountId ?? '000000000000'}:${kind}/${path}`;
  const requests: RecordedRequest[] = [];
  const groups = new Map<string, { CreationDate: number; LastModificationDate: number }>([['default', { CreationDate: now(), LastModificationDate: now() }]]);
  const schedules = new Map<string, StoredWireSchedule>();
  const key = (group: string, name: string) => `${group}/${name}`;

  const checkName = (name: string, what: string) => {
    if (!namePattern.test(name)) throw invalid(`${what} "${name}" must be 1-64 characters of [0-9a-zA-Z-_.]`);
    return name;
  };
  const existingGroup = (name: string) => {
    if (!groups.has(name)) throw notFound(`Schedule group ${name} does not exist.`);
    return name;
  };

  /** The schedule a create or update asks for, checked as Scheduler checks it. */
  function scheduleOf(name: string, body: Record<string, unknown>, previous?: StoredWireSchedule): StoredWireSchedule {
    const group = checkName(typeof body.GroupName === 'string' ? body.GroupName : 'default', 'GroupName');
    const expression = body.ScheduleExpression;
    if (typeof expression !== 'string' || expression.length === 0 || expression.length > maxExpressionLength)
      throw invalid(`ScheduleExpression must be 1-${maxExpressionLength} characters`);
    const parsed = parseSchedulerExpression(expression);
    if ('problem' in parsed) throw invalid(`Invalid Schedule Expression ${expression}. (${parsed.problem})`);
    const zone = body.ScheduleExpressionTimezone;
    if (zone !== undefined && (typeof zone !== 'string' || 'problem' in checkTimeZone(zone)))
      throw invalid(`Invalid ScheduleExpressionTimezone ${String(zone)}.`);
    const window = body.FlexibleTimeWindow as StoredWireSchedule['FlexibleTimeWindow'] | undefined;
    if (!window || (window.Mode !== 'OFF' && window.Mode !== 'FLEXIBLE')) throw invalid('FlexibleTimeWindow.Mode must be OFF or FLEXIBLE');
    const target = body.Target as StoredWireSchedule['Target'] | undefined;
    if (!target || typeof target.Arn !== 'string' || !target.Arn) throw invalid('Target.Arn is required');
    if (typeof target.RoleArn !== 'string' || !roleArnPattern.test(target.RoleArn)) throw invalid('Target.RoleArn must be an IAM role ARN');
    const retry = target.RetryPolicy as { MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number } | undefined;
    if (retry?.MaximumRetryAttempts !== undefined && (retry.MaximumRetryAttempts < 0 || retry.MaximumRetryAttempts > 185))
      throw invalid('RetryPolicy.MaximumRetryAttempts must be 0-185');
    if (retry?.MaximumEventAgeInSeconds !== undefined && (retry.MaximumEventAgeInSeconds < 60 || retry.MaximumEventAgeInSeconds > 86_400))
      throw invalid('RetryPolicy.MaximumEventAgeInSeconds must be 60-86400');
    const state = body.State ?? 'ENABLED';
    if (state !== 'ENABLED' && state !== 'DISABLED') throw invalid('State must be ENABLED or DISABLED');
    const start = timestamp(body.StartDate, 'StartDate');
    const end = timestamp(body.EndDate, 'EndDate');
    if (start !== undefined && start < now() - 5 * 60_000) throw invalid('The StartDate you specify cannot be earlier than 5 minutes ago.');
    if (start !== undefined && end !== undefined && end <= start) throw invalid('The EndDate must be later than the StartDate.');
    existingGroup(group);
    return {
      Arn: arn('schedule', `${group}/${name}`),
      Name: name,
      GroupName: group,
      ScheduleExpression: expression,
      ...(typeof zone === 'string' && { ScheduleExpressionTimezone: zone }),
      ...(start !== undefined && { StartDate: start }),
      ...(end !== undefined && { EndDate: end }),
      ...(typeof body.Description === 'string' && { Description: body.Description }),
      State: state,
      FlexibleTimeWindow: window,
      ...(typeof body.ActionAfterCompletion === 'string' && { ActionAfterCompletion: body.ActionAfterCompletion }),
      Target: target,
      CreationDate: previous?.CreationDate ?? now(),
      LastModificationDate: now(),
    };
  }

  const install = (schedule: StoredWireSchedule) => {
    schedules.set(key(schedule.GroupName, schedule.Name), schedule);
    options.scheduler?.apply({
      groupName: schedule.GroupName,
      name: schedule.Name,
      expression: schedule.ScheduleExpression,
      timezone: schedule.ScheduleExpressionTimezone ?? 'UTC',
      ...(schedule.StartDate !== undefined && { startDate: schedule.StartDate }),
      ...(schedule.EndDate !== undefined && { endDate: schedule.EndDate }),
      enabled: schedule.State === 'ENABLED',
      input: schedule.Target.Input ?? '',
    });
  };
  const uninstall = (group: string, name: string) => {
    schedules.delete(key(group, name));
    options.scheduler?.remove(group, name);
  };

  const seconds = (ms: number | undefined) => (ms === undefined ? undefined : ms / 1000);

  function handle(operation: string, name: string, query: Record<string, string>, body: Record<string, unknown>): object {
    switch (operation) {
      case 'CreateSchedule': {
        const schedule = scheduleOf(checkName(name, 'Name'), body);
        if (schedules.has(key(schedule.GroupName, name))) throw conflict(`Schedule ${name} already exists.`);
        install(schedule);
        return { ScheduleArn: schedule.Arn };
      }
      case 'UpdateSchedule': {
        const group = typeof body.GroupName === 'string' ? body.GroupName : 'default';
        const previous = schedules.get(key(group, name));
        if (!previous) throw notFound(`Schedule ${name} does not exist.`);
        const schedule = scheduleOf(name, body, previous);
        install(schedule);
        return { ScheduleArn: schedule.Arn };
      }
      case 'GetSchedule': {
        const schedule = schedules.get(key(query.groupName ?? 'default', name));
        if (!schedule) throw notFound(`Schedule ${name} does not exist.`);
        return {
          ...schedule,
          StartDate: seconds(schedule.StartDate),
          EndDate: seconds(schedule.EndDate),
          CreationDate: seconds(schedule.CreationDate),
          LastModificationDate: seconds(schedule.LastModificationDate),
        };
      }
      case 'DeleteSchedule': {
        const group = query.groupName ?? 'default';
        if (!schedules.has(key(group, name))) throw notFound(`Schedule ${name} does not exist.`);
        uninstall(group, name);
        return {};
      }
      case 'CreateScheduleGroup': {
        checkName(name, 'Name');
        if (groups.has(name)) throw conflict(`Schedule group ${name} already exists.`);
        groups.set(name, { CreationDate: now(), LastModificationDate: now() });
        return { ScheduleGroupArn: arn('schedule-group', name) };
      }
      case 'GetScheduleGroup': {
        const group = groups.get(existingGroup(name))!;
        return {
          Arn: arn('schedule-group', name),
          Name: name,
          State: 'ACTIVE',
          CreationDate: seconds(group.CreationDate),
          LastModificationDate: seconds(group.LastModificationDate),
        };
      }
      case 'DeleteScheduleGroup': {
        existingGroup(name);
        if (name === 'default') throw invalid('The default schedule group cannot be deleted.');
        for (const schedule of [...schedules.values()]) if (schedule.GroupName === name) uninstall(name, schedule.Name);
        groups.delete(name);
        return {};
      }
    }
    throw new ApiFailure(404, 'UnknownOperationException', 'The local Scheduler endpoint does not serve this operation.');
  }

  const operations: Record<string, Record<string, string>> = {
    schedules: { POST: 'CreateSchedule', PUT: 'UpdateSchedule', GET: 'GetSchedule', DELETE: 'DeleteSchedule' },
    'schedule-groups': { POST: 'CreateScheduleGroup', GET: 'GetScheduleGroup', DELETE: 'DeleteScheduleGroup' },
  };

  async function serve(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const match = /^\/(schedules|schedule-groups)\/([^/]+)$/.exec(url.pathname);
    const name = match ? decodeURIComponent(match[2]!) : '';
    const method = request.method ?? 'GET';
    const operation = (match && operations[match[1]!]![method]) ?? 'Unknown';
    const text = Buffer.concat(chunks).toString('utf8');
    const query = Object.fromEntries(url.searchParams);
    const reply = (status: number, body: object, type?: string) => {
      response.writeHead(status, { 'content-type': 'application/json', ...(type && { 'x-amzn-errortype': type }) });
      response.end(JSON.stringify(body));
    };
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      requests.push({ operation, method, path: decodeURIComponent(url.pathname), query, body: text });
      return reply(400, { Message: 'The body is not JSON.' }, 'SerializationException');
    }
    requests.push({ operation, method, path: decodeURIComponent(url.pathname), query, body });
    try {
      reply(200, handle(operation, name, query, (body ?? {}) as Record<string, unknown>));
    } catch (error) {
      if (error instanceof ApiFailure) return reply(error.status, { Message: error.message }, error.type);
      reply(500, { Message: error instanceof Error ? error.message : String(error) }, 'InternalServerException');
    }
  }

  const server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    /** Every request, in order. */
    requests,
    /** What it holds now. */
    schedules: () => [...schedules.values()],
    groups: () => [...groups.keys()],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SchedulerEndpoint = Awaited<ReturnType<typeof startSchedulerEndpoint>>;
