/**
 * Remote pull under real faults, on the local runtime (queue with a 100 ms
 * visibility timeout and no backoff between deliveries): the queue refusing
 * the message, the worker dying before, while and after it writes the
 * branch (its DynamoDB requests cut off at a chosen one), a run that
 * outlived its lease, and the Git host going away in the middle of a fetch.
 * After each the task ends completed or failed, the branch holds either the
 * commit it had or the whole new one (a task failed half way says so), and
 * the next pull brings it to the new commit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweptKinds } from '../../functions/task-sweeper.ts';
import { keyringFromEnv } from '../../lib/credentials/keyring.ts';
import { openCredential } from '../../lib/credentials/service.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { taskDelivery } from '../../lib/tasks/delivery.ts';
import { fetchBranch } from '../../lib/remote/git-remote.ts';
import { runPullTask, type RunDeps } from '../../lib/remote/pull-run.ts';
import { startPull } from '../../lib/remote/start.ts';
import type { Store } from '../../lib/store/types.ts';
import { sweepTasks } from '../../lib/tasks/sweeper.ts';
import type { DynamoRequest } from '../helpers/dynamo-proxy.ts';
import { createWorkspaceWithKey, simpleRule, workflow } from '../helpers/entities.ts';
import {
  contentFor,
  contentOf,
  counts,
  entityFiles,
  filePath,
  leaseOver,
  pullClient,
  redeliver,
  refusingQueue,
  silentQueue,
  startDyingStore,
  startRepositories,
  startVanishingRemote,
  type PullClient,
  type Repositories,
  type VanishingRemote,
} from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { storedTask } from '../helpers/store.ts';

const t = useRuntime({ visibilityTimeoutMs: 100, retryBaseSeconds: 0 });
let repos: Repositories;

beforeAll(async () => {
  repos = await startRepositories();
});
afterAll(async () => {
  await repos?.close();
});

/**
 * Commit A, then commit B, which changes every rule of A, adds one, and
 * replaces the workflow: a batch of 4 rule writes, the rules counted, then
 * a batch of 2 workflow writes (a put and a delete), the workflows counted.
 */
const ruleIds = ['r1', 'r2', 'r3', 'r4'];
const oldFlow = workflow('w-old', 'Old flow');
const commitA = [...ruleIds.slice(0, 3).map((id) => simpleRule(id, `Rule ${id}`)), oldFlow];
const commitB = [...ruleIds.map((id) => simpleRule(id, `Rule ${id}, edited`)), workflow('w-new', 'New flow')];
const first = { attempt: 1, maxAttempts: taskDelivery.maxReceiveCount };
const last = { attempt: taskDelivery.maxReceiveCount, maxAttempts: taskDelivery.maxReceiveCount };

/** The task as stored, bookkeeping included. */
const stored = (taskId: string) => storedTask(t.runtime.store, taskId, 'pull');

/** Expects the branch to hold exactly `inputs`, as the API lists and serves it. */
async function expectBranch(client: PullClient, inputs: EntityInput[]) {
  expect(contentOf(await client.branchState('main'))).toEqual(contentFor(inputs));
}

/** A workspace whose main branch was pulled at commit A, with commit B pushed since: what each fault interrupts. */
async function pulledAtA(id: string, gitUrl = repos.url) {
  const { key } = await createWorkspaceWithKey(t.runtime.store, { id });
  const repository = `${id}.git`;
  await repos.create(repository, { main: entityFiles(commitA) });
  const client = pullClient(t.api, key);
  expect((await client.setRemote(`${gitUrl}/${repository}`)).status).toBe(200);
  expect(await client.pullAndWait('main')).toMatchObject({ taskState: 'completed' });
  const commit = await repos.commit(repository, 'main', entityFiles(commitB), [filePath(oldFlow)]);
  return { client, repository, commit };
}

/** `pulledAtA`, and a pull of commit B started whose message only the test delivers: its taskId. */
async function pendingPull(id: string) {
  const pulled = await pulledAtA(id);
  return { ...pulled, taskId: (await startPull({ store: t.runtime.store, queue: silentQueue }, id, 'main')).taskId };
}

