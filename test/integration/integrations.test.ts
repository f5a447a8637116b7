/**
 * REST integrations over HTTP: create (retry-safe), read, list, change,
 * delete, every bound checked with the field named, the credential an
 * integration sends, workspace isolation, and the test of a path against a
 * provider on 127.0.0.1: where the key goes, what the answer means, and each
 * failure. No answer ever holds a key.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  afterTimestamp,
  credentialBody,
  credentialPath,
  credentialsPath,
  expectCredential,
  expectInvalid,
  expectNoSecrets,
  json,
  recordingApi,
  type CredentialView,
  type FieldIssue,
} from '../helpers/credentials.ts';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import {
  expectIntegration,
  integrationBody,
  integrationPath,
  integrationsPath,
  integrationTestPath,
  type IntegrationTestResult,
  type IntegrationView,
} from '../helpers/integrations.ts';
import { answers, refusedPort, startTestProvider, type TestProvider } from '../helpers/providers.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { guardConnections } from '../outbound/servers.ts';

const t = useRuntime();
const { api, answers: said } = recordingApi(() => t.api);

const secrets = new Set<string>();
afterEach(() => {
  expectNoSecrets(said.join('\n'), secrets, 'an API answer');
  said.length = 0;
});

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider();
});
afterAll(() => provider?.close());
beforeEach(() => provider.reset());

const create = (body: unknown, key?: string) => api<IntegrationView>(integrationsPath, json('POST', body, { key }));
const patch = (id: string, body: unknown, key?: string) => api<IntegrationView>(integrationPath(id), json('PATCH', body, { key }));
const remove = (id: string, key?: string) => api<IntegrationView>(integrationPath(id), { method: 'DELETE', key });
const get = (id: string, key?: string) => api<IntegrationView>(integrationPath(id), { key });
const test = (id: string, body: unknown, key?: string) => api<IntegrationTestResult>(integrationTestPath(id), json('POST', body, { key }));

let named = 0;
const uniqueName = (prefix: string) => `${prefix} ${++named}`;

async function created(body: Record<string, unknown>, key?: string) {
  return expectIntegration(await create(body, key), 201);
}

async function credential(value: string, extra: Record<string, unknown> = {}, key?: string): Promise<CredentialView> {
  secrets.add(value);
  return expectCredential(await api(credentialsPath, json('POST', credentialBody(uniqueName('integration key'), value, extra), { key })), 201);
}

/** The test's answer: a 200 with exactly the fields a result has. */
async function tested(id: string, body: unknown): Promise<IntegrationTestResult> {
  const response = await test(id, body);
  expectSuccess(response);
  const result = response.body.data;
  const optional = ['failure', 'body', 'bodyOmitted'].filter((field) => field in result);
  expect(Object.keys(result).sort()).toEqual(['durationMs', 'message', 'ok', 'status', ...optional].sort());
  expect(Number.isInteger(result.durationMs) && result.durationMs >= 0).toBe(true);
  expect(result.ok).toBe(result.status >= 200 && result.status < 300);
  return result;
}

/** A 4xx whose details name the body field `credentialId`. */
function expectCredentialField(response: Parameters<typeof expectFailure>[0], status: number, code: string) {
  expectFailure(response, status, code);
  expect((response.body.data as { errors: FieldIssue[] }).errors).toEqual([{ in: 'body', field: 'credentialId', message: response.body.message }]);
}

