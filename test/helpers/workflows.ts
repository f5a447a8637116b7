/**
 * Workflows through the local HTTP runtime, for the integration tests of
 * running them: records, the authoring and run calls, the credentials and
 * integrations their API-request steps use (made through the API), and the
 * shape every run answer must have.
 */
import { expect } from 'vitest';
import type { Api, ApiResponse, RequestOptions } from './api.ts';
import { credentialBody, credentialsPath, expectCredential, json, type CredentialView } from './credentials.ts';
import { expectSuccess, expectUnpaged } from './envelope.ts';
import { expectIntegration, integrationBody, integrationsPath, type IntegrationView } from './integrations.ts';
import type { Json, Saved } from './rules.ts';

export type { Json };

/** A workflow record as a create takes it. */
export const workflowRecord = (id: string, definition: Json, extra: Json = {}): Json => ({
  id,
  name: `Workflow ${id}`,
  type: 'workflow',
  tags: ['test'],
  definition,
  ...extra,
});

export interface StepView {
  id: string;
  type: 'rule' | 'apiRequest' | 'branch' | 'transform' | 'end';
  status: 'succeeded' | 'failed' | 'skipped';
  durationMs: number;
  output?: unknown;
  error?: string;
}

/** What test and execute answer for a workflow. */
export interface RunView {
  status: 'succeeded' | 'failed';
  output?: unknown;
  steps: StepView[];
  error?: { stepId: string; message: string };
  durationMs: number;
  executionId: string;
  version: string;
}

/** What the step test answers: one step's record and where a run would go next. */
export type StepTestView = StepView & { next?: string };

export interface TaskAnswer {
  taskId: string;
  taskState: 'pending' | 'in-progress' | 'completed' | 'failed';
  executionId: string;
  version: string;
}

export interface WorkflowTaskView {
  taskId: string;
  taskState: TaskAnswer['taskState'];
  branch: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  error?: string;
  workflowRun?: { workflowId: string; version: string; executionId: string; result?: RunView };
}

const stepFields = ['durationMs', 'error', 'id', 'output', 'status', 'type'];

/** A step record: only its fields, an error exactly when failed, a whole number of milliseconds or more. */
export function expectStepShape(step: StepView, extraFields: string[] = []) {
  expect(Object.keys(step).filter((f) => !stepFields.includes(f) && !extraFields.includes(f))).toEqual([]);
  expect(typeof step.durationMs === 'number' && step.durationMs >= 0).toBe(true);
  expect(step.error !== undefined, JSON.stringify(step)).toBe(step.status === 'failed');
  if (step.status === 'skipped') expect(step).toEqual({ id: step.id, type: step.type, status: 'skipped', durationMs: 0 });
}

/** A run answer's shape: exactly its fields, an output when it succeeded, an error naming a step when it failed. */
export function expectRunShape(run: RunView): RunView {
  const fields = ['durationMs', 'executionId', 'status', 'steps', 'version', ...(run.status === 'succeeded' ? ['output'] : ['error'])].sort();
  expect(Object.keys(run).sort(), JSON.stringify(run)).toEqual(fields);
  expect(run.executionId).toMatch(/^exec_[0-9a-f]{20}$/);
  expect(typeof run.durationMs === 'number' && run.durationMs >= 0).toBe(true);
  for (const step of run.steps) expectStepShape(step);
  if (run.status === 'failed') {
    expect(Object.keys(run.error!).sort()).toEqual(['message', 'stepId']);
    const failed = run.steps.filter((s) => s.status === 'failed');
    expect(failed.map((s) => s.id)).toEqual([run.error!.stepId]);
    expect(failed[0]!.error).toBe(run.error!.message);
  } else expect(run.steps.some((s) => s.status === 'failed')).toBe(false);
  return run;
}

/** A 200 holding a run: its envelope and shape checked. */
export function expectRun(response: ApiResponse<unknown>): RunView {
  expectSuccess(response);
  return expectRunShape(response.body.data as RunView);
}

/** The statuses of the steps in the order the answer lists them. */
export const statuses = (run: RunView) => run.steps.map((s) => [s.id, s.status]);