/** What the worker function gives runPullTask, on `store`, with a lease of `leaseMs`. */
const workerDeps = (store: Store, leaseMs: number): RunDeps => ({
  store,
  fetchBranch,
  openCredential: (workspaceId, credentialId) => openCredential({ store, keyring: keyringFromEnv() }, workspaceId, credentialId),
  leaseMs,
});

/** Holds for the `n`th request of `operation` whose body holds `text`: where a worker is to die. */
function nth(operation: string, n = 1, text = '') {
  let seen = 0;
  return (request: DynamoRequest) => request.operation === operation && request.body.includes(text) && ++seen === n;
}

/** Where a worker dies, by the DynamoDB request it does not get to make. */
const dies = {
  /** Reading the branch to plan: the fetch is done, nothing is written. */
  beforeWriting: () => nth('Query'),
  /** Writing the workflows: the rules are written and counted. */
  midWrite: () => nth('BatchWriteItem', 2),
  /** Counting the rules: every rule is written, the branch's counters are not updated, no workflow is written. */
  beforeCounting: () => nth('Query', 1, '"IndexName"'),
  /** Ending the task: the whole commit is written. */
  beforeFinishing: () => nth('UpdateItem', 1, '"completed"'),
};

/** Runs one delivery of the task on a worker that dies where `diesAt` says, holding a lease of `leaseMs`; the task as it left it. */
async function dyingRun(taskId: string, diesAt: (request: DynamoRequest) => boolean, leaseMs: number, delivery = first) {
  const dying = await startDyingStore(t.runtime, diesAt);
  try {
    await expect(runPullTask(workerDeps(dying.store, leaseMs), taskId, delivery)).rejects.toThrow(/Injected/);
    expect(dying.dead).toBe(true);
  } finally {
    await dying.close();
  }
  const task = await stored(taskId);
  expect(task.taskState).toBe('in-progress');
  return task;
}

describe('the queue refusing the message', () => {
  it('fails the task saying so and frees the branch, which it leaves as it was; the next pull runs', async () => {
    const { client, commit } = await pulledAtA('queue-down');
    const down = refusingQueue();
    await expect(startPull({ store: t.runtime.store, queue: down }, 'queue-down', 'main')).rejects.toThrow('the queue is unavailable');
    expect(down.taskIds).toHaveLength(1);
    expect(await stored(down.taskIds[0]!)).toMatchObject({
      taskState: 'failed',
      error: 'The pull could not be queued. Retry after a delay.',
      finishedAt: expect.any(String),
    });
    expect((await t.runtime.store.getBranchSync('queue-down', 'main'))?.activeTaskId).toBeUndefined();
    await expectBranch(client, commitA);

    expect(await client.pullAndWait('main')).toMatchObject({ taskState: 'completed', commit });
    await expectBranch(client, commitB);
  });
});