describe('creating and reading an integration', () => {
  it('answers 201 with the integration and its defaults, and a get answers the same', async () => {
    const name = uniqueName('Rates API');
    const view = await created(integrationBody(name, 'https://rates.example.com/v2'));
    expect(view).toMatchObject({ name, baseUrl: 'https://rates.example.com/v2', headers: {}, timeoutMs: 10_000, description: '', revision: 1 });
    expect(view.createdAt).toBe(view.updatedAt);
    expect(view).not.toHaveProperty('credentialId');
    expect(expectIntegration(await get(view.id), 200)).toEqual(view);
  });

  it('keeps headers, a credential, a timeout and a description as given', async () => {
    const { id } = await credential('sk-INTG-CREATE-4a5b6c7d');
    const headers = { 'X-Tenant': 'acme', Accept: 'application/vnd.scores+json' };
    const view = await created(
      integrationBody(uniqueName('Scores'), 'http://127.0.0.1:9/api/', { headers, credentialId: id, timeoutMs: 2500, description: 'risk scores' }),
    );
    expect(view).toMatchObject({ headers, credentialId: id, timeoutMs: 2500, description: 'risk scores', baseUrl: 'http://127.0.0.1:9/api/' });
  });

  it('is workspace-wide: no Service-Branch needed, and one given is ignored', async () => {
    const view = await created(integrationBody(uniqueName('Branchless'), 'https://b.example.com'));
    expectIntegration(await api(integrationPath(view.id), { branch: 'no-such-branch' }), 200, { id: view.id });
  });

  it('answers an unknown id with 404 integration_not_found on every operation', async () => {
    const id = 'intg_00000000000000000000';
    expectFailure(await get(id), 404, 'integration_not_found');
    expectFailure(await patch(id, { description: 'x' }), 404, 'integration_not_found');
    expectFailure(await remove(id), 404, 'integration_not_found');
    expectFailure(await test(id, { path: '/x' }), 404, 'integration_not_found');
    for (const impossible of ['not an id!', `intg_${'x'.repeat(2000)}`]) expectFailure(await get(impossible), 404, 'integration_not_found');
  });

  it('answers every operation without Service-API-Key with 401', async () => {
    for (const response of [
      await api(integrationsPath, { key: null }),
      await api(integrationsPath, json('POST', integrationBody('x', 'https://x.example.com'), { key: null })),
      await api(integrationPath('intg_x'), { key: null }),
      await api(integrationTestPath('intg_x'), json('POST', { path: '/' }, { key: null })),
    ])
      expectFailure(response, 401, 'service_api_key_empty', null);
  });
});

