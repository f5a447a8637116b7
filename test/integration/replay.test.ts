/**
 * Replay through the local HTTP runtime, with its real queue and worker:
 * POST .../replay answers 202 with a task, the worker replays the rule's
 * recorded executions (or a list of params) on the draft and the published
 * version, and GET /dev/v1/tasks/{taskId} shows the report. A window larger
 * than a shard is split across messages and gives the same report as one
 * message; a shard delivered twice counts once; a draft edited after the
 * replay was asked fails it; bounds are refused before anything is read;
 * workflows and other workspaces are refused.
 */
import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../lib/local/proxy-event.ts';
import { startReplay } from '../../lib/replay/start.ts';
import { api as apiFor, type Api } from '../helpers/api.ts';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import { fieldsOf, rulesClient, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { waitForTask } from '../helpers/workflows.ts';
import { storedTask } from '../helpers/store.ts';

const t = useRuntime();
let api: Api;
let other: Api;
let rules: ReturnType<typeof rulesClient>;

/** A fee by amount under unique; the draft the tests replay raises the middle row's fee and adds a row overlapping the last. */
const feeTable = (id: string, rows: Json[], extra: Json = {}): Json => ({
  id,
  name: `Fee ${id}`,
  type: 'decisionTable',
  definition: {
    hitPolicy: 'unique',
    parameters: [{ name: 'amount', type: 'number' }],
    inputs: [{ id: 'amount', expression: 'amount', type: 'number' }],
    outputs: [
      { id: 'fee', name: 'fee', type: 'number' },
      { id: 'band', name: 'band', type: 'string' },
    ],
    rules: rows,
    settings: { recordExecutions: true },
    ...extra,
  },
});
const publishedRows: Json[] = [
  { id: 'small', when: ['< 100'], then: [1, '"small"'] },
  { id: 'mid', when: ['[100..500)'], then: [2.5, '"mid"'] },
  { id: 'big', when: ['>= 500'], then: [5, '"big"'] },
];
const draftRows: Json[] = [
  publishedRows[0]!,
  { id: 'mid', when: ['[100..500)'], then: [3, '"mid"'] },
  publishedRows[2]!,
  { id: 'huge', when: ['>= 550'], then: [9, '"huge"'] },
];

interface ReplayView {
  taskId: string;
  taskState: string;
  error?: string;
  replay: { ruleId: string; candidate: { label: string }; baseline: { label: string }; source: Json; report?: Json & { counts: Json; sample: Json[] } };
  shards?: { count: number; done: number };
}

const replay = (id: string, body: Json, via: Api = api) =>
  via<{ taskId: string; taskState: string }>(`/dev/v1/rule/${id}/replay`, { method: 'POST', body: JSON.stringify(body) });

/** Asks for a replay, checks the 202, and waits for its task to end. */
async function replayed(id: string, body: Json): Promise<ReplayView> {
  const started = replay(id, body);
  const accepted = expectUnpaged(await started, 202);
  expect(accepted).toEqual({ taskId: expect.stringMatching(/^[0-9a-f-]{36}$/), taskState: 'pending' });
  return (await waitForTask(api, accepted.taskId, {}, 20_000)) as unknown as ReplayView;
}

/** The worker function, called as Lambda calls it with one message. */
async function deliver(body: Json, receiveCount = 1) {
  const { handler } = await import('../../functions/task-worker.ts');
  const event: SQSEvent = {
    Records: [
      {
        messageId: randomUUID(),
        receiptHandle: randomUUID(),
        body: JSON.stringify(body),
        attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:local:000000000000:tasks',
        awsRegion: 'local',
      },
    ],
  };
  return handler(event, lambdaContext({ handler: 'task-worker' }, 60_000));
}

const amounts = [10, 150, 200, 600, 'ten', 20, 450, 499, 500, 700, 99, 100];

beforeAll(async () => {
  const { key } = await createWorkspaceWithKey(t.runtime.store, { id: 'replay-ws' });
  api = (path, options) => apiFor(t.runtime)(path, { key, ...options });
  other = (path, options) => apiFor(t.runtime)(path, { key: t.runtime.apiKey, ...options });
  rules = rulesClient(api);
  await rules.published(feeTable('fee', publishedRows));
  // Recorded executions, one after the other, failures too (a text where a number is declared).
  for (const amount of amounts) await rules.execute('fee', { params: { amount } });
  const current = await rules.get('fee');
  expect((await rules.update('fee', { checksum: current.body.data.checksum, definition: feeTable('fee', draftRows).definition })).status).toBe(200);
}, 30_000);

describe('replaying recorded executions', () => {
  it('answers 202 with a task whose report counts, tallies rows and fields, and samples the changes', async () => {
    const view = await replayed('fee', { candidate: 'draft', source: { executions: {} } });
    expect(view.taskState, view.error).toBe('completed');
    expect(view.replay).toMatchObject({ ruleId: 'fee', candidate: { label: 'draft' }, baseline: { label: 'v1' } });
    expect(view.shards).toEqual({ count: 1, done: 1 });
    const report = view.replay.report!;
    // 150, 200, 450, 499, 100: the mid fee; 600 and 700 match two rows under unique; "ten" fails on both.
    expect(report.counts).toEqual({ inputs: 12, same: 4, changed: 5, newlyFailing: 2, newlySucceeding: 0, bothFailing: 1 });
    expect(report.hits).toEqual({
      baseline: [
        { name: 'row 1', id: 'small', hits: 3 },
        { name: 'row 2', id: 'mid', hits: 5 },
        { name: 'row 3', id: 'big', hits: 3 },
      ],
      candidate: [
        { name: 'row 1', id: 'small', hits: 3 },
        { name: 'row 2', id: 'mid', hits: 5 },
        { name: 'row 3', id: 'big', hits: 1 },
        { name: 'row 4', id: 'huge', hits: 0 },
      ],
    });
    expect(report.fields).toEqual([{ field: 'fee', changed: 5, delta: { count: 5, mean: 0.5, min: 0.5, max: 0.5 } }]);
    expect(report.sample.map((c) => c.inputIndex)).toEqual([1, 2, 3, 6, 7, 9, 11]);
    const executions = (await rules.executions('fee', { pageSize: 100 })).body.data.reverse();
    expect(report.sample[0]).toEqual({
      inputIndex: 1,
      executionId: executions[1]!.executionId,
      input: { amount: 150 },
      baseline: { output: { fee: 2.5, band: 'mid' }, hits: ['row 2'] },
      candidate: { output: { fee: 3, band: 'mid' }, hits: ['row 2'] },
    });
    expect(report.sample[2]).toMatchObject({
      inputIndex: 3,
      input: { amount: 600 },
      baseline: { output: { fee: 5, band: 'big' }, hits: ['row 3'] },
      candidate: { error: { code: 'evaluation_failed' }, hits: [] },
    });
  });

  it('gives the same report split across messages of a few executions each as in one message', async () => {
    const whole = await replayed('fee', { candidate: 'draft', source: { executions: {} } });
    process.env.REPLAY_SHARD_SIZE = '5';
    try {
      const split = await replayed('fee', { candidate: 'draft', source: { executions: {} } });
      expect(split.taskState, split.error).toBe('completed');
      expect(split.shards).toEqual({ count: 3, done: 3 });
      expect(split.replay.report).toEqual(whole.replay.report);
    } finally {
      delete process.env.REPLAY_SHARD_SIZE;
    }
  });

  it('counts a shard delivered twice once, and completes once', async () => {
    process.env.REPLAY_SHARD_SIZE = '4';
    try {
      const silent = { send: async () => undefined };
      const ref = { workspaceId: 'replay-ws', branch: 'main', entityType: 'rule' as const, id: 'fee' };
      const { taskId } = await startReplay({ store: t.runtime.store, queue: silent }, ref, { candidate: 'draft', source: { executions: {} } });
      // The first message plans: it sends the shards' messages through the runtime's queue, and its worker runs them.
      await deliver({ taskId, workspaceId: 'replay-ws' });
      await t.runtime.queue.idle();
      const done = await storedTask(t.runtime.store, taskId, 'replay');
      expect(done.taskState).toBe('completed');
      expect(done.shards?.count).toBe(3);
      // Each shard again, and the first message: nothing changes.
      for (const shard of [0, 1, 2]) expect(await deliver({ taskId, workspaceId: 'replay-ws', shard }, 2)).toEqual({ batchItemFailures: [] });
      await deliver({ taskId, workspaceId: 'replay-ws' }, 2);
      const again = await storedTask(t.runtime.store, taskId, 'replay');
      expect(again).toEqual(done);
      const whole = await replayed('fee', { candidate: 'draft', source: { executions: {} } });
      expect(JSON.parse(again.replay.reportJson!)).toEqual(whole.replay.report);
    } finally {
      delete process.env.REPLAY_SHARD_SIZE;
    }
  });

  it('redelivers a shard whose part was written but not counted, and counts it once', async () => {
    process.env.REPLAY_SHARD_SIZE = '6';
    try {
      const silent = { send: async () => undefined };
      const ref = { workspaceId: 'replay-ws', branch: 'main', entityType: 'rule' as const, id: 'fee' };
      const { taskId } = await startReplay({ store: t.runtime.store, queue: silent }, ref, { candidate: 'draft', source: { executions: {} } });
      // The plan only: its shards' messages go nowhere.
      const { runReplayTask } = await import('../../lib/replay/run.ts');
      const task = await storedTask(t.runtime.store, taskId, 'replay');
      const deps = { store: t.runtime.store, queue: silent, leaseMs: 60_000, shardSize: 6, shardWorkMs: 60_000 };
      await runReplayTask(deps, task, { attempt: 1, maxAttempts: 3 }, { taskId, workspaceId: 'replay-ws' });
      // Shard 0 wrote its part and stopped before it counted itself: its redelivery counts it, once.
      const planned = await storedTask(t.runtime.store, taskId, 'replay');
      expect(planned.shards).toEqual({ count: 2, done: {} });
      await t.runtime.store.putTaskPart(
        taskId,
        0,
        '{"shards":[[0,0]],"counts":{"inputs":0,"same":0,"changed":0,"newlyFailing":0,"newlySucceeding":0,"bothFailing":0},"hits":{"baseline":[],"candidate":[]},"fields":[],"fieldsCut":false,"sample":[]}',
      );
      for (const shard of [0, 0, 1])
        await runReplayTask(
          deps,
          await storedTask(t.runtime.store, taskId, 'replay'),
          { attempt: 2, maxAttempts: 3 },
          { taskId, workspaceId: 'replay-ws', shard },
        );
      const done = await storedTask(t.runtime.store, taskId, 'replay');
      expect(done.taskState).toBe('completed');
      expect(Object.keys(done.shards!.done)).toEqual(['0', '1']);
      // The part written first is the one kept: here an empty one, so the report holds shard 1's inputs alone.
      expect(JSON.parse(done.replay.reportJson!).counts.inputs).toBe(6);
    } finally {
      delete process.env.REPLAY_SHARD_SIZE;
    }
  });

  it('replays a window, and the newest `limit` of it', async () => {
    const listed = (await rules.executions('fee', { pageSize: 100 })).body.data.reverse();
    const from = listed[3]!.startedAt;
    const to = listed[9]!.startedAt;
    const windowed = await replayed('fee', { candidate: 'draft', source: { executions: { from, to } } });
    expect(windowed.replay.report!.counts.inputs).toBe(6);
    expect(windowed.replay.source).toEqual({ executions: { from, to, limit: 10_000 } });
    const newest = await replayed('fee', { candidate: 'draft', source: { executions: { limit: 3 } } });
    // 700, 99 and 100.
    expect(newest.replay.report!.counts).toMatchObject({ inputs: 3, same: 1, changed: 1, newlyFailing: 1 });
  });

  it('compares two versions, and a list of params', async () => {
    const versions = await replayed('fee', { candidate: 'v1', baseline: 'v1', source: { executions: {} } });
    expect(versions.replay.report!.counts).toMatchObject({ inputs: 12, same: 11, bothFailing: 1 });
    const listed = await replayed('fee', { candidate: 'draft', source: { paramsList: [{ amount: 150 }, { amount: 1 }, {}] } });
    expect(listed.replay.source).toEqual({ paramsList: { count: 3 } });
    // No amount: no row matches, and both answer null.
    expect(listed.replay.report!.counts).toEqual({ inputs: 3, same: 2, changed: 1, newlyFailing: 0, newlySucceeding: 0, bothFailing: 0 });
    expect(listed.replay.report!.sample).toEqual([
      expect.objectContaining({ inputIndex: 0, input: { amount: 150 }, candidate: { output: { fee: 3, band: 'mid' }, hits: ['row 2'] } }),
    ]);
  });

  it('fails a replay whose draft was edited after it was asked for, saying so', async () => {
    await rules.published(feeTable('edited', publishedRows));
    const silent = { send: async () => undefined };
    const ref = { workspaceId: 'replay-ws', branch: 'main', entityType: 'rule' as const, id: 'edited' };
    const { taskId } = await startReplay({ store: t.runtime.store, queue: silent }, ref, { candidate: 'draft', source: { paramsList: [{ amount: 1 }] } });
    const current = await rules.get('edited');
    await rules.update('edited', { checksum: current.body.data.checksum, description: 'edited' });
    expect(await deliver({ taskId, workspaceId: 'replay-ws' })).toEqual({ batchItemFailures: [] });
    const view = await waitForTask(api, taskId);
    expect(view.taskState).toBe('failed');
    expect(view.error).toMatch(/^The draft of "edited" changed since the replay was asked \(its checksum was \w+, it is \w+\): replay it again\.$/);
  });
});

describe('a replay that cannot finish', () => {
  const ref = { workspaceId: 'replay-ws', branch: 'main', entityType: 'rule' as const, id: 'fee' };
  const silent = { send: async () => undefined };
  const asked = () => startReplay({ store: t.runtime.store, queue: silent }, ref, { candidate: 'draft', source: { executions: {} } });

  it('is failed by the sweeper once its shards stop coming, and not before', async () => {
    const { taskId } = await asked();
    const { runReplayTask } = await import('../../lib/replay/run.ts');
    const deps = { store: t.runtime.store, queue: silent, leaseMs: 60_000, shardSize: 4, shardWorkMs: 60_000 };
    await runReplayTask(deps, await storedTask(t.runtime.store, taskId, 'replay'), { attempt: 1, maxAttempts: 3 }, { taskId, workspaceId: 'replay-ws' });
    const planned = await storedTask(t.runtime.store, taskId, 'replay');
    // Three shards: time for each to be taken by the queue's workers in turn.
    expect(Date.parse(planned.dueAt!) - Date.now()).toBeGreaterThan(2 * deps.leaseMs);
    const { sweptKinds } = await import('../../functions/task-sweeper.ts');
    const { sweepTasks } = await import('../../lib/tasks/sweeper.ts');
    await sweepTasks(t.runtime.store, sweptKinds);
    expect((await t.runtime.store.getTask(taskId))?.taskState).toBe('in-progress');
    await sweepTasks(t.runtime.store, sweptKinds, new Date(Date.parse(planned.dueAt!) + 1000));
    expect(await waitForTask(api, taskId)).toMatchObject({
      taskState: 'failed',
      error: 'The replay stopped before it finished (its worker stopped or ran out of time, or never received it). Nothing was changed: ask for it again.',
    });
  });

  it('fails when a shard runs out of its time, saying so', async () => {
    const { taskId } = await asked();
    const { runReplayTask } = await import('../../lib/replay/run.ts');
    const deps = { store: t.runtime.store, queue: silent, leaseMs: 60_000, shardSize: 100, shardWorkMs: -1 };
    expect(
      await runReplayTask(deps, await storedTask(t.runtime.store, taskId, 'replay'), { attempt: 1, maxAttempts: 3 }, { taskId, workspaceId: 'replay-ws' }),
    ).toBe('done');
    expect(await waitForTask(api, taskId)).toMatchObject({
      taskState: 'failed',
      error: "The replay's shard 0 ran out of time after 0 inputs: the rules take too long on these inputs to replay them within a worker's time limit.",
    });
  });
});

describe('what a replay refuses', () => {
  it('refuses workflows with the reason, and rules never published', async () => {
    expectFailure(await replay('a-flow', { candidate: 'draft', source: { paramsList: [{}] } }).then((r) => r), 404, 'entity_not_found');
    const workflow = await api('/dev/v1/workflow/any/replay', { method: 'POST', body: JSON.stringify({ candidate: 'draft', source: { paramsList: [{}] } }) });
    expectFailure(workflow, 400, 'replay_not_supported');
    expect(workflow.body.message).toContain('API-request steps have effects');
    await rules.create(feeTable('unpublished', publishedRows));
    expectFailure(await replay('unpublished', { candidate: 'draft', source: { paramsList: [{}] } }), 409, 'rule_not_published');
    expectFailure(await replay('fee', { candidate: 'v9', source: { paramsList: [{}] } }), 404, 'version_not_found');
  });

  it('refuses bounds before anything is read, naming the field', async () => {
    const day = 24 * 3600_000;
    const bad: [Json, string][] = [
      [{ candidate: 'draft', source: { executions: { from: new Date(Date.now() - 40 * day).toISOString() } } }, 'source.executions.from'],
      [
        { candidate: 'draft', source: { executions: { from: new Date().toISOString(), to: new Date(Date.now() - day).toISOString() } } },
        'source.executions.to',
      ],
      [{ candidate: 'draft', source: { executions: { from: new Date(Date.now() + day).toISOString() } } }, 'source.executions.from'],
      [{ candidate: 'draft', source: { executions: { limit: 1_000_001 } } }, 'source.executions.limit'],
      [{ candidate: 'draft', source: { executions: { limit: 0 } } }, 'source.executions.limit'],
      [{ candidate: 'draft', source: { executions: { from: 'yesterday' } } }, 'source.executions.from'],
      [{ candidate: 'draft', source: { executions: {}, paramsList: [{}] } }, 'source'],
      [{ candidate: 'draft', source: {} }, 'source'],
      [{ candidate: 'draft', source: { paramsList: Array.from({ length: 1_001 }, () => ({})) } }, 'source.paramsList'],
      [{ candidate: 'draft', source: { paramsList: Array.from({ length: 20 }, () => ({ text: 'x'.repeat(15_000) })) } }, 'source.paramsList'],
      [{ candidate: 'draft', source: { paramsList: [{ text: 'x'.repeat(17_000) }] } }, 'source.paramsList[0]'],
      [{ candidate: 'draft', source: { paramsList: [] } }, 'source.paramsList'],
      [{ candidate: 'latest', source: { paramsList: [{}] } }, 'candidate'],
      [{ candidate: 'draft', baseline: 'draft', source: { paramsList: [{}] } }, 'baseline'],
      [{ source: { paramsList: [{}] } }, 'candidate'],
    ];
    for (const [body, field] of bad) {
      const answer = await replay('fee', body);
      expectFailure(answer, 400, 'invalid_request');
      expect(fieldsOf(answer), JSON.stringify(body).slice(0, 200)).toContain(field);
    }
  });

  it("keeps a workspace's replays from another: the rule is not found, nor is the task", async () => {
    const view = await replayed('fee', { candidate: 'draft', source: { paramsList: [{ amount: 1 }] } });
    expectFailure(await replay('fee', { candidate: 'draft', source: { paramsList: [{}] } }, other), 404, 'entity_not_found');
    expectFailure(await other(`/dev/v1/tasks/${view.taskId}`), 404, 'task_not_found');
  });
});
