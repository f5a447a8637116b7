/**
 * The worker's side of remote pull through the local runtime's queue (SQS's
 * visibility timeout, redelivery and dead letters, here with a 100 ms
 * visibility timeout): transient failures retried then dead-lettered, a
 * message delivered twice or twice at once, a run that died and the sweeper.
 */
import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryFiles } from '../../lib/local/git-server.ts';
import { lambdaContext } from '../../lib/local/proxy-event.ts';
import { startPull } from '../../lib/remote/start.ts';
import type { Task } from '../../lib/store/types.ts';
import { createWorkspaceWithKey, simpleRule, workflow } from '../helpers/entities.ts';
import { counts, entityFiles, expectTask, pullClient, startRepositories, type Repositories } from '../helpers/pull.ts';
import { credentialBody, credentialPath, credentialsPath, json, type CredentialView } from '../helpers/credentials.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { closedPort } from '../outbound/servers.ts';

const t = useRuntime({ visibilityTimeoutMs: 100 });
let repos: Repositories;

beforeAll(async () => {
  repos = await startRepositories();
});
afterAll(async () => {
  await repos?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds, at most 5 s. */
async function until(condition: () => boolean | Promise<boolean>, what = 'the condition') {
  const deadline = Date.now() + 5000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A queue that drops messages: a task started with it stays pending until a test delivers its message. */
const silentQueue = { send: async () => undefined };

/** An SQS batch of one message for the task, as the queue hands it to the worker. */
const sqsEvent = (taskId: string, receiveCount = 1): SQSEvent => ({
  Records: [
    {
      messageId: randomUUID(),
      receiptHandle: randomUUID(),
      body: JSON.stringify({ taskId }),
      attributes: {
        ApproximateReceiveCount: String(receiveCount),
        SentTimestamp: String(Date.now()),
        SenderId: 'test',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:tasks',
      awsRegion: 'local',
    },
  ],
});

/** The deployed worker function (functions/task-worker.ts), called as Lambda calls it. */
async function deliver(taskId: string, receiveCount = 1) {
  const { handler } = await import('../../functions/task-worker.ts');
  return handler(sqsEvent(taskId, receiveCount), lambdaContext({ handler: 'task-worker' }, 60_000));
}

/** Delivers the task's message again through the runtime's queue and waits until the queue is idle. */
async function redeliver(taskId: string) {
  t.runtime.queue.send(JSON.stringify({ taskId }));
  await t.runtime.queue.idle();
}

/** The task as stored, bookkeeping included. */
const stored = async (taskId: string) => (await t.runtime.store.getTask(taskId)) as Task;

/** A workspace of its own whose remote is `url`, or its own repository on the Git server. */
async function workspace(id: string, remote: string | Record<string, RepositoryFiles>) {
  const { key } = await createWorkspaceWithKey(t.runtime.store, { id });
  const client = pullClient(t.api, key);
  let url = remote as string;
  if (typeof remote !== 'string') {
    await repos.create(`${id}.git`, remote);
    url = repos.repoUrl(`${id}.git`);
  }
  expect((await client.setRemote(url)).status).toBe(200);
  return { client, repository: `${id}.git` };
}

/** The dead letters that carry this task's message. */
const deadLettersOf = (taskId: string) => t.runtime.queue.deadLetters.filter((m) => JSON.parse(m.body).taskId === taskId);

describe('transient failures', () => {
  it('redelivers the message of an unreachable remote, then dead-letters it after the last receive and fails the task', async () => {
    const port = await closedPort();
    const { client } = await workspace('unreachable', `http://127.0.0.1:${port}/rules.git`);
    const { taskId } = await client.start('main');
    const task = await client.wait(taskId);
    await t.runtime.queue.idle();
    expect(task.taskState).toBe('failed');
    expect(task.error).toMatch(/Could not reach the Git repository/);
    expect(task.error).toContain(`127.0.0.1:${port}`);
    const dead = deadLettersOf(taskId);
    expect(dead.map((m) => m.receiveCount)).toEqual([3]);
    // The branch is free again.
    expect((await t.runtime.store.getBranchSync('unreachable', 'main'))?.activeTaskId).toBeUndefined();
  });
});

describe('transient failures of a Git host that answers', () => {
  it('retries a 503 on every delivery (three receives), then fails the task and dead-letters the message', async () => {
    const { client, repository } = await workspace('busy-host', { main: entityFiles([simpleRule('a', 'A')]) });
    repos.failNext(3, 503);
    const { taskId } = await client.start('main');
    const task = await client.wait(taskId);
    await t.runtime.queue.idle();
    expect(task.taskState).toBe('failed');
    expect(task.error).toMatch(/did not serve the repository \(HTTP 503/);
    expect(repos.fetches(repository)).toBe(3);
    expect(deadLettersOf(taskId).map((m) => m.receiveCount)).toEqual([3]);
    expect((await client.branchState('main')).lists).toEqual({ rule: [], workflow: [] });
  });

  it('completes on a later delivery once the host answers again, showing the retried error only meanwhile', async () => {
    const { client, repository } = await workspace('flaky-host', { main: entityFiles([simpleRule('a', 'A'), workflow('w', 'W')]) });
    repos.failNext(1, 503);
    const release = repos.hold(); // the second delivery's fetch waits here
    const { taskId } = await client.start('main');
    try {
      await until(() => repos.fetches(repository) === 2);
      const retrying = expectTask(await client.task(taskId));
      expect(retrying).toMatchObject({ taskState: 'in-progress', error: expect.stringMatching(/HTTP 503/) });
      expect(retrying).not.toHaveProperty('finishedAt');
    } finally {
      release();
    }
    const task = await client.wait(taskId);
    await t.runtime.queue.idle();
    expect(repos.fetches(repository)).toBe(2);
    expect(task).toMatchObject({ taskState: 'completed', summary: { rule: counts(1), workflow: counts(1) } });
    expect(task).not.toHaveProperty('error');
    expect(deadLettersOf(taskId)).toEqual([]);
  });
});

describe('a message delivered more than once', () => {
  const files = entityFiles([simpleRule('a', 'A'), simpleRule('b', 'B'), workflow('w', 'W')]);

  it('does not run a finished task again', async () => {
    const { client, repository } = await workspace('delivered-again', { main: files });
    const done = await client.pullAndWait('main');
    expect(done).toMatchObject({ taskState: 'completed', summary: { rule: counts(2), workflow: counts(1) } });
    const before = await stored(done.taskId);
    const branch = await client.branchState('main');
    const fetched = repos.fetches(repository);

    await redeliver(done.taskId);
    expect(await deliver(done.taskId, 2)).toEqual({ batchItemFailures: [] });

    expect(repos.fetches(repository)).toBe(fetched);
    expect(await stored(done.taskId)).toEqual(before);
    expect(expectTask(await client.task(done.taskId))).toEqual(done);
    expect(await client.branchState('main')).toEqual(branch);
    expect(deadLettersOf(done.taskId)).toEqual([]);
  });

  it('runs a pending task once when its message arrives twice at once, and not while a run holds it', async () => {
    const { client, repository } = await workspace('delivered-at-once', { main: files });
    const pending = await startPull({ store: t.runtime.store, queue: silentQueue }, 'delivered-at-once', 'main');
    const release = repos.hold(); // the winning run waits in its fetch, so the deliveries overlap
    const runs = [deliver(pending.taskId), deliver(pending.taskId)];
    try {
      // One delivery claims the task; the other finds it claimed and is done at once.
      expect(await Promise.race(runs)).toEqual({ batchItemFailures: [] });
      await until(() => repos.fetches(repository) === 1, 'the winning run to fetch');
      const running = await stored(pending.taskId);
      expect(running).toMatchObject({ taskState: 'in-progress', startedAt: expect.any(String), runId: expect.any(String) });
      // A redelivery while the run's lease holds: answered done, nothing fetched.
      await redeliver(pending.taskId);
      expect(await stored(pending.taskId)).toEqual(running);
      expect(deadLettersOf(pending.taskId)).toEqual([]);
    } finally {
      release();
    }
    expect(await Promise.all(runs)).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(repos.fetches(repository)).toBe(1);
    const task = await client.wait(pending.taskId);
    expect(task).toMatchObject({ taskState: 'completed', summary: { rule: counts(2), workflow: counts(1), ignoredFolders: [] } });
    expect(task.startedAt).toBe((await stored(pending.taskId)).startedAt);
    expect((await client.branchState('main')).details['rule/a']).toMatchObject({ revision: 1 });
  });
});

describe('a run that died', () => {
  const files = entityFiles([simpleRule('a', 'A')]);
  const past = () => new Date(Date.now() - 60_000).toISOString();

  /** A task of the branch left in progress by a run whose lease ran out a minute ago. */
  async function abandoned(workspaceId: string, branch = 'main') {
    const pending = await startPull({ store: t.runtime.store, queue: silentQueue }, workspaceId, branch);
    const startedAt = past();
    const task = await t.runtime.store.transitionTask(pending.taskId, ['pending'], {
      taskState: 'in-progress',
      runId: 'run-that-died',
      startedAt,
      leaseUntil: startedAt,
      dueAt: startedAt,
    });
    expect(task).toMatchObject({ taskState: 'in-progress', runId: 'run-that-died' });
    return task as Task;
  }

  it('is failed by the sweeper, never reopened, and the branch can be pulled again', async () => {
    const { client, repository } = await workspace('died', { main: files });
    const dead = await abandoned('died');
    // Until it is swept the branch's pull is that task.
    expect(await client.start('main')).toEqual({ taskId: dead.taskId, taskState: 'in-progress' });

    const { handler: sweep } = await import('../../functions/task-sweeper.ts');
    expect(await sweep()).toEqual({ swept: 1 });
    const failed = await client.wait(dead.taskId);
    expect(failed).toMatchObject({ taskState: 'failed', startedAt: dead.startedAt, error: expect.stringMatching(/stopped before it finished.*Pull again/) });
    expect(Date.parse(failed.finishedAt!)).toBeGreaterThan(Date.parse(dead.startedAt!));

    // Finished for good: nothing to sweep, the dead run cannot finish it, a late delivery does not run it.
    expect(await sweep()).toEqual({ swept: 0 });
    expect(await t.runtime.store.transitionTask(dead.taskId, ['in-progress'], { taskState: 'completed' }, { runId: 'run-that-died' })).toBeUndefined();
    await redeliver(dead.taskId);
    expect(expectTask(await client.task(dead.taskId))).toEqual(failed);
    expect(repos.fetches(repository)).toBe(0);

    const again = await client.start('main');
    expect(again.taskId).not.toBe(dead.taskId);
    expect(await client.wait(again.taskId)).toMatchObject({ taskState: 'completed', summary: { rule: counts(1) } });
  });

  it('is taken over by the next delivery of its message, which completes it', async () => {
    const { client, repository } = await workspace('taken-over', { main: files });
    const dead = await abandoned('taken-over');
    await redeliver(dead.taskId);
    const task = await client.wait(dead.taskId);
    expect(task).toMatchObject({ taskState: 'completed', startedAt: dead.startedAt, summary: { rule: counts(1) } });
    expect((await stored(dead.taskId)).runId).not.toBe('run-that-died');
    expect(repos.fetches(repository)).toBe(1);
    expect((await t.runtime.store.getBranchSync('taken-over', 'main'))?.activeTaskId).toBeUndefined();
  });

  it('leaves a fresh pending task alone, and fails one whose message never arrived past its deadline', async () => {
    await workspace('never-delivered', { main: files });
    const { sweepTasks } = await import('../../lib/tasks/sweeper.ts');
    const { sweptKinds } = await import('../../functions/task-sweeper.ts');
    const pending = await startPull({ store: t.runtime.store, queue: silentQueue }, 'never-delivered', 'main');
    expect(await sweepTasks(t.runtime.store, sweptKinds)).toBe(0);
    expect((await stored(pending.taskId)).taskState).toBe('pending');
    expect(await sweepTasks(t.runtime.store, sweptKinds, new Date(Date.now() + 2 * 3600_000))).toBe(1);
    expect(await stored(pending.taskId)).toMatchObject({ taskState: 'failed', error: expect.stringMatching(/never reached/) });
  });
});

describe("the remote's credential gone since the remote was set", () => {
  it('fails the pull at once with a plain message (no retry, nothing dead-lettered)', async () => {
    const { client, repository } = await workspace('revoked-later', { main: entityFiles([simpleRule('a', 'A')]) });
    const secret = 'tok-REVOKED-LATER-6b1f';
    const created = await t.api<CredentialView>(credentialsPath, json('POST', credentialBody('git', secret, { key: 'PRIVATE-TOKEN' }), { key: client.key }));
    expect(created.status).toBe(201);
    expect((await client.setRemote(repos.repoUrl(repository), created.body.data.id)).status).toBe(200);
    expect((await t.api(credentialPath(created.body.data.id), { method: 'DELETE', key: client.key })).status).toBe(200);

    const { taskId } = await client.start('main');
    const task = await client.wait(taskId);
    await t.runtime.queue.idle();
    expect(task.taskState).toBe('failed');
    expect(task.error).toMatch(/revoked/);
    expect(task.error).not.toContain(secret);
    expect(deadLettersOf(taskId)).toEqual([]);
    expect(repos.fetches(repository)).toBe(0);
  });
});
