/**
 * Running workflows through the local HTTP runtime, end to end: a rule, an
 * API request to a provider on loopback (through an integration and a
 * credential made with the API), a branch, a transform and an end, on both
 * branch paths; the draft against the published version; the answer's
 * shape; a failing step named with its reason; params checked; executions
 * recorded only when asked; one step tried on its own; and the demo
 * workflows against the demo provider.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoProviderKey } from '../../lib/local/demo-provider.ts';
import { json } from '../helpers/credentials.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { answers, startTestProvider, type TestProvider } from '../helpers/providers.ts';
import { errorsOf, fieldsOf } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import {
  createCredential,
  createIntegration,
  expectRun,
  expectStepShape,
  publishRule,
  statuses,
  workflowRecord,
  workflowsClient,
  type Json,
  type RunView,
  type StepTestView,
  type WorkflowsClient,
} from '../helpers/workflows.ts';

const t = useRuntime();
let provider: TestProvider;
let workflows: WorkflowsClient;
let integrationId: string;
const key = 'sk_run_5c1f0e9d8b7a6';

/** A size by total, published as v1. */
const sizeRule = (id: string, large = '"large"') => ({
  id,
  name: `Size ${id}`,
  type: 'simpleRule',
  definition: { parameters: [{ name: 'total', type: 'number' }], when: 'total >= 100', then: { size: large }, otherwise: { size: '"small"' } },
});

/**
 * rule → API request → branch → transform → end, on two paths: a quote over
 * 50 gets a discount, any other is charged in full.
 */
const orderFlow = (id: string, extra: Json = {}) =>
  workflowRecord(id, {
    inputs: [{ name: 'order', type: 'context' }],
    start: 'size',
    steps: [
      { id: 'size', kind: 'rule', ruleId: 'wf-size', inputs: { total: 'order.total' }, next: 'quote' },
      {
        id: 'quote',
        kind: 'apiRequest',
        request: {
          method: 'POST',
          integrationId,
          path: '/quotes',
          query: { size: 'size.size' },
          headers: { 'X-Order': 'order.id' },
          body: '{total: order.total, size: size.size}',
        },
        next: 'decide',
      },
      { id: 'decide', kind: 'branch', cases: [{ when: 'quote.body.price > 50', next: 'discount' }], otherwise: 'full' },
      { id: 'discount', kind: 'transform', set: { price: 'quote.body.price * 0.9', note: '"discounted"' }, next: 'done-discount' },
      { id: 'full', kind: 'transform', set: { price: 'quote.body.price', note: '"full price"' }, next: 'done-full' },
      { id: 'done-discount', kind: 'end', output: { price: 'discount.price', note: 'discount.note', size: 'size.size' } },
      { id: 'done-full', kind: 'end', output: { price: 'full.price', note: 'full.note', size: 'size.size' } },
    ],
    ...extra,
  });

beforeAll(async () => {
  provider = await startTestProvider();
  workflows = workflowsClient(t.api);
  const credential = await createCredential(t.api, 'run provider key', key);
  integrationId = (await createIntegration(t.api, 'run provider', `${provider.origin}/api`, { credentialId: credential.id, headers: { 'X-Client': 'tests' } }))
    .id;
  await publishRule(t.api, sizeRule('wf-size'));
  await workflows.published(orderFlow('order-flow', { settings: { recordExecutions: true } }));
});
afterAll(async () => {
  await provider?.close();
});
beforeEach(() => provider.reset());

