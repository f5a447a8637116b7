/**
 * The workspace's Git remote through the local HTTP runtime: PUT and GET
 * /dev/v1/remote (no secret in the URL, a header credential of the
 * workspace), a host that wants a token, and what a pull reports when the
 * remote is wrong: repository or branch missing, authentication refused.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  credentialBody,
  credentialPath,
  credentialsPath,
  expectInvalid,
  expectNoSecrets,
  json,
  recordingApi,
  type CredentialView,
} from '../helpers/credentials.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { counts, entityFiles, pullClient, remotePath, startRepositories, type PullClient, type Repositories } from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { startProvider, type Provider } from '../outbound/servers.ts';

const t = useRuntime();
const { api, answers } = recordingApi(() => t.api);

const TOKEN_HEADER = 'PRIVATE-TOKEN';
const TOKEN = 'glpat-PULL-s3cret_Value+/=9f2c';
const WRONG_TOKEN = 'glpat-WRONG-value-0000aaaa';
/** Values sent as credentials: none may come back in any answer of the file. */
const secrets = [TOKEN, WRONG_TOKEN, 'hunter2-pass', 'q-token-77ab'];

let open: Repositories;
let guarded: Repositories;
let hosts: Provider[];

beforeAll(async () => {
  [open, guarded] = await Promise.all([startRepositories(), startRepositories({ requireHeader: { name: TOKEN_HEADER, value: TOKEN } })]);
  await open.create('rules.git', { main: entityFiles([simpleRule('a', 'A')]) });
  await open.create('empty.git', {});
  await guarded.create('private.git', { main: entityFiles([simpleRule('secret-rule', 'Secret rule')]) });
  hosts = await Promise.all([
    startProvider((_request, response) => response.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden')),
    startProvider((_request, response) => response.end('<html>not a git server</html>')),
  ]);
});
afterAll(async () => {
  await Promise.all([open?.close(), guarded?.close(), ...(hosts ?? []).map((host) => host.close())]);
});
afterEach(() => {
  expectNoSecrets(answers.join('\n'), secrets, 'an API answer');
  answers.length = 0;
});

async function newWorkspace(id: string, branches: string[] = []) {
  const { key } = await createWorkspaceWithKey(t.runtime.store, { id, branches });
  return { key, client: pullClient(api, key) };
}

async function createCredential(key: string, name: string, value: string, extra: Record<string, unknown> = {}): Promise<CredentialView> {
  const response = await api<CredentialView>(credentialsPath, json('POST', credentialBody(name, value, { key: TOKEN_HEADER, ...extra }), { key }));
  expect(response.status).toBe(201);
  return response.body.data;
}

/** Sets the remote (200 with the stored config) and pulls main to its end. */
async function pullFrom(client: PullClient, url: string, credentialId?: string, branch = 'main') {
  const set = await client.setRemote(url, credentialId);
  expectSuccess(set);
  expect(set.body.data).toEqual({ url, ...(credentialId && { credentialId }), format: 'json', updatedAt: expect.any(String) });
  return client.pullAndWait(branch);
}

describe('PUT and GET /dev/v1/remote', () => {
  let key: string;
  let client: PullClient;
  let headerCredential: CredentialView;

  beforeAll(async () => {
    ({ key, client } = await newWorkspace('remote-config'));
    headerCredential = await createCredential(key, 'git host', TOKEN);
  });

  it('stores the URL and the header credential, and GET answers them', async () => {
    const url = guarded.repoUrl('private.git');
    const put = await client.setRemote(url, headerCredential.id);
    expectSuccess(put);
    expect(Object.keys(put.body.data as object).sort()).toEqual(['credentialId', 'format', 'updatedAt', 'url']);
    const got = await client.getRemote();
    expectSuccess(got);
    expect(got.body.data).toEqual(put.body.data);

    // Without a credential: none kept.
    const plain = await client.setRemote(open.repoUrl('rules.git'));
    expectSuccess(plain);
    expect(plain.body.data).toEqual({ url: open.repoUrl('rules.git'), format: 'json', updatedAt: expect.any(String) });
    expect((await client.getRemote()).body.data).toEqual(plain.body.data);
  });

  it('stores the format pushes write decision tables in (json unless dmn is asked for), and refuses any other', async () => {
    const url = open.repoUrl('rules.git');
    const put = (body: unknown) => api(remotePath, json('PUT', body, { key }));
    const dmn = await put({ url, format: 'dmn' });
    expectSuccess(dmn);
    expect(dmn.body.data).toMatchObject({ url, format: 'dmn' });
    expect((await client.getRemote()).body.data).toEqual(dmn.body.data);
    expectInvalid(await put({ url, format: 'xlsx' }), ['format']);
    expect((await client.getRemote()).body.data).toEqual(dmn.body.data);
    // A remote stored before remotes had a format reads as json.
    await t.runtime.store.putRemote('remote-config', { url, updatedAt: new Date().toISOString() });
    expect((await client.getRemote()).body.data).toMatchObject({ url, format: 'json' });
  });

  it.each([
    ['a user name and password', 'https://user:hunter2-pass@git.example.com/team/rules.git'],
    ['a user name alone', 'https://oauth2@git.example.com/team/rules.git'],
    ['a token in the query', 'https://git.example.com/team/rules.git?token=q-token-77ab'],
    ['a private_token in the query', 'https://git.example.com/team/rules.git?private_token=q-token-77ab'],
    ['an access-key in the query', 'https://git.example.com/team/rules.git?access-key=q-token-77ab'],
    ['any other query', 'https://git.example.com/team/rules.git?ref=main'],
    ['a fragment', 'https://git.example.com/team/rules.git#main'],
    ['an SSH address', 'git@git.example.com:team/rules.git'],
    ['an ssh:// URL', 'ssh://git@git.example.com/team/rules.git'],
    ['no repository path', 'https://git.example.com/'],
    ['not a URL', 'rules.git'],
  ])('refuses a URL with %s (400 invalid_request on url), keeping the stored remote', async (_what, url) => {
    const before = (await client.getRemote()).body.data;
    const response = await client.setRemote(url);
    const [issue] = expectInvalid(response, ['url']);
    expect(issue!.message).toMatch(/\S/);
    expect((await client.getRemote()).body.data).toEqual(before);
  });

  it('refuses a credential that is unknown, of another workspace, revoked, or placed in the query', async () => {
    const url = open.repoUrl('rules.git');
    expect(expectInvalid(await client.setRemote(url, 'cred_00000000000000000000'), ['credentialId'])[0]!.message).toMatch(/no credential/);

    const { key: otherKey } = await newWorkspace('remote-config-other');
    const theirs = await createCredential(otherKey, 'theirs', TOKEN);
    expect(expectInvalid(await client.setRemote(url, theirs.id), ['credentialId'])[0]!.message).toMatch(/no credential/);

    const revoked = await createCredential(key, 'revoked', WRONG_TOKEN);
    expect((await api(credentialPath(revoked.id), { method: 'DELETE', key })).status).toBe(200);
    expect(expectInvalid(await client.setRemote(url, revoked.id), ['credentialId'])[0]!.message).toMatch(/revoked/);

    const query = await createCredential(key, 'in the query', WRONG_TOKEN, { key: 'private_token', placement: 'query' });
    expect(expectInvalid(await client.setRemote(url, query.id), ['credentialId'])[0]!.message).toMatch(/header/);
  });

  it('refuses a body that is not the remote (400 with field details)', async () => {
    const put = (body: string) => api(remotePath, { method: 'PUT', key, headers: { 'content-type': 'application/json' }, body });
    expectInvalid(await put('{}'), ['url']);
    expectInvalid(await put('{"url": ""}'), ['url']);
    expectInvalid(await put(JSON.stringify({ url: open.repoUrl('rules.git'), branch: 'main' })), ['body']);
    expectInvalid(await put('{"url": '), ['body']);
    expectInvalid(await put('[]'), ['body']);
    expectInvalid(await api(remotePath, { method: 'PUT', key }), ['body']);
  });

  it('needs the API key, and GET answers 404 while the workspace has no remote', async () => {
    expectFailure(await api(remotePath, { key: null }), 401, 'service_api_key_empty', null);
    expectFailure(await api(remotePath, json('PUT', { url: open.repoUrl('rules.git') }, { key: null })), 401, 'service_api_key_empty', null);
    const { client: fresh } = await newWorkspace('remote-config-none');
    expectFailure(await fresh.getRemote(), 404, 'remote_not_configured', {});
  });
});

describe('a Git host that wants a token', () => {
  it('fails without a credential, fails with a wrong one, completes with the right one; the token is never shown', async () => {
    const { key, client } = await newWorkspace('auth');
    const url = guarded.repoUrl('private.git');

    const anonymous = await pullFrom(client, url);
    expect(anonymous.taskState).toBe('failed');
    expect(anonymous.error).toMatch(/requires authentication .*HTTP 401.*add a credential/);
    expect(anonymous.error).toContain(url);

    const wrong = await createCredential(key, 'wrong token', WRONG_TOKEN);
    const refused = await pullFrom(client, url, wrong.id);
    expect(refused.taskState).toBe('failed');
    expect(refused.error).toMatch(/refused the credential .*HTTP 401/);

    const right = await createCredential(key, 'right token', TOKEN);
    const done = await pullFrom(client, url, right.id);
    expect(done).toMatchObject({ taskState: 'completed', summary: { rule: counts(1) } });
    expect((await client.branchState('main')).lists.rule).toEqual(['secret-rule']);
    // The host got the token in the credential's header, and nowhere else.
    expect(guarded.seenHeaders).toContain(`${TOKEN_HEADER.toLowerCase()}: ${TOKEN}`);
    expect(guarded.seenHeaders.filter((h) => h.includes(TOKEN)).every((h) => h === `${TOKEN_HEADER.toLowerCase()}: ${TOKEN}`)).toBe(true);
    // The token in no task answer, legacy or v1 (afterEach checks every answer of the file).
    for (const taskId of [anonymous.taskId, refused.taskId, done.taskId]) {
      await client.task(taskId);
      await client.task(taskId, { legacy: true });
    }
  });

  it('reports a 403 as access refused', async () => {
    const { client } = await newWorkspace('forbidden');
    const task = await pullFrom(client, `${hosts[0]!.origin}/team/rules.git`);
    expect(task.taskState).toBe('failed');
    expect(task.error).toMatch(/refused access .*HTTP 403/);
  });
});

describe('a remote that does not hold what is pulled', () => {
  it('reports a branch of the workspace the remote does not have', async () => {
    const { client } = await newWorkspace('no-branch', ['feature']);
    const task = await pullFrom(client, open.repoUrl('rules.git'), undefined, 'feature');
    expect(task).toMatchObject({ taskState: 'failed', branch: 'feature' });
    expect(task.error).toMatch(/has no branch "feature"/);
    expect((await client.branchState('feature')).lists).toEqual({ rule: [], workflow: [] });
    // The same remote serves main.
    expect(await client.pullAndWait('main')).toMatchObject({ taskState: 'completed', summary: { rule: counts(1) } });
  });

  it('reports a repository that is not there, one that is empty, and a server that is not Git', async () => {
    const { client } = await newWorkspace('no-repo');
    const missing = await pullFrom(client, open.repoUrl('missing.git'));
    expect(missing.taskState).toBe('failed');
    expect(missing.error).toMatch(/No Git repository was found at .*missing\.git/);

    const empty = await pullFrom(client, open.repoUrl('empty.git'));
    expect(empty.taskState).toBe('failed');
    expect(empty.error).toMatch(/is empty/);

    const notGit = await pullFrom(client, `${hosts[1]!.origin}/team/rules.git`);
    expect(notGit.taskState).toBe('failed');
    expect(notGit.error).toMatch(/not as a Git repository/);
    expect((await client.branchState('main')).lists).toEqual({ rule: [], workflow: [] });
  });
});
