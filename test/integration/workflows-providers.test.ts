/**
 * API-request steps against real providers on loopback, through the local
 * HTTP runtime: where the key goes (the provider records what it received),
 * what each provider failure becomes as the step's error, retries and
 * Retry-After, statuses a step accepts for a branch to read, and a
 * credential rotated or revoked between runs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialPath, json } from '../helpers/credentials.ts';
import { expectSuccess } from '../helpers/envelope.ts';
import { integrationPath } from '../helpers/integrations.ts';
import { answers, refusedPort, startTestProvider, type TestProvider } from '../helpers/providers.ts';
import { useRuntime } from '../helpers/runtime.ts';
import {
  callFlow,
  createCredential,
  createIntegration,
  expectRun,
  statuses,
  workflowRecord,
  workflowsClient,
  type Json,
  type RunView,
  type WorkflowsClient,
} from '../helpers/workflows.ts';

const t = useRuntime();
let provider: TestProvider;
let workflows: WorkflowsClient;

const values = {
  header: 'sk_prov_HEADER-7f3a9c2e1b',
  /** Characters that encode differently in a query: "/", "+", "=", space, "%", non-ASCII. */
  query: 'q/prov+val=ue 50%-€é~x',
};
const ids = { header: '', query: '', headerIntegration: '', queryIntegration: '' };

beforeAll(async () => {
  provider = await startTestProvider();
  workflows = workflowsClient(t.api);
  ids.header = (await createCredential(t.api, 'providers header', values.header)).id;
  ids.query = (await createCredential(t.api, 'providers query', values.query, { key: 'api_key', placement: 'query' })).id;
  ids.headerIntegration = (await createIntegration(t.api, 'providers header', provider.origin, { credentialId: ids.header })).id;
  ids.queryIntegration = (await createIntegration(t.api, 'providers query', `${provider.origin}/q`, { credentialId: ids.query })).id;
});
afterAll(async () => {
  await provider?.close();
});
beforeEach(() => provider.reset());

let made = 0;
/** Saves a draft of `callFlow` with this API-request step and tests it: the run. */
async function run(step: Json, extra: Json = {}): Promise<RunView> {
  const id = `provider-flow-${++made}`;
  await workflows.created(callFlow(id, step, extra));
  return expectRun(await workflows.test(id, { params: {} }));
}

const viaHeader = (method: string, path: string, extra: Json = {}): Json => ({ request: { method, integrationId: ids.headerIntegration, path }, ...extra });

/** The run failed at the call step with a message holding `text`. */
function expectCallFailed(result: RunView, text: string | RegExp) {
  expect(result.status, JSON.stringify(result)).toBe('failed');
  expect(result.error!.stepId).toBe('call');
  if (typeof text === 'string') expect(result.error!.message).toContain(text);
  else expect(result.error!.message).toMatch(text);
  expect(statuses(result)).toEqual([
    ['call', 'failed'],
    ['done', 'skipped'],
  ]);
}