describe('retrying a create', () => {
  it('answers the same create again with 200 and the integration it made', async () => {
    const headers = Object.fromEntries(['X-Zeta', 'X-Alpha', 'X-Mid', 'Accept', 'X-B'].map((name, i) => [name, String(i)]));
    const body = integrationBody(uniqueName('Retried'), 'https://retry.example.com', { headers, timeoutMs: 4000 });
    const first = await created(body);
    expect(expectIntegration(await create(body), 200)).toEqual(first);
  });

  it('makes one integration when the same create is sent several times at once', async () => {
    const body = integrationBody(uniqueName('Concurrent'), 'https://concurrent.example.com');
    const responses = await Promise.all([create(body), create(body), create(body), create(body)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
  });

  it.each([
    ['another base URL', { baseUrl: 'https://other.example.com' }],
    ['other headers', { headers: { 'X-B': '2' } }],
    ['another timeout', { timeoutMs: 5 }],
    ['another description', { description: 'changed' }],
    ['the name in another case', { name: 'TAKEN INTEGRATION NAME' }],
  ])('answers the same name with %s with 409 integration_name_taken, naming the name', async (_, change) => {
    const body = integrationBody('Taken integration name', 'https://taken.example.com');
    const original = await create(body);
    expect([200, 201]).toContain(original.status);
    const response = await create({ ...body, ...change });
    expectFailure(response, 409, 'integration_name_taken');
    expect(response.body.message).toContain(`"${(change as { name?: string }).name ?? body.name}"`);
    expect(expectIntegration(await get(original.body.data.id), 200)).toEqual(original.body.data);
  });
});

describe('the credential an integration sends', () => {
  it('must exist in the workspace: 404 credential_not_found on the field credentialId', async () => {
    expectCredentialField(
      await create(integrationBody(uniqueName('No credential'), 'https://x.example.com', { credentialId: 'cred_missing' })),
      404,
      'credential_not_found',
    );
  });

  it('must not be revoked: 409 credential_revoked on the field credentialId', async () => {
    const { id } = await credential('sk-INTG-REVOKED-1f2e3d4c');
    expectCredential(await api(credentialPath(id), { method: 'DELETE' }), 200, { status: 'revoked' });
    expectCredentialField(await create(integrationBody(uniqueName('Revoked'), 'https://x.example.com', { credentialId: id })), 409, 'credential_revoked');
    const view = await created(integrationBody(uniqueName('Patched to revoked'), 'https://x.example.com'));
    expectCredentialField(await patch(view.id, { credentialId: id }), 409, 'credential_revoked');
    expectCredentialField(await patch(view.id, { credentialId: 'cred_missing' }), 404, 'credential_not_found');
  });

  it("refuses a header that is the credential's own, naming it", async () => {
    const { id } = await credential('sk-INTG-CLASH-5e6f7a8b');
    const issues = expectInvalid(
      await create(integrationBody(uniqueName('Clash'), 'https://x.example.com', { credentialId: id, headers: { 'x-api-key': 'mine' } })),
      ['headers.x-api-key'],
    );
    expect(issues[0]!.message).toContain(id);
  });

  it('is attached, replaced and detached (credentialId null) by PATCH', async () => {
    const [one, two] = [await credential('sk-INTG-ATTACH-ONE-9c8b'), await credential('sk-INTG-ATTACH-TWO-7a6f')];
    const view = await created(integrationBody(uniqueName('Attach'), 'https://x.example.com', { headers: { 'X-Keep': 'yes' } }));
    expectIntegration(await patch(view.id, { credentialId: one.id }), 200, { credentialId: one.id, revision: 2 });
    expectIntegration(await patch(view.id, { credentialId: two.id }), 200, { credentialId: two.id, revision: 3 });
    const detached = expectIntegration(await patch(view.id, { credentialId: null }), 200, { revision: 4, headers: { 'X-Keep': 'yes' } });
    expect(detached).not.toHaveProperty('credentialId');
    expect(expectIntegration(await get(view.id), 200)).toEqual(detached);
  });
});

describe('changing an integration', () => {
  it('changes only the fields given, keeping the id, with a new revision and updatedAt', async () => {
    const view = await created(integrationBody(uniqueName('Change me'), 'https://a.example.com', { headers: { 'X-A': '1' }, description: 'first' }));
    await afterTimestamp(view.updatedAt);
    const changed = expectIntegration(await patch(view.id, { description: 'second', timeoutMs: 3000 }), 200);
    expect(changed).toEqual({ ...view, description: 'second', timeoutMs: 3000, revision: 2, updatedAt: expect.any(String) });
    expect(changed.updatedAt > view.updatedAt).toBe(true);
    expect(expectIntegration(await patch(view.id, { headers: {}, baseUrl: 'https://b.example.com/v1' }), 200)).toMatchObject({
      headers: {},
      baseUrl: 'https://b.example.com/v1',
      revision: 3,
    });
  });

  it('changes nothing for an empty change, or one that repeats what is stored', async () => {
    const view = await created(integrationBody(uniqueName('Same'), 'https://same.example.com'));
    expect(expectIntegration(await patch(view.id, {}), 200)).toEqual(view);
    expect(expectIntegration(await patch(view.id, { baseUrl: view.baseUrl, timeoutMs: view.timeoutMs }), 200)).toEqual(view);
  });

  it('renames, freeing the old name and taking the new one', async () => {
    const [oldName, newName] = [uniqueName('Old integration'), uniqueName('New integration')];
    const view = await created(integrationBody(oldName, 'https://rename.example.com'));
    expectIntegration(await patch(view.id, { name: newName }), 200, { id: view.id, name: newName });
    const reused = await created(integrationBody(oldName, 'https://reused.example.com'));
    expect(reused.id).not.toBe(view.id);
    expectFailure(await patch(reused.id, { name: newName.toUpperCase() }), 409, 'integration_name_taken');
    expectFailure(await create(integrationBody(newName, 'https://other.example.com')), 409, 'integration_name_taken');
  });
});

describe('deleting an integration', () => {
  it('deletes it, answering it as it was, and frees its name; deleting again is 404', async () => {
    const name = uniqueName('Deleted');
    const view = await created(integrationBody(name, 'https://deleted.example.com'));
    expect(expectIntegration(await remove(view.id), 200)).toEqual(view);
    expectFailure(await get(view.id), 404, 'integration_not_found');
    expectFailure(await remove(view.id), 404, 'integration_not_found');
    expect((await created(integrationBody(name, 'https://deleted.example.com'))).id).not.toBe(view.id);
  });
});

describe('listing integrations', () => {
  let lister: { key: string };
  const names = ['delta', 'Alpha', 'charlie', 'bravo', 'Echo'];

  beforeAll(async () => {
    lister = await createWorkspaceWithKey(t.runtime.store, { id: 'integration-lister' });
    for (const name of names) await created(integrationBody(name, `https://${name.toLowerCase()}.example.com`), lister.key);
  });

  it('lists by name, case-insensitively, in pages with the paging fields', async () => {
    const pages = [];
    for (const pageNo of [1, 2, 3, 4]) {
      const response = await api<IntegrationView[]>(integrationsPath, { key: lister.key, query: { pageNo, pageSize: 2 } });
      expectSuccess(response, { pageNo, pageSize: 2, totalCount: 5 });
      pages.push(response.body.data.map((view) => view.name));
    }
    expect(pages).toEqual([['Alpha', 'bravo'], ['charlie', 'delta'], ['Echo'], []]);
  });

  it('shows the same views as a get', async () => {
    const response = await api<IntegrationView[]>(integrationsPath, { key: lister.key });
    expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: 5 });
    for (const view of response.body.data) expect(expectIntegration(await get(view.id, lister.key), 200)).toEqual(view);
  });

  it.each([
    [{ pageNo: 0 }, 'pageNo'],
    [{ pageSize: 101 }, 'pageSize'],
    [{ pageSize: 'ten' }, 'pageSize'],
    [{ page: 2 }, 'page'],
  ])('refuses %o with 400 invalid_request on the query', async (query, field) => {
    expectInvalid(await api(integrationsPath, { key: lister.key, query }), [field], 'query');
  });

  it('lists nothing for a workspace without integrations', async () => {
    const { key } = await createWorkspaceWithKey(t.runtime.store, { id: 'no-integrations' });
    const response = await api(integrationsPath, { key });
    expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: 0 });
    expect(response.body.data).toEqual([]);
  });
});

