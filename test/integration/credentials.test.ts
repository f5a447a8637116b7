/**
 * API-key credentials over HTTP: create (retry-safe), read, list, rename,
 * move, rotate, revoke, validation, workspace isolation, and what DynamoDB
 * holds. Calls to a provider are in credentials-outbound.test.ts.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  afterTimestamp,
  credentialBody,
  credentialPath,
  credentialsPath,
  credentialTestPath,
  expectCredential,
  expectedHint,
  expectInvalid,
  expectNoSecrets,
  expectView,
  json,
  recordingApi,
  type CredentialView,
} from '../helpers/credentials.ts';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
const { api, answers } = recordingApi(() => t.api);

/** Every value a test sends: none may come back in any answer. */
const secrets = new Set<string>();
const secret = (value: string) => (secrets.add(value), value);

afterEach(() => {
  expectNoSecrets(answers.join('\n'), secrets, 'an API answer');
  answers.length = 0;
});

const create = (body: unknown, key?: string) => api<CredentialView>(credentialsPath, json('POST', body, { key }));
const patch = (id: string, body: unknown, key?: string) => api<CredentialView>(credentialPath(id), json('PATCH', body, { key }));
const revoke = (id: string, key?: string) => api<CredentialView>(credentialPath(id), { method: 'DELETE', key });
const get = (id: string, key?: string) => api<CredentialView>(credentialPath(id), { key });

async function created(body: Record<string, unknown> & { value: string }, key?: string): Promise<CredentialView> {
  secret(body.value);
  return expectCredential(await create(body, key), 201);
}

describe('creating and reading a credential', () => {
  it('answers 201 with the credential: key name, placement and a hint, never the value', async () => {
    const value = secret('sk_live_CREATE-4f2a9c81d7');
    const response = await create({ ...credentialBody('Billing API', value), description: 'billing provider' });
    const view = expectCredential(response, 201, {
      name: 'Billing API',
      key: 'X-Api-Key',
      placement: 'header',
      description: 'billing provider',
      valueHint: '••••81d7',
      status: 'active',
    });
    expect(view.createdAt).toBe(view.updatedAt);
    expect(view).not.toHaveProperty('rotatedAt');
    expect(view).not.toHaveProperty('revokedAt');
    expect(Object.keys(view)).not.toContain('value');
    expect(Object.keys(view)).not.toContain('secret');

    expect(expectCredential(await get(view.id), 200)).toEqual(view);
  });

  it('defaults the placement to header and the description to empty', async () => {
    const view = await created({
      name: 'defaults',
      type: 'apiKey',
      key: 'Authorization',
      value: 'Bearer tok-DEFAULTS-77aa',
      allowedHosts: ['api.example.com'],
    });
    expect(view).toMatchObject({ placement: 'header', description: '', key: 'Authorization' });
  });

  it.each([
    ['a 3-character value', 'Q7z', '••••'],
    ['a 8-character value', 'k8-SHORT', '••••RT'],
    ['a 15-character value', 'fifteen-chars-A', '••••s-A'],
    ['a 40-character value', 'forty-characters-long-value-AAAAAAAA1234', '••••1234'],
  ])('shows at most the last 4 characters of %s, fewer for short values', async (_, value, hint) => {
    expect(expectedHint(value)).toBe(hint);
    const view = await created(credentialBody(`hint ${value.length}`, value));
    expect(view.valueHint).toBe(hint);
  });

  it('keeps the key name exactly as given, and allows any non-empty key without control characters in the query', async () => {
    const view = await created(credentialBody('query key with space', 'sk-QUERY-SPACE-91', { key: 'api key', placement: 'query' }));
    expect(view).toMatchObject({ key: 'api key', placement: 'query' });
    const header = await created(credentialBody('mixed case header', 'sk-MIXED-CASE-92', { key: 'x-GOOG-api-KEY' }));
    expect(header.key).toBe('x-GOOG-api-KEY');
  });

  it('accepts values with inner spaces, and non-Latin-1 values in the query', async () => {
    await created(credentialBody('inner spaces', 'Token inner SPACES-93'));
    await created(credentialBody('unicode in query', 'ключ-UNICODE-94', { key: 'k', placement: 'query' }));
  });

  it('is workspace-wide: no Service-Branch needed, and one given is ignored', async () => {
    const view = await created(credentialBody('branchless', 'sk-BRANCHLESS-95'));
    expectCredential(await api(credentialPath(view.id), { branch: 'no-such-branch' }), 200, { id: view.id });
    const list = await api(credentialsPath, { branch: 'no-such-branch' });
    expect({ status: list.status, code: list.body.code }).toEqual({ status: 200, code: '' });
  });

  it('answers an unknown id with 404 credential_not_found on every operation', async () => {
    const id = 'cred_00000000000000000000';
    expectFailure(await get(id), 404, 'credential_not_found');
    expectFailure(await patch(id, { name: 'x' }), 404, 'credential_not_found');
    expectFailure(await revoke(id), 404, 'credential_not_found');
    expectFailure(await api(credentialTestPath(id), json('POST', { url: 'http://127.0.0.1:9/' })), 404, 'credential_not_found');
  });

  it('answers every credential operation without Service-API-Key with 401 before validating anything', async () => {
    const id = 'cred_00000000000000000000';
    const calls = [
      api(credentialsPath, { key: null }),
      api(credentialsPath, json('POST', 'not json', { key: null })),
      api(credentialPath(id), { key: null }),
      api(credentialPath(id), json('PATCH', { value: ' bad' }, { key: null })),
      api(credentialPath(id), { method: 'DELETE', key: null }),
      api(credentialTestPath(id), json('POST', {}, { key: null })),
    ];
    for (const response of await Promise.all(calls)) expectFailure(response, 401, 'service_api_key_empty', null);
  });
});