describe('placing the key', () => {
  it('sends a header credential in its header, exactly once, and nowhere else', async () => {
    provider.route('/h/me', answers.json({ me: 'ok' }));
    const result = await run({ request: { method: 'GET', integrationId: ids.headerIntegration, path: '/h/me', query: { q: '"x y"' } } });
    expect(result.output).toEqual({ status: 200, body: { me: 'ok' } });
    const [seen] = provider.requests('/h/me');
    expect(seen!.headers['x-api-key']).toBe(values.header);
    expect(seen!.target).toBe('/h/me?q=x%20y');
    expect(JSON.stringify(seen).split(values.header)).toHaveLength(2);
  });

  it("appends a query credential to the query, encoded, after the step's own parameters, and sends no header", async () => {
    provider.route('/q/rate', answers.json({ rate: 2 }));
    const result = await run({ request: { method: 'GET', integrationId: ids.queryIntegration, path: '/rate', query: { from: '"EUR"', to: '"A B"' } } });
    expect(result.output).toEqual({ status: 200, body: { rate: 2 } });
    const [seen] = provider.requests('/q/rate');
    expect(seen!.target).toBe(`/q/rate?from=EUR&to=A%20B&api_key=${encodeURIComponent(values.query)}`);
    expect(seen!.query).toEqual({ from: 'EUR', to: 'A B', api_key: values.query });
    expect(seen!.headers['x-api-key']).toBeUndefined();
    expect(JSON.stringify(seen!.headers)).not.toContain(encodeURIComponent(values.query));
  });

  it("places the credential of a url step as it says, beside the URL's own query", async () => {
    provider.route('/u/x', answers.json({}));
    const result = await run({ request: { method: 'GET', url: `${provider.origin}/u/x?fixed=1` }, credentialId: ids.query });
    expect(result.status).toBe('succeeded');
    expect(provider.requests('/u/x')[0]!.target).toBe(`/u/x?fixed=1&api_key=${encodeURIComponent(values.query)}`);
    const headerRun = await run({ request: { method: 'GET', url: `${provider.origin}/u/x` }, credentialId: ids.header });
    expect(headerRun.status).toBe('succeeded');
    expect(provider.requests('/u/x')[1]!.headers['x-api-key']).toBe(values.header);
  });

  it("fails a step whose own query names the credential's parameter, sending nothing", async () => {
    const result = await run({ request: { method: 'GET', integrationId: ids.queryIntegration, path: '/rate', query: { api_key: '"mine"' } } });
    expectCallFailed(result, 'the query parameter "api_key" is also the credential\'s Key');
    expect(provider.calls()).toBe(0);
  });

  it("fails a step whose own headers name the credential's header, sending nothing", async () => {
    const result = await run({ request: { method: 'GET', integrationId: ids.headerIntegration, path: '/h/me', headers: { 'x-api-key': '"mine"' } } });
    expectCallFailed(result, 'The header "x-api-key" is also the credential\'s Key');
    expect(provider.calls()).toBe(0);
  });
});

