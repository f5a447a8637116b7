/**
 * Asynchronous workflow runs through the local HTTP runtime: execute with
 * `async: true` answers 202 with a task, the local queue's worker runs it,
 * and GET /dev/v1/tasks/{taskId} follows it to completed (the run kept in
 * the task) or failed (the step named, the run kept too). What can be
 * checked at once is answered at once; rules do not run asynchronously; and
 * another workspace cannot read the task.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api as apiFor } from '../helpers/api.ts';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { expectEnvelope, expectFailure } from '../helpers/envelope.ts';
import { answers, startTestProvider, type TestProvider } from '../helpers/providers.ts';
import { errorsOf, fieldsOf } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import {
  createCredential,
  createIntegration,
  expectRunShape,
  publishRule,
  statuses,
  waitForTask,
  workflowRecord,
  workflowsClient,
  type TaskAnswer,
  type WorkflowsClient,
} from '../helpers/workflows.ts';

const t = useRuntime();
let provider: TestProvider;
let workflows: WorkflowsClient;
const key = 'sk_async_9e8d7c6b5a';

const slowFlow = (id: string, integrationId: string) =>
  workflowRecord(id, {
    inputs: [{ name: 'n', type: 'number' }],
    start: 'double',
    steps: [
      { id: 'double', kind: 'rule', ruleId: 'wf-double', inputs: { n: 'n' }, next: 'call' },
      { id: 'call', kind: 'apiRequest', request: { method: 'POST', integrationId, path: '/slow', body: '{n: double.twice}' }, next: 'done' },
      { id: 'done', kind: 'end', output: { twice: 'double.twice', answer: 'call.body.answer' } },
    ],
    settings: { recordExecutions: true },
  });

beforeAll(async () => {
  provider = await startTestProvider();
  workflows = workflowsClient(t.api);
  const credential = await createCredential(t.api, 'async key', key);
  const integration = await createIntegration(t.api, 'async provider', provider.origin, { credentialId: credential.id });
  await publishRule(t.api, {
    id: 'wf-double',
    name: 'Double',
    type: 'simpleRule',
    definition: { parameters: [{ name: 'n', type: 'number' }], when: 'true', then: { twice: 'n * 2' } },
  });
  await workflows.published(slowFlow('async-flow', integration.id));
});
afterAll(async () => {
  await provider?.close();
});
beforeEach(() => provider.reset());

/** Starts an asynchronous run, checking the 202's shape: its task. */
async function start(id: string, params: Record<string, unknown>): Promise<TaskAnswer> {
  const response = await workflows.execute(id, { params, async: true });
  expectEnvelope(response);
  expect({ status: response.status, code: response.body.code, message: response.body.message, totalCount: response.body.totalCount }).toEqual({
    status: 202,
    code: '',
    message: '',
    totalCount: 0,
  });
  const task = response.body.data as TaskAnswer;
  expect(task).toEqual({
    taskId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    taskState: 'pending',
    executionId: expect.stringMatching(/^exec_[0-9a-f]{20}$/),
    version: 'v1',
  });
  return task;
}