describe('retrying a create', () => {
  it('returns the same credential: 201, then 200 with the same id', async () => {
    const body = { ...credentialBody('Retried', secret('sk-RETRY-SAME-0a1b2c3d')), description: 'retry me' };
    const first = expectCredential(await create(body), 201);
    const second = expectCredential(await create(body), 200);
    expect(second).toEqual(first);
    const third = expectCredential(await create(body), 200);
    expect(third.id).toBe(first.id);
  });

  it.each([
    ['a different value', { value: 'sk-RETRY-OTHER-VALUE-99' }],
    ['a different key name', { key: 'X-Other-Key' }],
    ['a different placement', { placement: 'query' }],
    ['a different description', { description: 'changed' }],
    ['the name in another case', { name: 'TAKEN NAME' }],
  ])('answers the same name with %s with 409 credential_name_taken', async (_, change) => {
    const body = credentialBody('Taken name', secret('sk-RETRY-ORIGINAL-5e6f'));
    const original = await create(body);
    expect([200, 201]).toContain(original.status);
    if ('value' in change) secret(change.value);
    const response = await create({ ...body, ...change });
    expectFailure(response, 409, 'credential_name_taken');
    expect(response.body.message).toContain((change as { name?: string }).name ?? body.name);
    // The original is untouched.
    const listed = await api<CredentialView[]>(credentialsPath, { query: { pageSize: 100 } });
    expect(listed.body.data.filter((c) => c.name.toLowerCase() === 'taken name')).toEqual([expectCredential(original, original.status as 200)]);
  });

  it('makes one credential when the same create is sent several times at once', async () => {
    const body = credentialBody('Concurrent', secret('sk-CONCURRENT-71c3'));
    const responses = await Promise.all([create(body), create(body), create(body), create(body)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
    const listed = await api<CredentialView[]>(credentialsPath, { query: { pageSize: 100 } });
    expect(listed.body.data.filter((c) => c.name === 'Concurrent')).toHaveLength(1);
  });
});

describe('changing a credential', () => {
  it('renames it, keeping the id; the old name is free again and the new one taken', async () => {
    const view = await created(credentialBody('Old name', 'sk-RENAME-1234abcd'));
    await afterTimestamp(view.updatedAt);
    const renamed = expectCredential(await patch(view.id, { name: 'New name' }), 200, { id: view.id, name: 'New name', valueHint: view.valueHint });
    expect(renamed.updatedAt > view.updatedAt).toBe(true);
    expect(renamed.createdAt).toBe(view.createdAt);
    expect(renamed).not.toHaveProperty('rotatedAt');
    expect(expectCredential(await get(view.id), 200)).toEqual(renamed);

    expectFailure(await create(credentialBody('new NAME', secret('sk-RENAME-other-5678'))), 409, 'credential_name_taken');
    const reuse = await created(credentialBody('old name', 'sk-RENAME-reuse-9012'));
    expect(reuse.id).not.toBe(view.id);
    expectFailure(await patch(view.id, { name: 'OLD NAME' }), 409, 'credential_name_taken');
  });

  it('changes only the case of its name', async () => {
    const view = await created(credentialBody('case only', 'sk-CASE-ONLY-3456'));
    expectCredential(await patch(view.id, { name: 'Case Only' }), 200, { id: view.id, name: 'Case Only' });
    expectFailure(await create(credentialBody('CASE ONLY', secret('sk-CASE-ONLY-other-7'))), 409, 'credential_name_taken');
  });

  it('changes the key name and the placement, keeping the id and not counting as a rotation', async () => {
    const view = await created(credentialBody('Movable', 'sk-MOVE-abcd1234'));
    await afterTimestamp(view.updatedAt);
    const moved = expectCredential(await patch(view.id, { key: 'api_key', placement: 'query', description: 'now in the query' }), 200, {
      id: view.id,
      key: 'api_key',
      placement: 'query',
      description: 'now in the query',
      valueHint: view.valueHint,
    });
    expect(moved.updatedAt > view.updatedAt).toBe(true);
    expect(moved).not.toHaveProperty('rotatedAt');
    await afterTimestamp(moved.updatedAt);
    const back = expectCredential(await patch(view.id, { key: 'X-Api-Key', placement: 'header' }), 200, { id: view.id, placement: 'header' });
    expect(back.updatedAt > moved.updatedAt).toBe(true);
  });

  it('rotates the value: same id, new hint, rotatedAt set, updatedAt moved', async () => {
    const view = await created(credentialBody('Rotating', 'sk-ROTATE-OLD-aaaa1111'));
    await afterTimestamp(view.updatedAt);
    const rotated = expectCredential(await patch(view.id, { value: secret('sk-ROTATE-NEW-bbbb2222') }), 200, {
      id: view.id,
      valueHint: '••••2222',
      name: 'Rotating',
    });
    expect(rotated.rotatedAt).toBe(rotated.updatedAt);
    expect(rotated.updatedAt > view.updatedAt).toBe(true);
    expect(rotated.createdAt).toBe(view.createdAt);
    await afterTimestamp(rotated.updatedAt);
    const again = expectCredential(await patch(view.id, { value: secret('sk-ROTATE-THIRD-cccc3333') }), 200, { valueHint: '••••3333' });
    expect(again.rotatedAt! > rotated.rotatedAt!).toBe(true);
  });

  it('leaves a credential alone when nothing changes', async () => {
    const view = await created(credentialBody('Unchanged', 'sk-UNCHANGED-dddd4444', { description: 'same' }));
    await afterTimestamp(view.updatedAt);
    expect(expectCredential(await patch(view.id, {}), 200)).toEqual(view);
    expect(expectCredential(await patch(view.id, { name: 'Unchanged', description: 'same', placement: 'header' }), 200)).toEqual(view);
  });
});

describe('revoking a credential', () => {
  it('marks it revoked, refuses changes, answers a second revoke harmlessly, and frees its name', async () => {
    const body = credentialBody('Revocable', secret('sk-REVOKE-eeee5555'));
    const view = expectCredential(await create(body), 201);
    await afterTimestamp(view.updatedAt);
    const revoked = expectCredential(await revoke(view.id), 200, { id: view.id, status: 'revoked', name: 'Revocable', valueHint: view.valueHint });
    expect(revoked.revokedAt).toBe(revoked.updatedAt);
    expect(revoked.updatedAt > view.updatedAt).toBe(true);
    expect(expectCredential(await get(view.id), 200)).toEqual(revoked);

    expect(expectCredential(await revoke(view.id), 200)).toEqual(revoked);

    for (const change of [{ name: 'Revived' }, { value: secret('sk-REVOKE-rotate-ffff') }, { placement: 'query' }, {}])
      expectFailure(await patch(view.id, change), 409, 'credential_revoked');
    expectFailure(await api(credentialTestPath(view.id), json('POST', { url: 'http://127.0.0.1:9/' })), 409, 'credential_revoked');

    // The same create again makes a new credential: the revoked one never comes back.
    const successor = expectCredential(await create(body), 201, { name: 'Revocable', status: 'active' });
    expect(successor.id).not.toBe(view.id);
    expect(expectCredential(await get(view.id), 200).status).toBe('revoked');
  });

  it('frees a name for a rename after its holder is revoked', async () => {
    const holder = await created(credentialBody('Wanted name', 'sk-WANTED-1111'));
    const other = await created(credentialBody('Other name', 'sk-OTHER-2222'));
    expectFailure(await patch(other.id, { name: 'wanted name' }), 409, 'credential_name_taken');
    expectCredential(await revoke(holder.id), 200);
    expectCredential(await patch(other.id, { name: 'wanted name' }), 200, { id: other.id, name: 'wanted name' });
  });
});

describe('validation', () => {
  const valid = () => credentialBody('Valid name', 'sk-VALID-abcdef12');

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a key with a space in the header', { key: 'X Api Key' }, ['key']],
    ['a key with a colon in the header', { key: 'X-Api-Key:' }, ['key']],
    ['a key with non-ASCII in the header', { key: 'X-Ключ' }, ['key']],
    ['an empty key in the query', { key: '', placement: 'query' }, ['key']],
    ['an empty key in the header', { key: '' }, ['key']],
    ['a key with a control character in the query', { key: 'api\u0000key', placement: 'query' }, ['key']],
    ['a key of 257 characters', { key: 'k'.repeat(257), placement: 'query' }, ['key']],
    ['a value with a leading space', { value: ' lead-SECRET-v01' }, ['value']],
    ['a value with a trailing space', { value: 'trail-SECRET-v02 ' }, ['value']],
    ['a value with a trailing newline', { value: 'newline-SECRET-v03\n' }, ['value']],
    ['a value with an embedded CRLF', { value: 'crlf-SECRET-v04\r\nX-Injected: yes' }, ['value']],
    ['a value with a tab', { value: 'tab\tSECRET-v05' }, ['value']],
    ['a value with a line separator', { value: 'ls\u2028SECRET-v06' }, ['value']],
    ['a value with a NUL', { value: 'nul\u0000SECRET-v07' }, ['value']],
    ['a query value with a trailing newline', { value: 'query-SECRET-v08\n', placement: 'query' }, ['value']],
    ['a non-Latin-1 value in the header', { value: 'ключ-SECRET-v09' }, ['value']],
    ['an empty value', { value: '' }, ['value']],
    ['a value of 4097 characters', { value: `long-SECRET-v10-${'x'.repeat(4081)}` }, ['value']],
    ['a value that is not a string', { value: 12345678 }, ['value']],
    ['a missing value', { value: undefined }, ['value']],
    ['placement "cookie"', { placement: 'cookie' }, ['placement']],
    ['placement "Header"', { placement: 'Header' }, ['placement']],
    ['type "oauth"', { type: 'oauth' }, ['type']],
    ['no type', { type: undefined }, ['type']],
    ['no name', { name: undefined }, ['name']],
    ['an empty name', { name: '' }, ['name']],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, ['name']],
    ['a name with a leading space', { name: ' padded' }, ['name']],
    ['a name with a line break', { name: 'two\nlines' }, ['name']],
    ['a description of 501 characters', { description: 'd'.repeat(501) }, ['description']],
    ['a description with a control character', { description: 'bell\u0007' }, ['description']],
    ['no allowedHosts', { allowedHosts: undefined }, ['allowedHosts']],
    ['an empty allowedHosts', { allowedHosts: [] }, ['allowedHosts']],
    ['allowedHosts that is not a list', { allowedHosts: 'api.example.com' }, ['allowedHosts']],
    ['an allowed host with a path', { allowedHosts: ['api.example.com', 'api.example.com/v1'] }, ['allowedHosts[1]']],
    ['a bare * as an allowed host', { allowedHosts: ['*'] }, ['allowedHosts[0]']],
    ['an unknown field', { valeu: 'typo-SECRET-v11' }, ['body']],
    ['several problems at once', { name: '', placement: 'cookie', type: 'basic' }, ['name', 'placement', 'type']],
  ])('refuses %s with 400 invalid_request naming the field, without repeating the value', async (_, change, fields) => {
    const body = { ...valid(), ...change };
    for (const [marker] of JSON.stringify(body).matchAll(/SECRET-[a-z]\d+/g)) secret(marker);
    secret(valid().value);
    const issues = expectInvalid(await create(body), fields);
    if ('valeu' in change) expect(issues[0]!.message).toBe('unknown fields: valeu');
  });

  it('refuses a credential without allowedHosts, saying they are required and what they look like', async () => {
    const { allowedHosts: _allowedHosts, ...unbound } = valid();
    const [issue] = expectInvalid(await create(unbound), ['allowedHosts']);
    expect(issue!.message).toMatch(/^is required: the hosts the key may be sent to, each a host name \(api\.example\.com\), \*\. and a domain/);
  });

  it('accepts a name of exactly 100 characters and a key of 256 in the query', async () => {
    await created(credentialBody('n'.repeat(100), 'sk-LIMITS-1234', { key: 'k'.repeat(256), placement: 'query' }));
  });

  it.each([
    ['not JSON', '{"name": "x", "value": "nonjson-SECRET-v12",'],
    ['a JSON array', '[]'],
    ['a JSON string', '"nonjson-SECRET-v13"'],
    ['JSON null', 'null'],
    ['an empty body', ''],
  ])('refuses a body that is %s with 400 invalid_request on field body', async (_, text) => {
    for (const [marker] of text.matchAll(/SECRET-[a-z]\d+/g)) secret(marker);
    expectInvalid(await create(text), ['body']);
  });

  it('checks a change against the merged credential, and a refused change changes nothing', async () => {
    const query = await created(credentialBody('Query only key', 'sk-MERGE-q1', { key: 'api key', placement: 'query' }));
    expectInvalid(await patch(query.id, { placement: 'header' }), ['key']);
    expectCredential(await patch(query.id, { placement: 'header', key: 'X-Api-Key' }), 200, { placement: 'header', key: 'X-Api-Key' });

    const unicode = await created(credentialBody('Unicode query value', 'ключ-MERGE-q2', { key: 'k', placement: 'query' }));
    const issues = expectInvalid(await patch(unicode.id, { placement: 'header' }), ['value']);
    expect(issues[0]!.message).toMatch(/header/);
    // Rotating to a header-safe value in the same change is fine.
    expectCredential(await patch(unicode.id, { placement: 'header', key: 'X-K', value: secret('ascii-MERGE-q3') }), 200, { placement: 'header' });

    const header = await created(credentialBody('Header key', 'sk-MERGE-h1'));
    expectInvalid(await patch(header.id, { key: 'bad key' }), ['key']);
    expectInvalid(await patch(header.id, { value: secret('новый-MERGE-h2') }), ['value']);
    expectCredential(await patch(header.id, { placement: 'query', key: 'bad key' }), 200, { key: 'bad key', placement: 'query' });
  });

  it.each<[string, unknown, string[]]>([
    ['a value with a leading space', { value: ' patch-SECRET-p01' }, ['value']],
    ['a value with an embedded CRLF', { value: 'patch-SECRET-p02\r\nX: y' }, ['value']],
    ['an empty value', { value: '' }, ['value']],
    ['placement "cookie"', { placement: 'cookie' }, ['placement']],
    ['an empty name', { name: '' }, ['name']],
    ['a name of 101 characters', { name: 'p'.repeat(101) }, ['name']],
    ['a type (not changeable)', { type: 'apiKey' }, ['body']],
    ['an unknown field', { valeu: 'patch-SECRET-p03' }, ['body']],
    ['not JSON', '{"value": "patch-SECRET-p04"', ['body']],
    ['a JSON array', '[{"value": "patch-SECRET-p05"}]', ['body']],
  ])('refuses a change with %s, leaving the credential as it was', async (label, body, fields) => {
    for (const [marker] of JSON.stringify(body).matchAll(/SECRET-[a-z]\d+/g)) secret(marker);
    const view = await created(credentialBody(`Patch target: ${label}`, `sk-PATCH-TARGET-${label.replace(/\W+/g, '-')}`));
    expectInvalid(await patch(view.id, body), fields);
    expect(expectCredential(await get(view.id), 200)).toEqual(view);
  });

  it.each<[string, unknown, string[]]>([
    ['no url', {}, ['url']],
    ['an empty url', { url: '' }, ['url']],
    ['a url of 4097 characters', { url: `http://127.0.0.1/${'a'.repeat(4080)}` }, ['url']],
    ['method TRACE', { url: 'http://127.0.0.1:9/', method: 'TRACE' }, ['method']],
    ['a header value with a line break', { url: 'http://127.0.0.1:9/', headers: { 'X-Trace': 'a\r\nb' } }, ['headers.X-Trace']],
    ['a header value of 8193 characters', { url: 'http://127.0.0.1:9/', headers: { 'X-Big': 'b'.repeat(8193) } }, ['headers.X-Big']],
    ['an unknown field', { url: 'http://127.0.0.1:9/', timeout: 5 }, ['body']],
    ['not JSON', '{"url":', ['body']],
  ])('refuses a test request with %s', async (label, body, fields) => {
    const view = await created(credentialBody(`Test target: ${label}`, `sk-TEST-TARGET-${label.replace(/\W+/g, '-')}`));
    expectInvalid(await api(credentialTestPath(view.id), json('POST', body)), fields);
  });

  it('refuses a test request with an invalid header name', async () => {
    const view = await created(credentialBody('Test target bad header', 'sk-TEST-TARGET-badheader'));
    const response = await api(credentialTestPath(view.id), json('POST', { url: 'http://127.0.0.1:9/', headers: { 'bad name': 'x' } }));
    expectFailure(response, 400, 'invalid_request');
    expect((response.body.data as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([expect.stringMatching(/^headers/)]);
  });
});

describe('listing credentials', () => {
  let lister: { key: string };
  const names = ['delta', 'Alpha', 'charlie', 'bravo', 'Echo'];
  const listed: CredentialView[] = [];

  beforeAll(async () => {
    lister = await createWorkspaceWithKey(t.runtime.store, { id: 'lister' });
    for (const [i, name] of names.entries())
      listed.push(await created(credentialBody(name, `sk-LIST-${name.toUpperCase()}-${i}${i}${i}${i}`, { placement: i % 2 ? 'query' : 'header' }), lister.key));
    expectCredential(await revoke(listed[2]!.id, lister.key), 200); // charlie
  });

  it('lists by name, case-insensitively, with the paging fields, in pages', async () => {
    const pages = [];
    for (const pageNo of [1, 2, 3]) {
      const response = await api<CredentialView[]>(credentialsPath, { key: lister.key, query: { pageNo, pageSize: 2 } });
      expectSuccess(response, { pageNo, pageSize: 2, totalCount: 5 });
      pages.push(response.body.data);
    }
    expect(pages.map((page) => page.map((c) => c.name))).toEqual([['Alpha', 'bravo'], ['charlie', 'delta'], ['Echo']]);
    for (const view of pages.flat()) expectView(view);
  });

  it('shows the same views as a get, revoked credentials included, without values', async () => {
    const response = await api<CredentialView[]>(credentialsPath, { key: lister.key });
    expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: 5 });
    for (const view of response.body.data) {
      expect(view).toEqual(expectCredential(await get(view.id, lister.key), 200));
      expect(Object.keys(view)).not.toContain('value');
      expect(Object.keys(view)).not.toContain('secret');
    }
    expect(response.body.data.find((c) => c.name === 'charlie')?.status).toBe('revoked');
    expect(response.body.data.filter((c) => c.status === 'active')).toHaveLength(4);
  });

  it('answers a page past the end with no data and the totals', async () => {
    const response = await api<CredentialView[]>(credentialsPath, { key: lister.key, query: { pageNo: 4, pageSize: 2 } });
    expectSuccess(response, { pageNo: 4, pageSize: 2, totalCount: 5 });
    expect(response.body.data).toEqual([]);
  });

  it('follows a rename in the order', async () => {
    expectCredential(await patch(listed[0]!.id, { name: 'aardvark' }, lister.key), 200); // delta -> aardvark
    const response = await api<CredentialView[]>(credentialsPath, { key: lister.key });
    expect(response.body.data.map((c) => c.name)).toEqual(['aardvark', 'Alpha', 'bravo', 'charlie', 'Echo']);
  });

  it.each([
    [{ pageNo: 0 }, 'pageNo'],
    [{ pageSize: 101 }, 'pageSize'],
    [{ pageSize: 'ten' }, 'pageSize'],
  ])('refuses %o with 400 invalid_request on the query', async (query, field) => {
    expectInvalid(await api(credentialsPath, { key: lister.key, query }), [field], 'query');
  });

  it('lists nothing for a workspace without credentials', async () => {
    const { key } = await createWorkspaceWithKey(t.runtime.store, { id: 'empty-creds' });
    const response = await api<CredentialView[]>(credentialsPath, { key });
    expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: 0 });
    expect(response.body.data).toEqual([]);
  });
});