describe('a worker that dies', () => {
  /** Commit B's change from commit A, whichever run finishes writing it: a rule added and three changed, a workflow added and one deleted. */
  const whole = { rule: counts(1, 3), workflow: counts(1, 0, 1) };

  it('before writing: the next delivery takes the task over and completes it', async () => {
    const { client, commit, taskId } = await pendingPull('dies-before-writing');
    const dead = await dyingRun(taskId, dies.beforeWriting(), 200);
    expect(dead.applyingCommit).toBeUndefined();
    await expectBranch(client, commitA);
    await leaseOver(dead);
    await redeliver(t.runtime, taskId);
    expect(await client.wait(taskId)).toMatchObject({ taskState: 'completed', commit, summary: whole });
    await expectBranch(client, commitB);
  });

  it('before writing: the sweeper fails the task once its lease is over, the branch as it was; the next pull completes', async () => {
    const { client, commit, taskId } = await pendingPull('dies-then-swept');
    const dead = await dyingRun(taskId, dies.beforeWriting(), 60_000);
    await sweepTasks(t.runtime.store, sweptKinds, new Date(Date.parse(dead.leaseUntil!) + 1000));
    expect(await client.wait(taskId)).toMatchObject({ taskState: 'failed', error: expect.stringMatching(/stopped before it finished.*Pull again/) });
    await expectBranch(client, commitA);
    expect(await client.pullAndWait('main')).toMatchObject({ taskState: 'completed', commit });
    await expectBranch(client, commitB);
  });

  it('while writing: the sweeper leaves the task to the next delivery, which finishes the update', async () => {
    const { client, commit, taskId } = await pendingPull('dies-mid-write');
    const dead = await dyingRun(taskId, dies.midWrite(), 300);
    expect(dead.applyingCommit).toBe(commit);
    // Past the lease, but the next delivery may still come: the sweeper does not end the task.
    await sweepTasks(t.runtime.store, sweptKinds, new Date(Date.parse(dead.leaseUntil!) + 100));
    expect(await stored(taskId)).toMatchObject({ taskState: 'in-progress', runId: dead.runId });
    await leaseOver(dead);
    await redeliver(t.runtime, taskId);
    // This run wrote only what the dead one had not (the workflows), but the pull's summary is the whole change.
    expect(await client.wait(taskId)).toMatchObject({ taskState: 'completed', commit, summary: whole });
    await expectBranch(client, commitB);
    expect((await t.runtime.store.getBranchSync('dies-mid-write', 'main'))?.syncedCommit).toBe(commit);
  });

  it('while writing, the remote moving on before the next delivery: that delivery pulls the new commit and counts from the branch it found', async () => {
    const { client, repository, taskId } = await pendingPull('dies-then-moved');
    const dead = await dyingRun(taskId, dies.midWrite(), 300);
    const commitC = [...commitB, simpleRule('r5', 'Rule r5')];
    const later = await repos.commit(repository, 'main', entityFiles(commitC));
    await leaseOver(dead);
    await redeliver(t.runtime, taskId);
    // Commit B's rules were written by the dead run; this one added r5 and the workflows' change.
    expect(await client.wait(taskId)).toMatchObject({
      taskState: 'completed',
      commit: later,
      summary: { rule: counts(1, 0, 0, 4), workflow: counts(1, 0, 1) },
    });
    await expectBranch(client, commitC);
  });

  it('after writing every rule, before counting them: the next delivery counts them, though it has no rule to write', async () => {
    const { client, commit, taskId } = await pendingPull('dies-before-counting');
    const dead = await dyingRun(taskId, dies.beforeCounting(), 200);
    await leaseOver(dead);
    await redeliver(t.runtime, taskId);
    expect(await client.wait(taskId)).toMatchObject({ taskState: 'completed', commit, summary: whole });
    await expectBranch(client, commitB);
  });

  it('while writing on the last delivery: the sweeper fails the task saying the branch may be partly updated; the next pull finishes it', async () => {
    const { client, commit, taskId } = await pendingPull('dies-on-last-delivery');
    const dead = await dyingRun(taskId, dies.midWrite(), 60_000, last);
    await sweepTasks(t.runtime.store, sweptKinds, new Date(Date.parse(dead.leaseUntil!) + 1000));
    const failed = await client.wait(taskId);
    expect(failed.error).toBe(
      `The pull stopped while it was updating the branch. The branch may be partly updated to commit ${commit}: pull again, and that pull finishes the update.`,
    );
    // As it says: commit B's rules, commit A's workflow.
    await expectBranch(client, [...commitB.filter((input) => input.type !== 'workflow'), oldFlow]);
    expect(await client.pullAndWait('main')).toMatchObject({
      taskState: 'completed',
      commit,
      summary: { rule: counts(0, 0, 0, 4), workflow: counts(1, 0, 1) },
    });
    await expectBranch(client, commitB);
  });

  it('after writing the whole commit, before ending the task: the next delivery completes it, writing nothing', async () => {
    const { client, commit, taskId } = await pendingPull('dies-before-finishing');
    const dead = await dyingRun(taskId, dies.beforeFinishing(), 200);
    await expectBranch(client, commitB);
    await leaseOver(dead);
    await redeliver(t.runtime, taskId);
    expect(await client.wait(taskId)).toMatchObject({ taskState: 'completed', commit, summary: whole });
    await expectBranch(client, commitB);
  });
});

