/**
 * Scheduled runs and asynchronous workflow runs under real faults, on the
 * local runtime (its queue with a 100 ms visibility timeout). A scheduled
 * run whose rule cannot load is recorded as failed and the function returns,
 * so Scheduler has nothing to retry. An asynchronous run whose provider hangs
 * ends failed at its step's timeout, recorded, and no delivery of its message
 * runs it again; one whose worker dies in the middle is failed by the next
 * delivery or by the sweeper, saying why, and never run twice; one the queue
 * refuses fails at once.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Handler } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweptKinds } from '../../functions/task-sweeper.ts';
import { lambdaContext } from '../../lib/local/proxy-event.ts';
import { demoWorkspaceId } from '../../lib/local/seed.ts';
import { handlerOf } from '../../lib/local/server.ts';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import { versionKey } from '../../lib/store/keys.ts';
import type { EntityRef, Execution } from '../../lib/store/types.ts';
import { sweepTasks } from '../../lib/tasks/sweeper.ts';
import { runWorkflowTask, startWorkflowRun } from '../../lib/workflows/tasks.ts';
import { answers, startTestProvider, type TestProvider } from '../helpers/providers.ts';
import { leaseOver, redeliver, refusingQueue, silentQueue, startDyingStore } from '../helpers/pull.ts';
import { parcelFee, ruleSetOf, rulesClient } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { callFlow, createIntegration, waitForTask, workflowsClient, type TaskAnswer, type WorkflowsClient } from '../helpers/workflows.ts';
import { storedTask } from '../helpers/store.ts';

const t = useRuntime({ visibilityTimeoutMs: 100 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** What a run's task says when its worker stopped: that it is not run again, and why. */
const stoppedRun = expect.stringMatching(/stopped before it finished.*not started again, as its steps may have had effects/);

describe('a scheduled run whose rule cannot load', () => {
  const fn = { handler: 'run-scheduled-rule' };
  let handler: Handler;
  let rules: ReturnType<typeof rulesClient>;
  beforeAll(async () => {
    handler = await handlerOf(fn);
    rules = rulesClient(t.api);
  });

  const scheduledTime = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000).toISOString().replace('.000Z', 'Z');
  /** The scheduled-run function, called as Scheduler calls it for this rule's run at `scheduledTime`. */
  const deliver = (ruleId: string) =>
    handler(
      { workspaceId: demoWorkspaceId, branch: 'main', ruleId, scheduledTime, inputParam: { weightKg: 3 } },
      lambdaContext(fn),
      () => undefined,
    ) as Promise<Record<string, unknown>>;
  const recorded = async (ruleId: string): Promise<Execution[]> =>
    (await t.runtime.store.listExecutions({ workspaceId: demoWorkspaceId, branch: 'main', ruleId }, { pageNo: 1, pageSize: 10 }, new Date().toISOString()))
      .items;

  /** Delivers the run twice, as Scheduler may: the first records it as failed with `error`, the second records nothing; neither throws. */
  async function expectRecordedOnce(ruleId: string, error: { code: string; message: string | RegExp }) {
    const expected = { code: error.code, message: typeof error.message === 'string' ? error.message : expect.stringMatching(error.message) };
    const run = await deliver(ruleId);
    expect(run).toMatchObject({ outcome: 'failed', recorded: true, error: expected });
    expect(await deliver(ruleId)).toEqual({ ...run, recorded: false });
    expect(await recorded(ruleId)).toEqual([
      expect.objectContaining({ executionId: run.executionId, trigger: 'schedule', scheduledTime, outcome: 'failed', error: expected }),
    ]);
  }

  it('a rule it refers to deleted since', async () => {
    await rules.published(parcelFee('fee-referred'));
    await rules.published(ruleSetOf('refers-to-deleted', [{ id: 'fee', ruleId: 'fee-referred' }]));
    expect((await rules.remove('fee-referred')).status).toBe(200);
    await expectRecordedOnce('refers-to-deleted', {
      code: 'rule_reference_not_found',
      message: /refers to the rule "fee-referred", which the branch does not have/,
    });
  });

  it('its published version stored in a form that cannot be read', async () => {
    await rules.published(parcelFee('unreadable'));
    const ref: EntityRef = { workspaceId: demoWorkspaceId, branch: 'main', entityType: 'rule', id: 'unreadable' };
    const client = createDocumentClient({ tableName: t.runtime.tableName, endpoint: t.runtime.dynamoEndpoint });
    try {
      await client.send(
        new UpdateCommand({
          TableName: t.runtime.tableName,
          Key: versionKey(ref, 'v1'),
          UpdateExpression: 'SET prepared = :broken',
          ExpressionAttributeValues: { ':broken': Buffer.from('not gzip').toString('base64') },
        }),
      );
    } finally {
      client.destroy();
    }
    await expectRecordedOnce('unreadable', {
      code: 'internal_error',
      message: 'The rule failed unexpectedly while it loaded; the service logs have the details.',
    });
  });
});