describe('validation', () => {
  const base = () => integrationBody(uniqueName('Invalid'), 'https://valid.example.com');
  const manyHeaders = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v']));

  it.each([
    ['an empty name', { name: '' }, ['name']],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, ['name']],
    ['a name with surrounding spaces', { name: ' padded ' }, ['name']],
    ['another type', { type: 'soap' }, ['type']],
    ['an ftp base URL', { baseUrl: 'ftp://files.example.com' }, ['baseUrl']],
    ['a base URL with a user and password', { baseUrl: 'https://user:pw@api.example.com' }, ['baseUrl']],
    ['a base URL with a query', { baseUrl: 'https://api.example.com/v1?token=x' }, ['baseUrl']],
    ['a base URL with a fragment', { baseUrl: 'https://api.example.com/v1#top' }, ['baseUrl']],
    ['a base URL with a space', { baseUrl: 'https://api.example.com/a b' }, ['baseUrl']],
    ['a base URL that does not parse', { baseUrl: 'https://exa mple.com' }, ['baseUrl']],
    ['a base URL of 2001 characters', { baseUrl: `https://api.example.com/${'p'.repeat(1977)}` }, ['baseUrl']],
    ['a header name that is not a token', { headers: { 'X Bad': 'v' } }, ['headers.X Bad']],
    ['a header value with a line break', { headers: { 'X-A': 'one\r\nX-B: two' } }, ['headers.X-A']],
    ['an empty header value', { headers: { 'X-A': '' } }, ['headers.X-A']],
    ['a header value of 4097 characters', { headers: { 'X-A': 'v'.repeat(4097) } }, ['headers.X-A']],
    ['a header the client sets itself', { headers: { Host: 'evil.example.com' } }, ['headers.Host']],
    ['an Authorization header', { headers: { Authorization: 'Bearer x' } }, ['headers.Authorization']],
    ['a header given twice', { headers: { 'X-A': '1', 'x-a': '2' } }, ['headers.x-a']],
    ['51 headers', { headers: manyHeaders }, ['headers']],
    ['headers that are not an object', { headers: 'X-A: 1' }, ['headers']],
    ['a timeout of 0', { timeoutMs: 0 }, ['timeoutMs']],
    ['a timeout over 30000', { timeoutMs: 30_001 }, ['timeoutMs']],
    ['a fractional timeout', { timeoutMs: 1.5 }, ['timeoutMs']],
    ['a timeout as text', { timeoutMs: '100' }, ['timeoutMs']],
    ['a description of 501 characters', { description: 'd'.repeat(501) }, ['description']],
    ['an empty credential id', { credentialId: '' }, ['credentialId']],
    ['an unknown field', { baseURL: 'https://typo.example.com' }, ['body']],
  ])('refuses a create with %s, naming the field', async (_, change, fields) => {
    expectInvalid(await create({ ...base(), ...change }), fields);
  });

  it('names every missing field', async () => {
    expectInvalid(await create({ type: 'restApi' }), ['name', 'baseUrl']);
  });

  it.each([
    ['the type (not changeable)', { type: 'restApi' }, ['body']],
    ['a credential id that is not text', { credentialId: 5 }, ['credentialId']],
    ['a timeout of 0', { timeoutMs: 0 }, ['timeoutMs']],
    ['a base URL with a query', { baseUrl: 'https://x.example.com/?a=1' }, ['baseUrl']],
  ])('refuses a change with %s, naming the field', async (_, change, fields) => {
    const view = await created(base());
    expectInvalid(await patch(view.id, change), fields);
    expect(expectIntegration(await get(view.id), 200)).toEqual(view);
  });

  it.each([
    ['no path', {}, ['path']],
    ['a relative path', { path: 'v1/x' }, ['path']],
    ['a path with a space', { path: '/v1/a b' }, ['path']],
    ['HEAD', { path: '/', method: 'HEAD' }, ['method']],
    ['51 query parameters', { path: '/', query: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`q${i}`, 'v'])) }, ['query']],
    ['a query value that is not text', { path: '/', query: { a: 1 } }, ['query.a']],
    ['a header with a line break', { path: '/', headers: { 'X-A': 'a\nb' } }, ['headers.X-A']],
    ['a body nested 33 levels', { path: '/', body: JSON.parse(`${'['.repeat(33)}${']'.repeat(33)}`) }, ['body']],
    ['an unknown field', { path: '/', url: 'https://x.example.com' }, ['body']],
  ])('refuses a test with %s, naming the field, and calls nothing', async (_, body, fields) => {
    const view = await created(integrationBody(uniqueName('Test validation'), provider.origin));
    expectInvalid(await test(view.id, body), fields);
    expect(provider.calls()).toBe(0);
  });
});

