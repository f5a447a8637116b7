/**
 * The call an API-request step makes (lib/integrations/call.ts), against real
 * providers on 127.0.0.1 with a store on an embedded DynamoDB: where the key
 * goes, how the integration's base URL, headers and timeout apply, how the
 * answer is read, and each failure with its message and whether a retry may
 * help. No message or log line holds a key, and no connection leaves
 * loopback (a resolver stands in for DNS).
 */
import { mkdtempSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { localKeyring } from '../../lib/credentials/local-keyring.ts';
import { createCredential, revokeCredential } from '../../lib/credentials/service.ts';
import { callApi, CallFailure, createApiCaller, joinPath, type ApiCallerDeps } from '../../lib/integrations/call.ts';
import { createIntegration } from '../../lib/integrations/service.ts';
import { createOutboundClient, type LookupAll, type OutboundOptions } from '../../lib/outbound/index.ts';
import { ApiCallFailure, type ApiRequest } from '../../lib/integrations/api-call.ts';
import { expectNoSecrets } from '../helpers/credentials.ts';
import { answers, refusedPort, startTestProvider, type TestProvider } from '../helpers/providers.ts';
import { useEmbeddedStore } from '../helpers/store.ts';
import { guardConnections, startTlsProvider, type Provider } from '../outbound/servers.ts';

const fixture = useEmbeddedStore('integration-calls');
const workspaceId = 'calls';
const keyring = localKeyring(join(mkdtempSync(join(tmpdir(), 'calls-')), 'key'));

/** Every line the outbound client logged, and every failure message: none may hold a key. */
const logged: string[] = [];
const messages: string[] = [];
const secrets = new Set<string>();

const client = (options: OutboundOptions = {}) =>
  createOutboundClient({ allowPrivateNetworks: true, log: (message, fields) => void logged.push(`${message} ${JSON.stringify(fields)}`), ...options });
const deps = (options?: OutboundOptions): ApiCallerDeps => ({ store: fixture.store, keyring, send: client(options).send });

const request = (fields: Partial<ApiRequest>): ApiRequest => ({ stepId: 'call', method: 'GET', query: {}, headers: {}, timeoutMs: 5000, ...fields });
const call = (fields: Partial<ApiRequest>, options?: OutboundOptions) => createApiCaller(deps(options), workspaceId)(request(fields));

async function failureOf(fields: Partial<ApiRequest>, options?: OutboundOptions): Promise<CallFailure> {
  try {
    await call(fields, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiCallFailure);
    expect(error).toBeInstanceOf(CallFailure);
    messages.push((error as Error).message);
    return error as CallFailure;
  }
  throw new Error('expected the call to fail');
}

let named = 0;
async function credential(value: string, placement: 'header' | 'query' = 'header', key = placement === 'header' ? 'X-Api-Key' : 'api_key') {
  secrets.add(value);
  const input = { name: `key ${++named}`, type: 'apiKey' as const, key, value, placement, description: '', allowedHosts: ['127.0.0.1'] };
  return (await createCredential({ store: fixture.store, keyring }, workspaceId, input)).credential;
}

async function integration(fields: { baseUrl: string; credentialId?: string; headers?: Record<string, string>; timeoutMs?: number }) {
  const input = { name: `integration ${++named}`, type: 'restApi', headers: {}, timeoutMs: 10_000, description: '', ...fields } as const;
  return (await createIntegration(fixture.store, workspaceId, input)).integration;
}

let provider: TestProvider;
let guard: ReturnType<typeof guardConnections>;

beforeAll(async () => {
  provider = await startTestProvider();
  guard = guardConnections();
});
afterAll(async () => {
  guard?.restore();
  await provider?.close();
  expectNoSecrets([...logged, ...messages].join('\n'), secrets, 'a log line or failure message');
});
beforeEach(() => {
  provider.reset();
  guard.hosts.length = 0;
});
afterEach(() => {
  // Names are resolved by the client's guarded lookup (or the test's resolver); an IP literal off loopback the guard throws on.
  expect(guard.hosts.filter((host) => isIP(host) && host !== '127.0.0.1' && host !== '::1')).toEqual([]);
});

describe('placing the key', () => {
  it('sends a header credential in its header, exactly once, with the integration headers under the step headers', async () => {
    const value = 'sk-CALL-HEADER-7f3a91c2';
    const { id } = await credential(value);
    const risk = await integration({ baseUrl: `${provider.origin}/api`, credentialId: id, headers: { 'X-Tenant': 'acme', 'X-Trace': 'shared' } });
    provider.route('/api/v1/score', answers.json({ score: 12 }));

    const answer = await call({ integrationId: risk.id, path: '/v1/score', headers: { 'x-trace': 'step' } });
    expect(answer).toEqual({ status: 200, headers: expect.objectContaining({ 'content-type': 'application/json' }), body: { score: 12 } });
    const [seen] = provider.requests();
    expect(seen).toMatchObject({ method: 'GET', target: '/api/v1/score', query: {} });
    expect(seen!.headers).toMatchObject({ 'x-api-key': value, 'x-tenant': 'acme', 'x-trace': 'step', accept: 'application/json' });
    expect(JSON.stringify(seen).split(value)).toHaveLength(2);
  });

  it('appends a query credential after the step query, and puts nothing in the headers', async () => {
    const value = 'q-CALL-QUERY+/=8d2e';
    const { id } = await credential(value, 'query');
    const fx = await integration({ baseUrl: provider.origin, credentialId: id });
    await call({ integrationId: fx.id, path: '/v1/fx-rate?fixed=1', query: { from: 'EUR', 'to currency': 'US D' } });
    const [seen] = provider.requests();
    expect(seen!.target).toBe(`/v1/fx-rate?fixed=1&from=EUR&to%20currency=US%20D&api_key=${encodeURIComponent(value)}`);
    expect(seen!.query).toEqual({ fixed: '1', from: 'EUR', 'to currency': 'US D', api_key: value });
    expect(Object.values(seen!.headers).join('\n')).not.toContain(value);
  });

  it('calls a full URL with its own credential', async () => {
    const value = 'sk-CALL-URL-5b6c7d8e';
    const { id } = await credential(value, 'query', 'token');
    await call({ url: `${provider.origin}/direct?a=b%20c`, credentialId: id, query: { z: '1' } });
    expect(provider.requests()[0]!.target).toBe(`/direct?a=b%20c&z=1&token=${value}`);
  });

  it('calls a full URL without a credential, and an integration without one', async () => {
    const plain = await integration({ baseUrl: provider.origin });
    await call({ url: `${provider.origin}/open` });
    await call({ integrationId: plain.id, path: '/open' });
    expect(provider.requests().map((r) => [r.target, r.headers['x-api-key']])).toEqual([
      ['/open', undefined],
      ['/open', undefined],
    ]);
  });

  it("refuses a step query parameter that is the query credential's key, naming the query, and sends nothing", async () => {
    const { id } = await credential('q-CALL-CLASH-1a2b3c4d', 'query');
    const failure = await failureOf({ url: `${provider.origin}/x`, credentialId: id, query: { api_key: 'mine' } });
    expect(failure).toMatchObject({ failure: 'invalid_request', field: 'query', retryable: false });
    expect(failure.message).toMatch(/"api_key" is also the credential's Key/);
    expect(provider.calls()).toBe(0);
  });

  it("refuses a step header that is the header credential's key, naming the headers", async () => {
    const { id } = await credential('sk-CALL-HEADER-CLASH-9e8d');
    const failure = await failureOf({ url: `${provider.origin}/x`, credentialId: id, headers: { 'x-api-key': 'mine' } });
    expect(failure).toMatchObject({ failure: 'invalid_request', field: 'headers', retryable: false });
    expect(provider.calls()).toBe(0);
  });
});

describe('the base URL and the path', () => {
  it.each([
    ['https://api.example.com', '/v1/rates', 'https://api.example.com/v1/rates'],
    ['https://api.example.com/', '/v1/rates', 'https://api.example.com/v1/rates'],
    ['https://api.example.com/api/v2', '/rates', 'https://api.example.com/api/v2/rates'],
    ['https://api.example.com/api/v2/', '/rates?x=1', 'https://api.example.com/api/v2/rates?x=1'],
    ['https://api.example.com/api/v2', '/', 'https://api.example.com/api/v2/'],
    ['https://api.example.com/api', '/a/./b/../c', 'https://api.example.com/api/a/c'],
    ['https://api.example.com/api', '//other.example.com/x', 'https://api.example.com/api//other.example.com/x'],
  ])('joins %s and %s', (base, path, url) => {
    expect(joinPath(base, path).href).toBe(url);
  });

  it.each(['/../admin', '/%2e%2e/admin', '/%2E%2E/%2e%2e/x', '/v1/../../x', '/..', '/..\\admin', '\\..\\admin', 'relative'])(
    'refuses the path %s, which leaves the base',
    (path) => {
      let failure: unknown;
      try {
        joinPath('https://api.example.com/api', path);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(CallFailure);
      expect(failure).toMatchObject({ failure: 'invalid_url', field: 'path', retryable: false });
    },
  );

  it('sends nothing for a path that leaves the base, and says so', async () => {
    const scoped = await integration({ baseUrl: `${provider.origin}/api` });
    const failure = await failureOf({ integrationId: scoped.id, path: '/../admin' });
    expect(failure.message).toBe(
      `the path "/../admin" leaves the integration's base URL ${provider.origin}/api: give a path under it, without "." or ".." segments`,
    );
    expect(provider.calls()).toBe(0);
  });
});

describe('the request and its answer', () => {
  it('sends the body as JSON with its content type, keeping a content type the step gives', async () => {
    const open = await integration({ baseUrl: provider.origin });
    await call({ integrationId: open.id, path: '/post', method: 'POST', body: { amount: 12.5, tags: ['a'], none: null } });
    await call({ integrationId: open.id, path: '/post', method: 'PUT', body: { a: 1 }, headers: { 'Content-Type': 'application/vnd.api+json' } });
    await call({ integrationId: open.id, path: '/post', method: 'DELETE' });
    expect(provider.requests().map((r) => [r.method, r.headers['content-type'], r.body])).toEqual([
      ['POST', 'application/json', '{"amount":12.5,"tags":["a"],"none":null}'],
      ['PUT', 'application/vnd.api+json', '{"a":1}'],
      ['DELETE', undefined, ''],
    ]);
  });

  it('returns answers of any status, headers lower-cased and repeated ones joined', async () => {
    provider.route('/denied', {
      kind: 'body',
      status: 401,
      body: '{"error":"bad key"}',
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'r1' },
    });
    provider.route('/cookies', answers.json({ ok: true }, 200, { 'set-cookie': ['a=1', 'b=2'] }));
    expect(await call({ url: `${provider.origin}/denied` })).toEqual({
      status: 401,
      headers: expect.objectContaining({ 'x-request-id': 'r1' }),
      body: { error: 'bad key' },
    });
    expect((await call({ url: `${provider.origin}/cookies` })).headers['set-cookie']).toBe('a=1, b=2');
  });

  it('reads an empty body as null, and a body that is not JSON as null when the status is not a success', async () => {
    provider.route('/empty', answers.empty());
    provider.route('/blank', answers.text('  \n', 200, 'application/json'));
    provider.route('/gateway', answers.text('<html>Bad gateway</html>', 502));
    expect((await call({ url: `${provider.origin}/empty` })).body).toBeNull();
    expect((await call({ url: `${provider.origin}/blank` })).body).toBeNull();
    expect(await call({ url: `${provider.origin}/gateway` })).toMatchObject({ status: 502, body: null });
  });

  it('answers 429 and 503 with their Retry-After for the runner to act on', async () => {
    provider.route('/busy', answers.sequence(answers.retryAfter(503, 2), answers.retryAfter(429, 1), answers.json({ ok: true })));
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call({ url: `${provider.origin}/busy` });
      statuses.push([answer.status, answer.headers['retry-after']]);
    }
    expect(statuses).toEqual([
      [503, '2'],
      [429, '1'],
      [200, undefined],
    ]);
  });

  it('scrubs a key the provider echoes from the answer', async () => {
    const value = 'sk-CALL-ECHOED-4f5e6d7c';
    const { id } = await credential(value);
    provider.route('/echo', answers.json({ youSent: value, [value]: [`Bearer ${value}`] }, 200, { 'x-echo': value }));
    const answer = await call({ url: `${provider.origin}/echo`, credentialId: id });
    expect(answer.body).toEqual({ youSent: '[REDACTED]', '[REDACTED]': ['Bearer [REDACTED]'] });
    expect(answer.headers['x-echo']).toBe('[REDACTED]');
  });

  it('reports how long the exchange took', async () => {
    provider.route('/slow', answers.delay(120));
    const { durationMs } = await callApi(deps(), workspaceId, request({ url: `${provider.origin}/slow` }));
    expect(durationMs).toBeGreaterThanOrEqual(100);
  });
});

describe('failures', () => {
  it('names an integration that does not exist', async () => {
    const failure = await failureOf({ integrationId: 'intg_missing', path: '/x' });
    expect(failure).toMatchObject({
      failure: 'integration_not_found',
      retryable: false,
      message: 'the integration "intg_missing" does not exist in this workspace',
    });
  });

  it('names a credential that does not exist, or is revoked, and sends nothing', async () => {
    expect(await failureOf({ url: `${provider.origin}/x`, credentialId: 'cred_missing' })).toMatchObject({
      failure: 'credential_not_found',
      retryable: false,
      message: 'The workspace has no credential "cred_missing".',
    });
    const { id } = await credential('sk-CALL-REVOKED-0a1b2c3d');
    const revoked = await integration({ baseUrl: provider.origin, credentialId: id });
    await revokeCredential(fixture.store, workspaceId, id);
    const failure = await failureOf({ integrationId: revoked.id, path: '/x' });
    expect(failure).toMatchObject({ failure: 'credential_revoked', retryable: false });
    expect(failure.message).toContain(`"${id}" is revoked`);
    expect(provider.calls()).toBe(0);
  });

  it('times out within the request timeout, retryably', async () => {
    provider.route('/hang', answers.hang());
    const started = Date.now();
    const failure = await failureOf({ url: `${provider.origin}/hang`, timeoutMs: 300 });
    expect(failure).toMatchObject({ failure: 'timeout', retryable: true });
    expect(failure.message).toMatch(/did not complete within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("takes the integration's timeout when it is shorter than the step's", async () => {
    const quick = await integration({ baseUrl: provider.origin, timeoutMs: 200 });
    provider.route('/hang', answers.hang());
    expect((await failureOf({ integrationId: quick.id, path: '/hang', timeoutMs: 5000 })).message).toMatch(/within 200 ms/);
    const patient = await integration({ baseUrl: provider.origin, timeoutMs: 30_000 });
    expect((await failureOf({ integrationId: patient.id, path: '/hang', timeoutMs: 250 })).message).toMatch(/within 250 ms/);
  });

  it('reports a refused connection, retryably, with the query key redacted', async () => {
    const { id } = await credential('sk-CALL-REFUSED-6e7f8a9b', 'query');
    const port = await refusedPort();
    const failure = await failureOf({ url: `http://127.0.0.1:${port}/down?a=1`, credentialId: id });
    expect(failure).toMatchObject({ failure: 'refused', retryable: true });
    expect(failure.message).toContain(`http://127.0.0.1:${port}/down?a=1&api_key=[REDACTED]`);
  });

  it('reports a name that does not resolve, retryably', async () => {
    const lookup: LookupAll = (hostname, _options, callback) =>
      setImmediate(() => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []));
    const failure = await failureOf({ url: 'https://no-such-provider.test/v1' }, { lookup });
    expect(failure).toMatchObject({ failure: 'dns', retryable: true });
    expect(failure.message).toMatch(/could not be resolved/);
  });

  it('reports a connection dropped without an answer, retryably', async () => {
    provider.route('/drop', answers.drop());
    expect(await failureOf({ url: `${provider.origin}/drop` })).toMatchObject({ failure: 'network', retryable: true });
  });

  it('reports a certificate that is not trusted, not retryably', async () => {
    const tls: Provider = await startTlsProvider();
    try {
      expect(await failureOf({ url: `${tls.origin}/secure` })).toMatchObject({ failure: 'tls', retryable: false });
    } finally {
      await tls.close();
    }
  });

  it('reports an answer over the size limit, not retryably', async () => {
    provider.route('/big', answers.oversize());
    const failure = await failureOf({ url: `${provider.origin}/big` });
    expect(failure).toMatchObject({ failure: 'too_large', retryable: false });
    expect(failure.message).toMatch(/larger than the limit of 1048576 bytes/);
  });

  it('reports a redirect loop, not retryably', async () => {
    provider.route('/loop', { kind: 'body', status: 302, body: '', headers: { location: '/loop' } });
    expect(await failureOf({ url: `${provider.origin}/loop` })).toMatchObject({ failure: 'too_many_redirects', retryable: false });
  });

  it('reports a successful answer that is not JSON, naming its content type', async () => {
    provider.route('/html', answers.text('<html>hello</html>'));
    const failure = await failureOf({ url: `${provider.origin}/html?x=1` });
    expect(failure).toMatchObject({ failure: 'not_json', retryable: false });
    expect(failure.message).toBe(
      `the provider answered with a body that is not JSON (content-type text/html; charset=utf-8; HTTP 200 from ${provider.origin}/html?x=1)`,
    );
  });

  it.each([
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/', true],
    ['loopback where private networks are not allowed', 'http://127.0.0.1:9/x', false],
  ])('refuses %s before any connection, not retryably, naming the url', async (_, url, allowPrivateNetworks) => {
    const connections = guard.hosts.length;
    const failure = await failureOf({ url }, { allowPrivateNetworks });
    expect(failure).toMatchObject({ failure: 'blocked_address', field: 'url', retryable: false });
    expect(guard.hosts.length).toBe(connections);
  });

  it('refuses an integration whose base is blocked, naming the path', async () => {
    const internal = await integration({ baseUrl: 'http://169.254.169.254/latest' });
    expect(await failureOf({ integrationId: internal.id, path: '/meta-data' })).toMatchObject({ failure: 'blocked_address', field: 'path' });
  });

  it('refuses a URL that does not parse without echoing it', async () => {
    const failure = await failureOf({ url: 'http://[not a url' });
    expect(failure).toMatchObject({ failure: 'invalid_url', field: 'url', retryable: false });
    expect(failure.message).not.toContain('not a url');
  });
});