describe("provider failures as the step's error", () => {
  it('401: the key is wrong or revoked; 403: the key is valid but lacks the permission; neither tried again', async () => {
    provider.route('/h/401', answers.json({ error: 'unauthorized' }, 401));
    provider.route('/h/403', answers.json({ error: 'forbidden' }, 403));
    const denied = await run(viaHeader('GET', '/h/401'));
    expectCallFailed(denied, 'the key is wrong or revoked');
    expect(denied.error!.message).toBe('the provider answered 401: the key is wrong or revoked');
    const forbidden = await run(viaHeader('GET', '/h/403'));
    expectCallFailed(forbidden, 'the key is valid but lacks the permission');
    expect(provider.calls('/h/401') + provider.calls('/h/403')).toBe(2);
  });

  it("a provider that does not answer in the step's timeout: the call timed out, with the limit", async () => {
    provider.route('/h/hang', answers.hang());
    const started = Date.now();
    const result = await run(viaHeader('POST', '/h/hang', { timeoutMs: 300 }));
    expectCallFailed(result, /did not complete within 300 ms/);
    expect(result.steps[0]!.durationMs).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(provider.calls('/h/hang')).toBe(1);
  });

  it('a timed-out GET is tried again, and the error says how many tries', async () => {
    provider.route('/h/hang', answers.hang());
    const result = await run(viaHeader('GET', '/h/hang', { timeoutMs: 200, retries: 1 }));
    expectCallFailed(result, /did not complete within 200 ms.* \(2 tries\)$/);
    expect(provider.calls('/h/hang')).toBe(2);
  });

  it("the run's deadline bounds a call the step would let run longer, and a Retry-After that would pass it is not waited for", async () => {
    provider.route('/h/slow', answers.delay(3000));
    const slow = await run(viaHeader('POST', '/h/slow', { timeoutMs: 10_000 }), { timeoutMs: 400 });
    expectCallFailed(slow, /did not complete within \d{1,3} ms/);
    expect(slow.durationMs).toBeLessThan(2000);
    provider.route('/h/later', answers.retryAfter(503, 30));
    const started = Date.now();
    const later = await run(viaHeader('POST', '/h/later'), { timeoutMs: 5000 });
    expectCallFailed(
      later,
      "the provider answered 503: the provider failed to handle the request; try again later; waiting 30000 ms to try again would pass the run's deadline",
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(provider.calls('/h/later')).toBe(1);
  });

  it('a refused connection', async () => {
    const port = await refusedPort();
    const id = (await createIntegration(t.api, 'providers refused', `http://127.0.0.1:${port}`, { credentialId: ids.query })).id;
    const result = await run({ request: { method: 'POST', integrationId: id, path: '/down', body: '{a: 1}' } });
    expectCallFailed(result, 'was refused');
    expect(result.error!.message).toContain(`127.0.0.1:${port}/down?api_key=[REDACTED]`);
  });

  it('an oversize body', async () => {
    provider.route('/h/big', answers.oversize());
    expectCallFailed(await run(viaHeader('POST', '/h/big')), 'larger than the limit of 1048576 bytes');
  });

  it('a body that is not JSON, naming its content type', async () => {
    provider.route('/h/html', answers.text('<html>hello</html>'));
    const result = await run(viaHeader('POST', '/h/html'));
    expectCallFailed(result, 'not JSON');
    expect(result.error!.message).toContain('text/html');
  });

  it('an integration deleted since the save, naming it', async () => {
    const id = (await createIntegration(t.api, 'providers deleted', provider.origin)).id;
    await workflows.created(callFlow('deleted-integration', { request: { method: 'GET', integrationId: id, path: '/h/x' } }));
    expectSuccess(await t.api(integrationPath(id), { method: 'DELETE' }));
    const result = expectRun(await workflows.test('deleted-integration', { params: {} }));
    expectCallFailed(result, `"${id}"`);
    expect(provider.calls()).toBe(0);
  });
});

describe('retries', () => {
  it('tries a GET again after a 503, with backoff', async () => {
    provider.route('/h/flaky', answers.sequence(answers.json({}, 503), answers.json({}, 503), answers.json({ ok: true })));
    const result = await run(viaHeader('GET', '/h/flaky'));
    expect(result.output).toEqual({ status: 200, body: { ok: true } });
    expect(provider.calls('/h/flaky')).toBe(3);
    expect(result.steps[0]!.durationMs).toBeGreaterThanOrEqual(550); // 200 + 400 ms
  });

  it("gives up after the step's retries, saying how many tries it made", async () => {
    provider.route('/h/down', answers.json({}, 503));
    const result = await run(viaHeader('GET', '/h/down', { retries: 1 }));
    expectCallFailed(result, 'the provider answered 503: the provider failed to handle the request; try again later (2 tries)');
    expect(provider.calls('/h/down')).toBe(2);
  });

  it('does not send a POST again after a 500, nor after a 503 without Retry-After', async () => {
    provider.route('/h/post-500', answers.json({}, 500));
    provider.route('/h/post-503', answers.json({}, 503));
    expectCallFailed(await run(viaHeader('POST', '/h/post-500')), 'the provider answered 500');
    expectCallFailed(await run(viaHeader('POST', '/h/post-503')), 'the provider answered 503');
    expect([provider.calls('/h/post-500'), provider.calls('/h/post-503')]).toEqual([1, 1]);
  });

  it('sends a POST again after a 429 with Retry-After: 1, having waited the second', async () => {
    provider.route('/h/limited', answers.sequence(answers.retryAfter(429, 1), answers.json({ ok: 'second' })));
    const started = Date.now();
    const result = await run({ request: { method: 'POST', integrationId: ids.headerIntegration, path: '/h/limited', body: '{n: 1}' } });
    expect(result.output).toEqual({ status: 200, body: { ok: 'second' } });
    expect(provider.calls('/h/limited')).toBe(2);
    expect(result.steps[0]!.durationMs).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(provider.requests('/h/limited').map((r) => r.body)).toEqual(['{"n":1}', '{"n":1}']);
  });

  it('lets an accepted 404 through to a branch, and fails on it otherwise', async () => {
    const lookup = (id: string, accept: number[]) =>
      workflowRecord(id, {
        start: 'call',
        steps: [
          {
            id: 'call',
            kind: 'apiRequest',
            request: { method: 'GET', integrationId: ids.headerIntegration, path: '/h/item' },
            acceptStatuses: accept,
            next: 'found',
          },
          { id: 'found', kind: 'branch', cases: [{ when: 'call.status = 404', next: 'missing' }], otherwise: 'present' },
          { id: 'missing', kind: 'end', output: { found: 'false', why: 'call.body.error' } },
          { id: 'present', kind: 'end', output: { found: 'true', item: 'call.body' } },
        ],
      });
    await workflows.created(lookup('accepts-404', [404]));
    await workflows.created(lookup('refuses-404', []));
    provider.route('/h/item', answers.json({ error: 'no such item' }, 404));
    const missing = expectRun(await workflows.test('accepts-404', { params: {} }));
    expect(missing.output).toEqual({ found: false, why: 'no such item' });
    expect(missing.steps[0]!.output).toMatchObject({ status: 404, body: { error: 'no such item' } });
    const refused = expectRun(await workflows.test('refuses-404', { params: {} }));
    expect(refused.error).toEqual({ stepId: 'call', message: 'the provider answered 404: the provider has nothing at this URL; check the URL' });
    expect(provider.calls('/h/item')).toBe(2); // a 404 is not tried again
    provider.route('/h/item', answers.json({ id: 7 }));
    expect(expectRun(await workflows.test('accepts-404', { params: {} })).output).toEqual({ found: true, item: { id: 7 } });
  });
});

describe('credentials changed between runs', () => {
  it('sends the rotated value on the next run', async () => {
    const first = 'sk_rotate_FIRST-0a1b2c3d';
    const second = 'sk_rotate_SECOND-4e5f6a7b';
    const credential = await createCredential(t.api, 'providers rotated', first);
    const integration = await createIntegration(t.api, 'providers rotated', provider.origin, { credentialId: credential.id });
    await workflows.published(callFlow('rotated', { request: { method: 'GET', integrationId: integration.id, path: '/h/rot' } }));
    provider.route('/h/rot', answers.json({ ok: true }));
    expect(expectRun(await workflows.execute('rotated', { params: {} })).status).toBe('succeeded');
    expectSuccess(await t.api(credentialPath(credential.id), json('PATCH', { value: second })));
    expect(expectRun(await workflows.execute('rotated', { params: {} })).status).toBe('succeeded');
    expect(provider.requests('/h/rot').map((r) => r.headers['x-api-key'])).toEqual([first, second]);
  });

  it('fails the step naming the credential once it is revoked, sending nothing', async () => {
    const credential = await createCredential(t.api, 'providers revoked', 'sk_revoke_VALUE-8c9d0e1f', { key: 'token', placement: 'query' });
    const integration = await createIntegration(t.api, 'providers revoked', provider.origin, { credentialId: credential.id });
    await workflows.published(callFlow('revoked', { request: { method: 'GET', integrationId: integration.id, path: '/h/rev' } }));
    await workflows.created(callFlow('revoked-url', { request: { method: 'GET', url: `${provider.origin}/h/rev` }, credentialId: credential.id }));
    provider.route('/h/rev', answers.json({ ok: true }));
    expect(expectRun(await workflows.execute('revoked', { params: {} })).status).toBe('succeeded');
    expect(provider.calls('/h/rev')).toBe(1);

    expectSuccess(await t.api(credentialPath(credential.id), { method: 'DELETE' }));
    for (const result of [expectRun(await workflows.execute('revoked', { params: {} })), expectRun(await workflows.test('revoked-url', { params: {} }))]) {
      expectCallFailed(result, `"${credential.id}"`);
      expect(result.error!.message).toContain('revoked');
    }
    expect(provider.calls('/h/rev')).toBe(1);
  });
});