describe('an asynchronous workflow run', () => {
  let provider: TestProvider;
  let workflows: WorkflowsClient;
  let integrationId: string;
  beforeAll(async () => {
    provider = await startTestProvider();
    workflows = workflowsClient(t.api);
    integrationId = (await createIntegration(t.api, 'run faults provider', provider.origin)).id;
  });
  afterAll(async () => {
    await provider?.close();
  });
  beforeEach(() => provider.reset());

  /** Publishes a workflow that POSTs to the provider's `path` (giving up after `timeoutMs`) and records its runs. */
  const publishCall = (id: string, path: string, timeoutMs = 1000) =>
    workflows.published(callFlow(id, { request: { method: 'POST', integrationId, path }, timeoutMs }, { settings: { recordExecutions: true } }));
  const ref = (id: string): EntityRef => ({ workspaceId: demoWorkspaceId, branch: 'main', entityType: 'workflow', id });
  const stored = (taskId: string) => storedTask(t.runtime.store, taskId, 'workflowRun');

  it("whose provider hangs ends failed at the step's timeout, recorded; no delivery of its message runs it again", async () => {
    provider.route('/hangs', answers.hang());
    await publishCall('provider-hangs', '/hangs');
    const response = await workflows.execute('provider-hangs', { params: {}, async: true });
    expect(response.status).toBe(202);
    const { taskId, executionId } = response.body.data as TaskAnswer;
    const deadline = Date.now() + 5000;
    while (provider.calls('/hangs') === 0 && Date.now() < deadline) await sleep(10);
    expect(provider.calls('/hangs')).toBe(1);
    // Delivered again while the run waits on the provider: that run holds the task, this delivery leaves it.
    t.runtime.queue.send(JSON.stringify({ taskId }));
    const failed = await waitForTask(t.api, taskId);
    expect(failed).toMatchObject({ taskState: 'failed', error: expect.stringMatching(/^The step "call" failed: .* did not complete within 1000 ms/) });
    const executions = await workflows.executions('provider-hangs');
    expect(executions.body.data).toEqual([
      expect.objectContaining({ executionId, outcome: 'failed', error: { code: 'step_failed', message: expect.stringMatching(/^call: /) } }),
    ]);
    await redeliver(t.runtime, taskId);
    expect(await waitForTask(t.api, taskId)).toEqual(failed);
    expect(provider.calls('/hangs')).toBe(1);
  });

  /** Starts a run whose message only the test delivers, and runs it on a worker that dies once the provider has been called. */
  async function diedMidRun(id: string, leaseMs: number) {
    provider.route('/answers', answers.json({ ok: true }));
    await publishCall(id, '/answers');
    const { taskId } = await startWorkflowRun({ store: t.runtime.store, queue: silentQueue }, ref(id), { params: {} });
    // Imported once the runtime has set the environment: its outbound client reads it when made.
    const { runDeps } = await import('../../lib/workflows/endpoints.ts');
    const dying = await startDyingStore(t.runtime, () => provider.calls('/answers') > 0);
    try {
      await expect(runWorkflowTask(runDeps(dying.store, demoWorkspaceId), await stored(taskId), { leaseMs, runMs: 5000 })).rejects.toThrow(/Injected/);
    } finally {
      await dying.close();
    }
    const task = await stored(taskId);
    expect(task.taskState).toBe('in-progress');
    expect(provider.calls('/answers')).toBe(1);
    return task;
  }

  it('whose worker dies in the middle is failed by the next delivery, saying why, and not run again', async () => {
    const dead = await diedMidRun('worker-dies', 200);
    await leaseOver(dead);
    await redeliver(t.runtime, dead.taskId);
    expect(await waitForTask(t.api, dead.taskId)).toMatchObject({ taskState: 'failed', error: stoppedRun });
    await redeliver(t.runtime, dead.taskId);
    expect(provider.calls('/answers')).toBe(1);
  });

  it('whose worker dies and whose message is not delivered again is failed by the sweeper, saying why', async () => {
    const dead = await diedMidRun('worker-dies-swept', 60_000);
    await sweepTasks(t.runtime.store, sweptKinds, new Date(Date.parse(dead.leaseUntil!) + 1000));
    expect(await waitForTask(t.api, dead.taskId)).toMatchObject({ taskState: 'failed', error: stoppedRun });
    await redeliver(t.runtime, dead.taskId);
    expect(provider.calls('/answers')).toBe(1);
  });

  it('that the queue refuses fails at once, saying so', async () => {
    await publishCall('queue-refuses', '/answers');
    const down = refusingQueue();
    await expect(startWorkflowRun({ store: t.runtime.store, queue: down }, ref('queue-refuses'), { params: {} })).rejects.toThrow('the queue is unavailable');
    expect(await waitForTask(t.api, down.taskIds[0]!)).toMatchObject({ taskState: 'failed', error: 'The run could not be queued. Retry after a delay.' });
    expect(provider.calls()).toBe(0);
  });
});
