/**
 * Numbers keep every digit end to end, through the local HTTP runtime and the
 * embedded DynamoDB: a request's JSON is read exactly, FEEL computes in
 * DMN's decimals, answers carry the decimal's digits, and what is stored (a
 * recorded execution, a test case's expected value, a schedule's inputParam,
 * a task's result) gives them back. The client here reads answers exactly
 * too (test/helpers/api.ts), so a number past a double's digits arrives as a
 * `Decimal`, compared by its text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerOf } from '../../lib/local/server.ts';
import { lambdaContext } from '../../lib/local/proxy-event.ts';
import { parseNumber } from '../../lib/decimal/decimal.ts';
import { scheduleInput } from '../../lib/schedules/scheduler.ts';
import { expectSuccess } from '../helpers/envelope.ts';
import { answers, startTestProvider, type TestProvider } from '../helpers/providers.ts';
import { rulesClient, simple, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { callFlow, createCredential, createIntegration, waitForTask, workflowsClient, type WorkflowsClient } from '../helpers/workflows.ts';

const t = useRuntime();
let rules: ReturnType<typeof rulesClient>;
let workflows: WorkflowsClient;
let provider: TestProvider;
let integrationId: string;

/** A number given by its text: a `Decimal` where a double would round it. */
const n = (text: string) => parseNumber(text)!;
/** Every number in a value as its text, so that a double and a Decimal of one value compare alike. */
const texts = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (_key, v, context?: { source: string }) => (typeof v === 'number' ? context!.source : v));

const precise = '0.30000000000000000001';
const big = '12345678901234567890';

beforeAll(async () => {
  rules = rulesClient(t.api);
  workflows = workflowsClient(t.api);
  provider = await startTestProvider();
  const credential = await createCredential(t.api, 'exact numbers', 'sk_exact_5c1d9e');
  integrationId = (await createIntegration(t.api, 'exact numbers', provider.origin, { credentialId: credential.id })).id;
});
afterAll(async () => {
  await provider?.close();
});

/** A simple rule on one number `p` that echoes it and computes with it, recording its executions. */
const echo = (id: string, extra: Json = {}) =>
  simple(id, {
    parameters: [{ name: 'p', type: 'number' }],
    when: 'true',
    then: { same: 'p', plus: 'p + 1', literal: n(precise) },
    settings: { recordExecutions: true },
    ...extra,
  });