describe('a multi-step workflow end to end', () => {
  it('runs rule, API request, branch, transform and end on the discount path, sending what the steps built', async () => {
    provider.route('/api/quotes', answers.json({ price: 80, currency: 'EUR' }, 200, { 'x-quote-id': 'q-1' }), 'POST');
    const run = expectRun(await workflows.execute('order-flow', { params: { order: { id: 'o-1', total: 150 } } }));
    expect(run).toEqual({
      status: 'succeeded',
      output: { price: 72, note: 'discounted', size: 'large' },
      steps: [
        { id: 'size', type: 'rule', status: 'succeeded', durationMs: expect.any(Number), output: { size: 'large' } },
        {
          id: 'quote',
          type: 'apiRequest',
          status: 'succeeded',
          durationMs: expect.any(Number),
          output: {
            status: 200,
            headers: expect.objectContaining({ 'content-type': 'application/json', 'x-quote-id': 'q-1' }),
            body: { price: 80, currency: 'EUR' },
          },
        },
        { id: 'decide', type: 'branch', status: 'succeeded', durationMs: expect.any(Number) },
        { id: 'discount', type: 'transform', status: 'succeeded', durationMs: expect.any(Number), output: { price: 72, note: 'discounted' } },
        { id: 'done-discount', type: 'end', status: 'succeeded', durationMs: expect.any(Number), output: { price: 72, note: 'discounted', size: 'large' } },
        { id: 'full', type: 'transform', status: 'skipped', durationMs: 0 },
        { id: 'done-full', type: 'end', status: 'skipped', durationMs: 0 },
      ],
      durationMs: expect.any(Number),
      executionId: expect.stringMatching(/^exec_[0-9a-f]{20}$/),
      version: 'v1',
    });

    const [seen, ...more] = provider.requests('/api/quotes');
    expect(more).toEqual([]);
    expect(seen).toMatchObject({ method: 'POST', query: { size: 'large' } });
    expect(seen!.headers).toMatchObject({
      'x-api-key': key,
      'x-order': 'o-1',
      'x-client': 'tests',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(JSON.parse(seen!.body)).toEqual({ total: 150, size: 'large' });
  });

  it('takes the otherwise path when no case holds', async () => {
    provider.route('/api/quotes', answers.json({ price: 20 }), 'POST');
    const run = expectRun(await workflows.execute('order-flow', { params: { order: { id: 'o-2', total: 30 } } }));
    expect(run.output).toEqual({ price: 20, note: 'full price', size: 'small' });
    expect(statuses(run)).toEqual([
      ['size', 'succeeded'],
      ['quote', 'succeeded'],
      ['decide', 'succeeded'],
      ['full', 'succeeded'],
      ['done-full', 'succeeded'],
      ['discount', 'skipped'],
      ['done-discount', 'skipped'],
    ]);
    expect(provider.requests('/api/quotes')[0]!.query).toEqual({ size: 'small' });
  });
});

describe('the draft and the published version', () => {
  /** Two rule steps of one rule: one runs what a run chooses, the other pins v1. */
  const labels = (id: string, end = '{unpinned: a.label, pinned: b.label}') =>
    workflowRecord(id, {
      start: 'a',
      steps: [
        { id: 'a', kind: 'rule', ruleId: 'wf-label', inputs: {}, next: 'b' },
        { id: 'b', kind: 'rule', ruleId: 'wf-label', version: 'v1', inputs: {}, next: 'done' },
        { id: 'done', kind: 'end', output: { both: end } },
      ],
    });

  beforeAll(async () => {
    await publishRule(t.api, { id: 'wf-label', name: 'Label', type: 'simpleRule', definition: { when: 'true', then: { label: '"v1"' } } });
  });

  it('refuses to execute before a publish (409 workflow_not_published), while the draft can be tested', async () => {
    await workflows.created(labels('unpublished'));
    expectFailure(await workflows.execute('unpublished', { params: {} }), 409, 'workflow_not_published');
    const draft = expectRun(await workflows.test('unpublished', { params: {} }));
    expect(draft).toMatchObject({ status: 'succeeded', output: { both: { unpinned: 'v1', pinned: 'v1' } }, version: '' });
    expectFailure(await workflows.execute('no-such-workflow', { params: {} }), 404, 'entity_not_found');
  });

  it('tests run rule drafts unless a step pins a version; executions run published rules', async () => {
    const checksum = await workflows.created(labels('draft-vs-published'));
    await workflows.publish('draft-vs-published', { checksum });
    // The rule's draft moves on; v1 stays.
    const rule = await t.api<{ checksum: string }>('/dev/v1/rule/wf-label');
    expectSuccess(rule);
    const edited = await t.api('/dev/v1/rule/wf-label', {
      method: 'PATCH',
      body: JSON.stringify({ checksum: rule.body.data.checksum, definition: { when: 'true', then: { label: '"draft"' } } }),
    });
    expect(edited.status).toBe(200);

    expect(expectRun(await workflows.test('draft-vs-published', { params: {} })).output).toEqual({ both: { unpinned: 'draft', pinned: 'v1' } });
    const executed = expectRun(await workflows.execute('draft-vs-published', { params: {} }));
    expect(executed).toMatchObject({ output: { both: { unpinned: 'v1', pinned: 'v1' } }, version: 'v1' });
    // A test of a published version runs as its execution would.
    expect(expectRun(await workflows.test('draft-vs-published', { params: {}, version: 'v1' }))).toMatchObject({
      output: { both: { unpinned: 'v1', pinned: 'v1' } },
      version: 'v1',
    });

    // The workflow's draft moves on too: a test runs it, an execution the published v1 until v2 is published.
    const current = await workflows.get('draft-vs-published');
    const changed = await workflows.update('draft-vs-published', {
      checksum: current.body.data.checksum,
      definition: labels('x', '{unpinned: a.label, edited: true}').definition as Json,
    });
    expect(changed.status).toBe(200);
    expect(expectRun(await workflows.test('draft-vs-published', { params: {} })).output).toEqual({ both: { unpinned: 'draft', edited: true } });
    expectFailure(await workflows.test('draft-vs-published', { params: {}, checksum: checksum }), 409, 'checksum_mismatch');
    expect(expectRun(await workflows.execute('draft-vs-published', { params: {} })).version).toBe('v1');
    const v2 = await workflows.publish('draft-vs-published', { checksum: changed.body.data.checksum });
    expect(v2.body.data.version).toBe('v2');
    expect(expectRun(await workflows.execute('draft-vs-published', { params: {} }))).toMatchObject({
      version: 'v2',
      output: { both: { unpinned: 'v1', edited: true } },
    });
    expect(expectRun(await workflows.execute('draft-vs-published', { params: {}, version: 'v1' }))).toMatchObject({
      version: 'v1',
      output: { both: { pinned: 'v1' } },
    });
    expectFailure(await workflows.execute('draft-vs-published', { params: {}, version: 'v9' }), 404, 'version_not_found');
  });
});

describe('a failing step', () => {
  it('fails the run naming the step and why, skipping the steps after it, and sends nothing again for a POST', async () => {
    provider.route('/api/quotes', answers.json({ error: 'boom' }, 500), 'POST');
    const response = await workflows.execute('order-flow', { params: { order: { id: 'o-3', total: 150 } } });
    const run = expectRun(response);
    expect(run.status).toBe('failed');
    expect(run.output).toBeUndefined();
    expect(run.error).toEqual({ stepId: 'quote', message: 'the provider answered 500: the provider failed to handle the request; try again later' });
    expect(statuses(run)).toEqual([
      ['size', 'succeeded'],
      ['quote', 'failed'],
      ['decide', 'skipped'],
      ['discount', 'skipped'],
      ['full', 'skipped'],
      ['done-discount', 'skipped'],
      ['done-full', 'skipped'],
    ]);
    expect(provider.calls('/api/quotes')).toBe(1);
  });

  it('names a branch with no case that holds and no otherwise', async () => {
    await workflows.created(
      workflowRecord('no-way-out', {
        inputs: [{ name: 'n', type: 'number' }],
        start: 'pick',
        steps: [
          { id: 'pick', kind: 'branch', cases: [{ when: 'n > 10', next: 'halve' }] },
          { id: 'halve', kind: 'transform', set: { half: 'n / 2' }, next: 'done' },
          { id: 'done', kind: 'end', output: { half: 'halve.half' } },
        ],
      }),
    );
    const stuck = expectRun(await workflows.test('no-way-out', { params: { n: 1 } }));
    expect(stuck).toMatchObject({ status: 'failed', error: { stepId: 'pick', message: 'no case holds and there is no otherwise' } });
    expect(statuses(stuck)).toEqual([
      ['pick', 'failed'],
      ['halve', 'skipped'],
      ['done', 'skipped'],
    ]);
    expect(expectRun(await workflows.test('no-way-out', { params: { n: 12 } })).output).toEqual({ half: 6 });
  });
});

describe('params', () => {
  it('refuses params that do not fit the declared inputs with a 400 naming each input, before any step runs', async () => {
    for (const call of [
      () => workflows.execute('order-flow', { params: { order: 'not a context' } }),
      () => workflows.test('order-flow', { params: { order: 42 } }),
    ]) {
      const response = await call();
      expectFailure(response, 400, 'invalid_request');
      expect(fieldsOf(response)).toEqual(['params.order']);
      expect(errorsOf(response)[0]!.message).toMatch(/\S/);
    }
    expectFailure(await workflows.execute('order-flow', { params: [] }), 400, 'invalid_request');
    expectFailure(await workflows.execute('order-flow', { params: {}, extra: 1 }), 400, 'invalid_request');
    expect(provider.calls()).toBe(0);
  });
});

describe('recorded executions', () => {
  it('records API runs, succeeded and failed, when settings.recordExecutions is true, never tests', async () => {
    provider.route('/api/quotes', answers.sequence(answers.json({ price: 60 }), answers.json({}, 500)), 'POST');
    const before = await workflows.executions('order-flow', { pageSize: 100 });
    expectSuccess(before, { pageNo: 1, pageSize: 100, totalCount: before.body.totalCount });
    const ok = expectRun(await workflows.execute('order-flow', { params: { order: { id: 'r-1', total: 150 } } }));
    const failed = expectRun(await workflows.execute('order-flow', { params: { order: { id: 'r-2', total: 150 } } }));
    expect(failed.status).toBe('failed');
    expectRun(await workflows.test('order-flow', { params: { order: { id: 'r-3', total: 150 } } }));

    const after = await workflows.executions('order-flow', { pageSize: 100 });
    expectSuccess(after, { pageNo: 1, pageSize: 100, totalCount: before.body.totalCount + 2 });
    const byId = new Map(after.body.data.map((e) => [e.executionId as string, e]));
    expect(after.body.data.slice(0, 2).map((e) => e.executionId)).toEqual([failed.executionId, ok.executionId]); // newest first
    expect(byId.get(ok.executionId)).toMatchObject({
      workflowId: 'order-flow',
      version: 'v1',
      trigger: 'api',
      outcome: 'succeeded',
      input: { order: { id: 'r-1', total: 150 } },
      output: ok.output,
      steps: ok.steps,
    });
    expect(byId.get(failed.executionId)).toMatchObject({
      outcome: 'failed',
      error: { code: 'step_failed', message: `quote: ${failed.error!.message}` },
      steps: failed.steps,
    });
    for (const e of after.body.data) expect(e.input).not.toEqual({ order: { id: 'r-3', total: 150 } });
  });

  it('records nothing for a workflow that does not ask for it', async () => {
    provider.route('/api/quotes', answers.json({ price: 10 }), 'POST');
    await workflows.published(orderFlow('unrecorded'));
    expectRun(await workflows.execute('unrecorded', { params: { order: { id: 'u-1', total: 1 } } }));
    expectSuccess(await workflows.executions('unrecorded'), { pageNo: 1, pageSize: 10, totalCount: 0 });
    expectFailure(await workflows.executions('no-such-workflow'), 404, 'entity_not_found');
  });
});

describe('testing one step', () => {
  it('runs an API-request step on a given context against its provider, and says where a run would go next', async () => {
    provider.route('/api/quotes', answers.json({ price: 99 }), 'POST');
    const response = await workflows.testStep('order-flow', 'quote', { context: { order: { id: 's-1', total: 5 }, size: { size: 'medium' } } });
    expectSuccess(response);
    const step = response.body.data;
    expectStepShape(step as StepTestView, ['next']);
    expect(step).toEqual({
      id: 'quote',
      type: 'apiRequest',
      status: 'succeeded',
      durationMs: expect.any(Number),
      output: { status: 200, headers: expect.any(Object), body: { price: 99 } },
      next: 'decide',
    });
    const [seen] = provider.requests('/api/quotes');
    expect(seen).toMatchObject({ query: { size: 'medium' }, headers: { 'x-api-key': key, 'x-order': 's-1' } });
    expect(JSON.parse(seen!.body)).toEqual({ total: 5, size: 'medium' });
  });

  it('runs branches, transforms, ends and rules, and fails a rule step given params of the wrong type', async () => {
    const branch = await workflows.testStep('order-flow', 'decide', { context: { quote: { body: { price: 51 } } } });
    expect(branch.body.data).toMatchObject({ id: 'decide', type: 'branch', status: 'succeeded', next: 'discount' });
    const transform = await workflows.testStep('order-flow', 'discount', { context: { quote: { body: { price: 10 } } } });
    expect(transform.body.data).toMatchObject({ status: 'succeeded', output: { price: 9, note: 'discounted' }, next: 'done-discount' });
    const end = await workflows.testStep('order-flow', 'done-full', { context: { full: { price: 3, note: 'n' }, size: { size: 'small' } } });
    expect(end.body.data).toEqual({
      id: 'done-full',
      type: 'end',
      status: 'succeeded',
      durationMs: expect.any(Number),
      output: { price: 3, note: 'n', size: 'small' },
    });
    const rule = await workflows.testStep('order-flow', 'size', { context: { order: { total: 500 } } });
    expect(rule.body.data).toMatchObject({ status: 'succeeded', output: { size: 'large' }, next: 'quote' });
    // A missing value is null, as in FEEL; a value of the wrong type for the rule's params fails the step.
    expect((await workflows.testStep('order-flow', 'size', { context: {} })).body.data).toMatchObject({ status: 'succeeded', output: { size: 'small' } });
    const wrong = await workflows.testStep('order-flow', 'size', { context: { order: { total: 'lots' } } });
    expectSuccess(wrong);
    expectStepShape(wrong.body.data, ['next']);
    expect(wrong.body.data).toMatchObject({ status: 'failed', error: expect.stringContaining('params.total') });
    expect(wrong.body.data.next).toBeUndefined();
    expect(provider.calls()).toBe(0);
  });

  it('answers 404 step_not_found for a step the workflow does not have', async () => {
    expectFailure(await workflows.testStep('order-flow', 'nope', { context: {} }), 404, 'step_not_found');
    expectFailure(await workflows.testStep('order-flow', 'not a step!', { context: {} }), 404, 'step_not_found');
    expectFailure(await workflows.testStep('no-such-workflow', 'quote', { context: {} }), 404, 'entity_not_found');
    expectFailure(await t.api('/dev/v1/rule/wf-size/steps/a/test', { method: 'POST', body: '{"context":{}}' }), 404, 'entity_type_not_found');
  });
});

describe('the demo workflows against the demo provider', () => {
  const payment = (amount: number, cardAgeDays: number, ipCountry: string) => ({
    payment: { amount },
    card: { ageDays: cardAgeDays, country: 'DE', paymentsLastHour: 0 },
    ip: { country: ipCountry },
    customer: { lifetimeValue: 10 },
  });

  it('payment-review screens with a rule, scores with the provider (key in a header) and decides on each branch', async () => {
    const run = async (params: Json): Promise<RunView> => expectRun(await workflows.execute('payment-review', { params }));
    const approve = await run(payment(50, 100, 'DE'));
    expect(approve).toMatchObject({ status: 'succeeded', output: { decision: 'approve', score: 0 }, version: 'v1' });
    const review = await run(payment(1500, 100, 'FR'));
    expect(review.output).toEqual({ decision: 'review', score: 45, reasons: ['amount of 1000 or more', 'signal countryMismatch'] });
    const decline = await run(payment(1500, 2, 'FR'));
    expect(decline.output).toEqual({ decision: 'decline', score: 75, reasons: ['amount of 1000 or more', 'signal countryMismatch', 'screening score 60'] });
    expect(statuses(decline)).toEqual([
      ['screen', 'succeeded'],
      ['score', 'succeeded'],
      ['decide', 'succeeded'],
      ['decline', 'succeeded'],
      ['approve', 'skipped'],
      ['review', 'skipped'],
    ]);
    // It records its executions.
    const recorded = await workflows.executions('payment-review', { pageSize: 3 });
    expect(recorded.body.data.map((e) => e.executionId)).toEqual([decline.executionId, review.executionId, approve.executionId]);
  });

  it("price-in-currency converts at the provider's rate (key in the query)", async () => {
    const run = expectRun(await workflows.execute('price-in-currency', { params: { price: 100, currency: 'USD' } }));
    expect(run.output).toEqual({ price: 108, currency: 'USD', rate: 1.08 });
    const unknown = expectRun(await workflows.execute('price-in-currency', { params: { price: 100, currency: 'XYZ' } }));
    expect(unknown.error).toEqual({ stepId: 'rate', message: 'the provider answered 400: the provider rejected the request as malformed' });
  });

  it('shows a wrong key as the 401 mapping, and runs again once the key is right', async () => {
    const setValue = async (value: string) => expectSuccess(await t.api('/dev/v1/credentials/cred_demo_query', json('PATCH', { value })));
    await setValue('not-the-demo-key');
    const wrong = expectRun(await workflows.execute('price-in-currency', { params: { price: 1, currency: 'GBP' } }));
    expect(wrong.error).toEqual({ stepId: 'rate', message: 'the provider answered 401: the key is wrong or revoked' });
    await setValue(demoProviderKey);
    expect(expectRun(await workflows.execute('price-in-currency', { params: { price: 100, currency: 'GBP' } })).output).toEqual({
      price: 86,
      currency: 'GBP',
      rate: 0.86,
    });
  });
});