describe('a store failure while writing', () => {
  it('on the last delivery fails the task with the failure and says the branch may be partly updated; the next pull finishes it', async () => {
    const { client, commit, taskId } = await pendingPull('store-fails-writing');
    let writes = 0;
    // The rules are written, the workflows' write is refused.
    const throttled = new Proxy(t.runtime.store, {
      get: (store, name: keyof Store) =>
        name === 'writeEntities'
          ? (...args: Parameters<Store['writeEntities']>) =>
              ++writes === 2
                ? Promise.reject(Object.assign(new Error('Injected: throughput exceeds the capacity'), { name: 'ProvisionedThroughputExceededException' }))
                : store.writeEntities(...args)
          : store[name],
    });
    expect(await runPullTask(workerDeps(throttled, 60_000), taskId, last)).toBe('dead-letter');
    const failed = await client.wait(taskId);
    expect(failed.error).toBe(
      `Injected: throughput exceeds the capacity The branch may be partly updated to commit ${commit}: pull again, and that pull finishes the update.`,
    );
    expect(await client.pullAndWait('main')).toMatchObject({
      taskState: 'completed',
      commit,
      summary: { rule: counts(0, 0, 0, 4), workflow: counts(1, 0, 1) },
    });
    await expectBranch(client, commitB);
  });
});

describe('a run that outlived its lease', () => {
  it('writes nothing once another run has taken the task over and pulled a later commit', async () => {
    const { client, repository, taskId } = await pendingPull('outlived');
    let fetched!: () => void;
    let resume!: () => void;
    const hasFetched = new Promise<void>((resolve) => (fetched = resolve));
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    // The slow run has commit B in hand when it stalls, past its lease.
    const slow = runPullTask(
      {
        ...workerDeps(t.runtime.store, 100),
        fetchBranch: async (options) => {
          const snapshot = await fetchBranch(options);
          fetched();
          await resumed;
          return snapshot;
        },
      },
      taskId,
      first,
    );
    await hasFetched;
    const commitC = [...commitB, simpleRule('r5', 'Rule r5')];
    const later = await repos.commit(repository, 'main', entityFiles(commitC));
    await leaseOver(await stored(taskId));
    await redeliver(t.runtime, taskId);
    expect(await client.wait(taskId)).toMatchObject({ taskState: 'completed', commit: later });
    resume();
    expect(await slow).toBe('done');
    expect(await client.wait(taskId)).toMatchObject({ taskState: 'completed', commit: later });
    await expectBranch(client, commitC);
  });
});

describe('the Git host going away in the middle of a fetch', () => {
  let remote: VanishingRemote;
  beforeAll(async () => {
    remote = await startVanishingRemote(repos.url);
  });
  afterAll(async () => {
    await remote?.close();
  });

  const deadLettersOf = (taskId: string) => t.runtime.queue.deadLetters.filter((m) => JSON.parse(m.body).taskId === taskId);

  it('closing the connection half way through the pack: retried, and completed once the host sends it whole', async () => {
    const { client, commit, repository } = await pulledAtA('cut-pack', remote.url);
    remote.cutPacks(1);
    const { taskId } = await client.start('main');
    expect(await client.wait(taskId)).toMatchObject({ taskState: 'completed', commit });
    expect(repos.fetches(repository)).toBe(3); // commit A's pull, the cut one, the retry
    expect(deadLettersOf(taskId)).toEqual([]);
    await expectBranch(client, commitB);
  });

  it('gone between ref discovery and pack: failed after the last delivery, the branch as it was; a pull once it is back completes', async () => {
    const { client, commit, repository } = await pulledAtA('host-gone', remote.url);
    remote.vanishAfterDiscovery();
    const { taskId } = await client.start('main');
    const failed = await client.wait(taskId);
    await t.runtime.queue.idle();
    expect(failed).toMatchObject({ taskState: 'failed', error: expect.stringMatching(/^Could not reach the Git repository/) });
    expect(repos.fetches(repository)).toBe(2); // commit A's pull, and the one discovery before the host left
    expect(deadLettersOf(taskId).map((m) => m.receiveCount)).toEqual([taskDelivery.maxReceiveCount]);
    await expectBranch(client, commitA);

    await remote.back();
    expect(await client.pullAndWait('main')).toMatchObject({ taskState: 'completed', commit });
    await expectBranch(client, commitB);
  });
});