describe('testing a path against the provider', () => {
  it('calls the path under the base URL with the header key, the integration headers and the body, and shows the JSON answer', async () => {
    const value = 'sk-INTG-TEST-HEADER-2b3c4d5e';
    const { id } = await credential(value);
    const view = await created(integrationBody(uniqueName('Scores'), `${provider.origin}/api`, { credentialId: id, headers: { 'X-Tenant': 'acme' } }));
    provider.route('/api/v1/score', answers.json({ score: 42, level: 'medium' }));
    const result = await tested(view.id, {
      method: 'POST',
      path: '/v1/score',
      query: { explain: 'true' },
      headers: { 'X-Trace': 't1' },
      body: { amount: 1500 },
    });
    expect(result).toEqual({
      status: 200,
      ok: true,
      durationMs: expect.any(Number),
      message: 'the provider accepted the request',
      body: { score: 42, level: 'medium' },
    });
    const [seen] = provider.requests();
    expect(seen).toMatchObject({ method: 'POST', target: '/api/v1/score?explain=true', body: '{"amount":1500}' });
    expect(seen!.headers).toMatchObject({ 'x-api-key': value, 'x-tenant': 'acme', 'x-trace': 't1', 'content-type': 'application/json' });
  });

  it('puts a query key in the query only', async () => {
    const value = 'q-INTG-TEST-QUERY-6f7a8b9c';
    const { id } = await credential(value, { key: 'api_key', placement: 'query' });
    const view = await created(integrationBody(uniqueName('FX'), provider.origin, { credentialId: id }));
    provider.route('/v1/fx-rate', answers.json({ rate: 1.08 }));
    expect(await tested(view.id, { path: '/v1/fx-rate', query: { from: 'EUR', to: 'USD' } })).toMatchObject({ status: 200, body: { rate: 1.08 } });
    const [seen] = provider.requests();
    expect(seen!.target).toBe(`/v1/fx-rate?from=EUR&to=USD&api_key=${value}`);
    expect(Object.values(seen!.headers).join('\n')).not.toContain(value);
  });

  it.each([
    [401, 'the key is wrong or revoked'],
    [403, 'the key is valid but lacks the permission'],
    [404, 'the provider has nothing at this URL; check the URL'],
    [429, 'the provider is limiting the rate of calls; try again later'],
    [503, 'the provider failed to handle the request; try again later'],
  ])('explains an answer of %i: %s', async (status, message) => {
    const { id } = await credential(`sk-INTG-STATUS-${status}-abcd`);
    const view = await created(integrationBody(uniqueName('Status'), provider.origin, { credentialId: id }));
    provider.route('/answer', answers.json({ error: `status ${status}` }, status));
    expect(await tested(view.id, { path: '/answer' })).toEqual({
      status,
      ok: false,
      durationMs: expect.any(Number),
      message,
      body: { error: `status ${status}` },
    });
  });

  it('reports an answer that is not JSON as failure not_json', async () => {
    const view = await created(integrationBody(uniqueName('HTML'), provider.origin));
    provider.route('/page', answers.text('<html>login</html>'));
    const result = await tested(view.id, { path: '/page' });
    expect(result).toMatchObject({ status: 0, ok: false, failure: 'not_json' });
    expect(result.message).toMatch(/^the provider answered with a body that is not JSON \(content-type text\/html/);
  });

  it("times out within the integration's timeout: failure timeout", async () => {
    const view = await created(integrationBody(uniqueName('Slow'), provider.origin, { timeoutMs: 300 }));
    provider.route('/slow', answers.hang());
    const started = Date.now();
    const result = await tested(view.id, { path: '/slow' });
    expect(result).toMatchObject({ status: 0, ok: false, failure: 'timeout' });
    expect(result.message).toMatch(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports a refused connection, with the query key redacted', async () => {
    const { id } = await credential('q-INTG-REFUSED-0d1e2f3a', { key: 'api_key', placement: 'query' });
    const port = await refusedPort();
    const view = await created(integrationBody(uniqueName('Down'), `http://127.0.0.1:${port}`, { credentialId: id }));
    const result = await tested(view.id, { path: '/v1/x' });
    expect(result).toMatchObject({ status: 0, ok: false, failure: 'refused' });
    expect(result.message).toContain(`http://127.0.0.1:${port}/v1/x?api_key=[REDACTED]`);
  });

  it('leaves out an answer larger than 64 KiB, saying so', async () => {
    const view = await created(integrationBody(uniqueName('Large'), provider.origin));
    provider.route('/large', answers.json({ items: 'x'.repeat(70 * 1024) }));
    expect(await tested(view.id, { path: '/large' })).toMatchObject({ status: 200, ok: true, bodyOmitted: true });
  });

  it('refuses a path that leaves the base URL, or an address that may not be called, with 400 on path, connecting nowhere', async () => {
    const scoped = await created(integrationBody(uniqueName('Scoped'), `${provider.origin}/api`));
    const internal = await created(integrationBody(uniqueName('Metadata'), 'http://169.254.169.254/latest'));
    const guard = guardConnections();
    try {
      expect(expectInvalid(await test(scoped.id, { path: '/../admin' }), ['path'])[0]!.message).toMatch(/leaves the integration's base URL/);
      expect(expectInvalid(await test(internal.id, { path: '/meta-data' }), ['path'])[0]!.message).toMatch(/metadata/);
      // The test's own requests to the runtime only: nothing toward the provider or the metadata address.
      expect(guard.hosts.filter((host) => host !== '127.0.0.1' && host !== 'localhost')).toEqual([]);
    } finally {
      guard.restore();
    }
    expect(provider.connections()).toBe(0);
  });

  it("refuses a query parameter that is the credential's key with 400 on query", async () => {
    const { id } = await credential('q-INTG-QUERY-CLASH-4b5c6d7e', { key: 'api_key', placement: 'query' });
    const view = await created(integrationBody(uniqueName('Query clash'), provider.origin, { credentialId: id }));
    expectInvalid(await test(view.id, { path: '/x', query: { api_key: 'mine' } }), ['query']);
    expect(provider.calls()).toBe(0);
  });

  it('never sends a revoked credential: 409 credential_revoked, and the provider hears nothing', async () => {
    const { id } = await credential('sk-INTG-TEST-REVOKED-8e9f0a1b');
    const view = await created(integrationBody(uniqueName('Revoked later'), provider.origin, { credentialId: id }));
    expectCredential(await api(credentialPath(id), { method: 'DELETE' }), 200, { status: 'revoked' });
    expectFailure(await test(view.id, { path: '/x' }), 409, 'credential_revoked');
    expect(provider.connections()).toBe(0);
  });
});

describe('workspace isolation', () => {
  let other: { key: string };
  let mine: IntegrationView;
  let myCredential: CredentialView;

  beforeAll(async () => {
    other = await createWorkspaceWithKey(t.runtime.store, { id: 'other-integrations' });
    myCredential = await credential('sk-INTG-ISOLATED-3c4d5e6f');
    mine = await created(integrationBody('Shared integration name', provider.origin, { credentialId: myCredential.id }));
  });

  it("cannot read, change, delete or use another workspace's integration", async () => {
    expectFailure(await get(mine.id, other.key), 404, 'integration_not_found');
    expectFailure(await patch(mine.id, { baseUrl: 'https://evil.example.com' }, other.key), 404, 'integration_not_found');
    expectFailure(await test(mine.id, { path: '/x' }, other.key), 404, 'integration_not_found');
    expectFailure(await remove(mine.id, other.key), 404, 'integration_not_found');
    expect(provider.calls()).toBe(0);
    expect(expectIntegration(await get(mine.id), 200)).toEqual(mine);
  });

  it("cannot list another workspace's integrations, nor attach its credentials; names are per workspace", async () => {
    const listed = await api<IntegrationView[]>(integrationsPath, { key: other.key, query: { pageSize: 100 } });
    expect(listed.body.data.map((view) => view.id)).not.toContain(mine.id);
    expectCredentialField(
      await create(integrationBody('Borrowed key', provider.origin, { credentialId: myCredential.id }), other.key),
      404,
      'credential_not_found',
    );
    const theirs = await created(integrationBody('Shared integration name', 'https://theirs.example.com'), other.key);
    expect(theirs.id).not.toBe(mine.id);
    expectFailure(await get(theirs.id), 404, 'integration_not_found');
  });
});