describe('execute with async: true', () => {
  it('answers 202 with a pending task that the worker runs to completed, keeping the run', async () => {
    provider.route('/slow', answers.delay(300, answers.json({ answer: 42 })));
    const task = await start('async-flow', { n: 4 });
    const view = await waitForTask(t.api, task.taskId);
    expect(view).toMatchObject({ taskId: task.taskId, taskState: 'completed', branch: 'main' });
    expect(view.error).toBeUndefined();
    for (const at of [view.createdAt, view.startedAt, view.finishedAt]) expect(new Date(at!).toISOString()).toBe(at);
    const { workflowRun } = view;
    expect(workflowRun).toMatchObject({ workflowId: 'async-flow', version: 'v1', executionId: task.executionId });
    const result = expectRunShape(workflowRun!.result!);
    expect(result).toMatchObject({ status: 'succeeded', output: { twice: 8, answer: 42 }, executionId: task.executionId, version: 'v1' });
    expect(statuses(result)).toEqual([
      ['double', 'succeeded'],
      ['call', 'succeeded'],
      ['done', 'succeeded'],
    ]);
    expect(result.steps[1]!.durationMs).toBeGreaterThanOrEqual(290);
    // The provider got the key and what the steps built; the run is recorded under the task's execution id.
    const [seen] = provider.requests('/slow');
    expect(seen!.headers['x-api-key']).toBe(key);
    expect(JSON.parse(seen!.body)).toEqual({ n: 8 });
    const recorded = await workflows.executions('async-flow');
    expect(recorded.body.data.find((e) => e.executionId === task.executionId)).toMatchObject({
      outcome: 'succeeded',
      output: { twice: 8, answer: 42 },
      trigger: 'api',
    });
  });

  it('ends failed when a step fails, naming the step, with the run kept', async () => {
    provider.route('/slow', answers.json({ error: 'nope' }, 403));
    const task = await start('async-flow', { n: 1 });
    const view = await waitForTask(t.api, task.taskId);
    expect(view.taskState).toBe('failed');
    expect(view.error).toBe('The step "call" failed: the provider answered 403: the key is valid but lacks the permission');
    const result = expectRunShape(view.workflowRun!.result!);
    expect(result).toMatchObject({
      status: 'failed',
      error: { stepId: 'call', message: 'the provider answered 403: the key is valid but lacks the permission' },
      executionId: task.executionId,
    });
    expect(statuses(result)).toEqual([
      ['double', 'succeeded'],
      ['call', 'failed'],
      ['done', 'skipped'],
    ]);
    const recorded = await workflows.executions('async-flow');
    expect(recorded.body.data.find((e) => e.executionId === task.executionId)).toMatchObject({ outcome: 'failed', error: { code: 'step_failed' } });
  });

  it('answers what can be checked at once: params (400), an unpublished workflow (409), a missing one or version (404)', async () => {
    const bad = await workflows.execute('async-flow', { params: { n: 'four' }, async: true });
    expectFailure(bad, 400, 'invalid_request');
    expect(fieldsOf(bad)).toEqual(['params.n']);
    await workflows.created(workflowRecord('async-draft', { start: 'done', steps: [{ id: 'done', kind: 'end', output: {} }] }));
    expectFailure(await workflows.execute('async-draft', { params: {}, async: true }), 409, 'workflow_not_published');
    expectFailure(await workflows.execute('async-missing', { params: {}, async: true }), 404, 'entity_not_found');
    expectFailure(await workflows.execute('async-flow', { params: { n: 1 }, version: 'v9', async: true }), 404, 'version_not_found');
    expect(provider.calls()).toBe(0);
  });

  it('refuses async on a rule with a 400 naming the field', async () => {
    const response = await t.api('/dev/v1/rule/wf-double/execute', { method: 'POST', body: JSON.stringify({ params: { n: 1 }, async: true }) });
    expectFailure(response, 400, 'invalid_request');
    expect(errorsOf(response)).toEqual([{ in: 'body', field: 'async', message: expect.stringMatching(/\S/) }]);
  });

  it("keeps the task from another workspace's key (404 task_not_found), and answers 404 for an unknown task", async () => {
    provider.route('/slow', answers.json({ answer: 1 }));
    const task = await start('async-flow', { n: 2 });
    const other = await createWorkspaceWithKey(t.runtime.store, { id: 'async-other' });
    const otherApi = apiFor({ url: t.runtime.url, apiKey: other.key });
    expectFailure(await otherApi(`/dev/v1/tasks/${task.taskId}`), 404, 'task_not_found');
    expect((await waitForTask(t.api, task.taskId)).taskState).toBe('completed');
    expectFailure(await otherApi(`/dev/v1/tasks/${task.taskId}`), 404, 'task_not_found');
    expectFailure(await t.api('/dev/v1/tasks/00000000-0000-4000-8000-000000000000'), 404, 'task_not_found');
  });
});