describe('workspace isolation', () => {
  let other: { key: string };
  let mine: CredentialView;

  beforeAll(async () => {
    other = await createWorkspaceWithKey(t.runtime.store, { id: 'other-team' });
    mine = await created(credentialBody('Shared name', 'sk-ISOLATED-9f8e7d6c', { description: 'demo only' }));
  });

  it("cannot get, change, revoke or test another workspace's credential: 404 credential_not_found", async () => {
    expectFailure(await get(mine.id, other.key), 404, 'credential_not_found');
    expectFailure(await patch(mine.id, { name: 'hijacked' }, other.key), 404, 'credential_not_found');
    expectFailure(await patch(mine.id, { value: secret('sk-HIJACK-value-0000') }, other.key), 404, 'credential_not_found');
    expectFailure(await revoke(mine.id, other.key), 404, 'credential_not_found');
    expectFailure(await api(credentialTestPath(mine.id), json('POST', { url: 'http://127.0.0.1:9/' }, { key: other.key })), 404, 'credential_not_found');
    // Nothing happened to it.
    expect(expectCredential(await get(mine.id), 200)).toEqual(mine);
  });

  it("does not list another workspace's credentials, and names are per workspace", async () => {
    const before = await api<CredentialView[]>(credentialsPath, { key: other.key, query: { pageSize: 100 } });
    expect(before.body.data.map((c) => c.id)).not.toContain(mine.id);
    const theirs = await created(credentialBody('Shared name', 'sk-ISOLATED-other-1a2b', { description: 'other only' }), other.key);
    expect(theirs.id).not.toBe(mine.id);
    const after = await api<CredentialView[]>(credentialsPath, { key: other.key, query: { pageSize: 100 } });
    expectSuccess(after, { pageNo: 1, pageSize: 100, totalCount: before.body.totalCount + 1 });
    expect(after.body.data.map((c) => c.id)).toContain(theirs.id);
    expect(after.body.data.map((c) => c.id)).not.toContain(mine.id);
    const demo = await api<CredentialView[]>(credentialsPath, { query: { pageSize: 100 } });
    expect(demo.body.data.map((c) => c.id)).not.toContain(theirs.id);
    expectFailure(await get(theirs.id), 404, 'credential_not_found');
  });
});