/** The authoring and running calls of workflows, on one API (and key, through `options`). */
export function workflowsClient(api: Api, defaults: RequestOptions = {}) {
  const send = <D>(method: string, path: string, body: unknown, options: RequestOptions = {}) =>
    api<D>(`/dev/v1/workflow${path}`, {
      ...defaults,
      method,
      ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      ...options,
    });
  const at = (id: string) => `/${encodeURIComponent(id)}`;
  return {
    create: (record: unknown, options?: RequestOptions) => send<Saved>('POST', '', record, options),
    update: (id: string, change: Json, options?: RequestOptions) => send<Saved>('PATCH', at(id), change, options),
    publish: (id: string, body?: Json, options?: RequestOptions) =>
      send<{ id: string; version: string; checksum: string }>('POST', `${at(id)}/publish`, body, options),
    remove: (id: string, options?: RequestOptions) => send<{ id: string; deleted: boolean }>('DELETE', at(id), undefined, options),
    get: (id: string, options?: RequestOptions) =>
      send<Json & { checksum: string; status: string; version: string; definition: Json }>('GET', at(id), undefined, options),
    test: (id: string, body: Json, options?: RequestOptions) => send<RunView>('POST', `${at(id)}/test`, body, options),
    execute: (id: string, body: Json, options?: RequestOptions) => send<RunView | TaskAnswer>('POST', `${at(id)}/execute`, body, options),
    executions: (id: string, query: RequestOptions['query'] = {}, options?: RequestOptions) =>
      send<Json[]>('GET', `${at(id)}/executions`, undefined, { query, ...options }),
    testStep: (id: string, stepId: string, body: Json, options?: RequestOptions) =>
      send<StepTestView>('POST', `${at(id)}/steps/${encodeURIComponent(stepId)}/test`, body, options),
    /** Creates the draft, expecting 201; its checksum. */
    async created(record: Json, options?: RequestOptions): Promise<string> {
      const response = await this.create(record, options);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body.data.checksum;
    },
    /** Creates and publishes, expecting both to succeed; the version published. */
    async published(record: Json, options?: RequestOptions): Promise<string> {
      const checksum = await this.created(record, options);
      const published = await this.publish(record.id as string, { checksum }, options);
      expect([200, 201], JSON.stringify(published.body)).toContain(published.status);
      return published.body.data.version;
    },
  };
}

export type WorkflowsClient = ReturnType<typeof workflowsClient>;

/** Makes a credential through the API (a header one named `name` unless told otherwise). */
export async function createCredential(api: Api, name: string, value: string, extra: Json = {}, options: RequestOptions = {}): Promise<CredentialView> {
  return expectCredential(await api(credentialsPath, json('POST', credentialBody(name, value, extra), options)), 201);
}

/** Makes an integration through the API. */
export async function createIntegration(api: Api, name: string, baseUrl: string, extra: Json = {}, options: RequestOptions = {}): Promise<IntegrationView> {
  return expectIntegration(await api(integrationsPath, json('POST', integrationBody(name, baseUrl, extra), options)), 201);
}

/** Creates a rule through the API and publishes it, expecting both to succeed: its checksum and version. */
export async function publishRule(api: Api, record: Json, options: RequestOptions = {}) {
  const send = (method: string, path: string, body?: unknown) =>
    api<Saved & { version: string }>(`/dev/v1/rule${path}`, { ...options, method, ...(body !== undefined && { body: JSON.stringify(body) }) });
  const created = await send('POST', '', record);
  expect([200, 201], JSON.stringify(created.body)).toContain(created.status);
  const published = await send('POST', `/${record.id as string}/publish`, { checksum: created.body.data.checksum });
  expect([200, 201], JSON.stringify(published.body)).toContain(published.status);
  return { checksum: created.body.data.checksum, version: published.body.data.version };
}

/** A one-step workflow: the API request `step` (its id "call"), then an end giving its status and body. */
export const callFlow = (id: string, step: Json, extra: Json = {}): Json =>
  workflowRecord(id, {
    start: 'call',
    steps: [
      { id: 'call', kind: 'apiRequest', next: 'done', ...step },
      { id: 'done', kind: 'end', output: { status: 'call.status', body: 'call.body' } },
    ],
    ...extra,
  });

/** Polls a task until it is completed or failed, at most `timeoutMs`; each answer a 200. */
export async function waitForTask(api: Api, taskId: string, options: RequestOptions = {}, timeoutMs = 10_000): Promise<WorkflowTaskView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api<WorkflowTaskView>(`/dev/v1/tasks/${encodeURIComponent(taskId)}`, options);
    const view = expectUnpaged(response, 200);
    if (view.taskState === 'completed' || view.taskState === 'failed') return view;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${view.taskState} after ${timeoutMs} ms: ${JSON.stringify(view)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