describe('exact decimals', () => {
  it("computes a new user's first rule exactly: a tax to the cent, 0.1 + 0.2 = 0.3, integers past 2^53, 1/3 to 34 digits", async () => {
    const created = await rules.create(
      simple('exact-tax', {
        parameters: [
          { name: 'price', type: 'number' },
          { name: 'qty', type: 'number' },
        ],
        when: 'true',
        then: {
          tax: 'price * qty * 0.07',
          cents: 'decimal(price * qty * 0.07, 2)',
          sum: '0.1 + 0.2',
          eq: '0.1 + 0.2 = 0.3',
          big: `${big} + 1`,
          third: '1 / 3',
        },
      }),
    );
    expect(created.status).toBe(201);
    const response = await rules.test('exact-tax', { params: { price: 19.99, qty: 3 } });
    expectSuccess(response);
    expect(texts((response.body.data as { output: unknown }).output)).toEqual({
      tax: '4.1979',
      cents: '4.2',
      sum: '0.3',
      eq: true,
      big: '12345678901234567891',
      third: '0.3333333333333333333333333333333333',
    });
  });

  it('reads params exactly, answers them exactly and records them exactly (execute, then the recorded execution)', async () => {
    await rules.published(echo('exact-echo'));
    const executed = await rules.execute('exact-echo', { params: { p: n(precise) } });
    expectSuccess(executed);
    const expected = { same: precise, plus: '1.30000000000000000001', literal: precise };
    expect(texts(executed.body.data.output)).toEqual(expected);
    const [recorded] = (await rules.executions('exact-echo')).body.data as { input: unknown; output: unknown }[];
    expect(texts(recorded)).toMatchObject({ input: { p: precise }, output: expected });
    const bigger = await rules.execute('exact-echo', { params: { p: n(big) } });
    expect(texts(bigger.body.data.output)).toMatchObject({ same: big, plus: '12345678901234567891' });
  });

  it('keeps every digit through a batch: each input read exactly, answered exactly and recorded exactly, in execute and test alike', async () => {
    await rules.published(echo('exact-batch'));
    const given = [precise, big, '19.99', '-0.000000000000000000000000000000001', '1e-30'];
    const paramsList = given.map((p) => ({ p: n(p) }));
    const executed = await rules.execute('exact-batch', { paramsList });
    expectSuccess(executed);
    const { outputs } = executed.body.data as unknown as { outputs: { output: unknown; executionId: string }[] };
    const answers = outputs.map((slot) => texts(slot.output));
    expect(answers).toEqual([
      { same: precise, plus: '1.30000000000000000001', literal: precise },
      { same: big, plus: '12345678901234567891', literal: precise },
      { same: '19.99', plus: '20.99', literal: precise },
      { same: '-1e-33', plus: '0.999999999999999999999999999999999', literal: precise },
      { same: '1e-30', plus: '1.000000000000000000000000000001', literal: precise },
    ]);
    const recorded = (await rules.executions('exact-batch')).body.data as { executionId: string; input: unknown; output: unknown }[];
    const byId = new Map(recorded.map((execution) => [execution.executionId, texts(execution)]));
    outputs.forEach((slot, i) => expect(byId.get(slot.executionId)).toMatchObject({ input: texts(paramsList[i]), output: answers[i] }));
    const tested = await rules.test('exact-batch', { paramsList });
    expectSuccess(tested);
    expect((tested.body.data as unknown as { outputs: { output: unknown }[] }).outputs.map((slot) => texts(slot.output))).toEqual(answers);
  });

  it("keeps a test case's expected value and a literal output to the digit in the stored definition, and publishing runs the case on them", async () => {
    const record = echo('exact-cases', {
      tests: [{ name: 'precise', params: { p: n(precise) }, expected: { same: n(precise), plus: n('1.30000000000000000001'), literal: n(precise) } }],
    });
    const published = await rules.published(record);
    expect(published.version).toBe('v1');
    const stored = (await t.api<{ definition: Json }>('/dev/v1/rule/exact-cases')).body.data.definition;
    expect(texts(stored)).toMatchObject({
      then: { literal: precise },
      tests: [{ params: { p: precise }, expected: { same: precise, plus: '1.30000000000000000001', literal: precise } }],
    });
  });

  it("runs a schedule on its inputParam exactly: the Scheduler event's text, read as Lambda reads it, and the recorded run", async () => {
    await rules.published(echo('exact-scheduled'));
    const saved = await t.api('/dev/v1/rule/exact-scheduled/schedule', {
      method: 'POST',
      body: JSON.stringify({ unit: 'day', inputParam: { p: n(precise) } }),
    });
    expectSuccess(saved);
    const key = { workspaceId: 'demo', branch: 'main', ruleId: 'exact-scheduled' };
    const scheduledTime = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000).toISOString().replace('.000Z', 'Z');
    // As Scheduler sends it and Lambda's runtime parses it: with JSON.parse.
    const event = JSON.parse(scheduleInput(key, { p: n(precise) }).replace('<aws.scheduler.scheduled-time>', scheduledTime));
    const fn = { handler: 'run-scheduled-rule' };
    const handler = await handlerOf(fn);
    await handler(event, lambdaContext(fn), () => undefined);
    const stored = await t.runtime.store.listExecutions({ ...key }, { pageNo: 1, pageSize: 10 }, new Date().toISOString());
    expect(texts(stored.items[0])).toMatchObject({ trigger: 'schedule', input: { p: precise }, output: { same: precise } });
  });

  it("reads a provider's answer exactly in an API-request step, and an async run's stored result keeps it", async () => {
    provider.route('/rate', answers.text(`{"rate": 1.1, "precise": ${precise}}`, 200, 'application/json'));
    const flow = callFlow('exact-provider', { request: { method: 'GET', integrationId, path: '/rate' } }, { settings: { recordExecutions: true } });
    (flow.definition as { steps: Json[] }).steps[1]!.output = { rate: 'call.body.rate', times: 'call.body.rate * 3', precise: 'call.body.precise' };
    await workflows.published(flow);
    const tested = await workflows.test('exact-provider', { params: {} });
    expect(texts((tested.body.data as { output: unknown }).output)).toEqual({ rate: '1.1', times: '3.3', precise });
    const started = await workflows.execute('exact-provider', { params: {}, async: true });
    const task = await waitForTask(t.api, (started.body.data as { taskId: string }).taskId);
    expect(task.taskState).toBe('completed');
    expect(texts(task.workflowRun?.result)).toMatchObject({ output: { rate: '1.1', times: '3.3', precise } });
  });
});