describe('secrets at rest', () => {
  let client: DynamoDBDocumentClient;
  beforeAll(() => {
    client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: t.runtime.dynamoEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );
  });
  afterAll(() => client?.destroy());

  async function scanAll() {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: t.runtime.tableName, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }
  const itemOf = (items: Record<string, unknown>[], id: string) => items.find((item) => item.SK === `C:${id}`);

  it('stores only ciphertext: no item holds any value, active credentials hold a sealed secret, revoked ones none', async () => {
    const rotatedAway = 'sk-AT-REST-first-value-7Hq2';
    const active = await created(credentialBody('At rest active', rotatedAway));
    expectCredential(await patch(active.id, { value: secret('sk-AT-REST-rotated-value-8Jw3') }), 200);
    const query = await created(credentialBody('At rest query', 'sk-AT-REST-query-9Kx4', { placement: 'query', key: 'token' }));
    const revoked = await created(credentialBody('At rest revoked', 'sk-AT-REST-revoked-0Ly5'));
    expectCredential(await revoke(revoked.id), 200);

    const items = await scanAll();
    // Values of 8 characters or more: a shorter one (other tests use "Q7z") turns up in random base64 ciphertext by chance.
    const findable = new Set([...secrets].filter((value) => value.length >= 8));
    for (const item of items) expectNoSecrets(JSON.stringify(item), findable, `the item ${String(item.PK)} ${String(item.SK)}`);

    for (const id of [active.id, query.id]) {
      const item = itemOf(items, id);
      expect(item).toBeDefined();
      expect(item!.secret).toEqual({
        version: 1,
        keyRef: 'local',
        encryptedKey: expect.stringMatching(/^[A-Za-z0-9+/]{40,}={0,2}$/),
        iv: expect.stringMatching(/^[A-Za-z0-9+/]{16}$/),
        ciphertext: expect.stringMatching(/^[A-Za-z0-9+/]+={0,2}$/),
        tag: expect.stringMatching(/^[A-Za-z0-9+/]{22}==$/),
      });
      expect(item).not.toHaveProperty('value');
    }
    const revokedItem = itemOf(items, revoked.id);
    expect(revokedItem).toMatchObject({ id: revoked.id, revokedAt: expect.any(String) });
    expect(revokedItem).not.toHaveProperty('secret');

    // Every active credential of every workspace has a sealed secret; no revoked one keeps it.
    const credentials = items.filter((item) => String(item.SK).startsWith('C:'));
    expect(credentials.length).toBeGreaterThanOrEqual(3);
    for (const item of credentials) expect(item.revokedAt === undefined).toBe(item.secret !== undefined);
  });

  it('seals each value with a fresh data key: the same value twice gives different ciphertexts', async () => {
    const a = await created(credentialBody('Same value A', 'sk-AT-REST-same-value-1Mz6'));
    const b = await created(credentialBody('Same value B', 'sk-AT-REST-same-value-1Mz6'));
    const items = await scanAll();
    const [sa, sb] = [itemOf(items, a.id)!.secret, itemOf(items, b.id)!.secret] as { ciphertext: string; encryptedKey: string; iv: string }[];
    expect(sa!.ciphertext).not.toBe(sb!.ciphertext);
    expect(sa!.encryptedKey).not.toBe(sb!.encryptedKey);
    expect(sa!.iv).not.toBe(sb!.iv);
  });
});
