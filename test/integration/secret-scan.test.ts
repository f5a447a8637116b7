/**
 * One full scenario with every secret it makes, and one scan of everything
 * the service left behind: every log line (POWERTOOLS_LOG_LEVEL=DEBUG, set
 * before the runtime and its logger load, everything the process writes
 * captured), every answer with its headers, every recorded execution and
 * task read back, and every raw item of the DynamoDB table (values are
 * stored sealed: the plaintext must not be there).
 *
 * The secrets hold the characters that encode differently ("%", space, "+",
 * "/", "=", "&", "#", quotes, Latin-1 and other non-ASCII), and each is
 * searched for in every form ../helpers/secret-forms.ts knows, with its
 * random core alone as a partial leak. They are used the ways a workspace
 * uses them: created (and a retry, and a refused one), rotated, revoked;
 * tested against a loopback provider that echoes what it received in its
 * body, its headers and a redirect Location, that fails, that refuses the
 * key; sent by integrations and their tests; by API-request steps of
 * workflows tested, step-tested, executed synchronously and asynchronously,
 * with recorded executions (one feeding the echo to a rule); and by pulls
 * from a Git host that requires the Git credential (rotated to a wrong
 * value and back) and from hosts that echo it back.
 *
 * Every server is on loopback; every wait is bounded.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../lib/logging/logger.ts';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import type { Api, ApiResponse, RequestOptions } from '../helpers/api.ts';
import { credentialBody, credentialPath, credentialsPath, credentialTestPath, json, type CredentialTestResult } from '../helpers/credentials.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import { integrationPath, integrationsPath, integrationTestPath } from '../helpers/integrations.ts';
import { captureOutput } from '../helpers/output-capture.ts';
import { Issuer } from '../helpers/issuer.ts';
import { entityFiles, pullClient, startRepositories, type Repositories } from '../helpers/pull.ts';
import { parcelFee } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { describeLeaks, secretScanner, type Leak, type Secret } from '../helpers/secret-forms.ts';
import {
  createCredential,
  createIntegration,
  publishRule,
  waitForTask,
  workflowRecord,
  workflowsClient,
  type RunView,
  type TaskAnswer,
} from '../helpers/workflows.ts';
import { closedPort, startProvider, type Provider, type SeenRequest } from '../outbound/servers.ts';

vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
});

/** The issuer people sign in with, on loopback: their tokens are secrets too. */
const issuer = new Issuer();
const audience = 'scan-console';
await issuer.start();
Object.assign(process.env, { OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: audience });
/** The people's tokens the scenario sends: each is looked for like a credential value, its signature alone as a partial leak. */
const tokens: string[] = [];

/** Everything written, captured from before the runtime starts; `print` writes past the capture. */
const print = process.stdout.write.bind(process.stdout);
const output = captureOutput();

const t = useRuntime();

/** 16 random hex digits: the part of a secret no encoder changes, found alone as a partial leak. */
const core = () => [...crypto.getRandomValues(new Uint8Array(8))].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** A header value must be visible ASCII or Latin-1; a query value anything but control characters. */
const values = {
  header: `H ${core()}%2F+/=="é'q`,
  headerRotated: `R ${core()}%25 +/ü"=x`,
  query: `Q ${core()} %+/=€"'é ñ-z`,
  queryRotated: `Q2 ${core()}+%20/€=="y'!`,
  url: `U ${core()}&a=b#frag?x='~`,
  git: `G ${core()}%+/="é'`,
  gitWrong: `GW ${core()}+/=`,
  revoked: `V ${core()} /+=%`,
  refused: `X ${core()} refused\n`,
};
const secretList = (apiKey: string): Secret[] => [
  ...Object.entries(values).map(([label, value]) => ({ label: `the ${label} credential value`, value, core: /[0-9a-f]{16}/.exec(value)![0] })),
  { label: "the workspace's API key", value: apiKey },
  ...tokens.map((value, at) => ({ label: `person token ${at + 1}`, value, core: /[A-Za-z0-9]{16}/.exec(value.split('.')[2]!)![0] })),
];

/** Where each answer came from, and its whole text: status, headers, body. */
const answers: { where: string; text: string }[] = [];
const answerText = (response: ApiResponse) =>
  `${response.status}\n${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${JSON.stringify(response.body)}`;
let key = '';
let requests = 0;
/** The runtime's API with this file's workspace key, keeping every answer. */
const api: Api = async <D>(path: string, options: RequestOptions = {}) => {
  requests++;
  const response = await t.api<D>(path, { key, ...options });
  answers.push({ where: `the answer to ${options.method ?? 'GET'} ${path}`, text: answerText(response) });
  return response;
};

let provider: Provider;
let elsewhere: Provider;
let repositories: Repositories;

/** What the provider received, as it echoes it back. */
function echoOf(seen: SeenRequest) {
  const headers: Record<string, string> = {};
  for (let i = 0; i < seen.rawHeaders.length; i += 2) headers[seen.rawHeaders[i]!.toLowerCase()] = seen.rawHeaders[i + 1]!;
  const url = new URL(seen.target, 'http://x');
  const key = headers['x-api-key'] ?? headers['private-token'] ?? url.searchParams.get('api_key') ?? '';
  return { echo: { method: seen.method, target: seen.target, headers, query: Object.fromEntries(url.searchParams), body: seen.body }, key, url };
}

/** A header carries Latin-1 only: a key beyond it goes %-encoded. */
const headerSafe = (text: string) => (/^[\x20-\x7e\x80-\xff]*$/.test(text) ? text : encodeURIComponent(text));

beforeAll(async () => {
  elsewhere = await startProvider((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ landed: true, target: request.url }));
  });
  provider = await startProvider((_request, response, seen) => {
    const { echo, key, url } = echoOf(seen);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', 'x-echo-key': headerSafe(key), 'x-echo-target': seen.target, ...headers });
      response.end(JSON.stringify(body));
    };
    switch (url.pathname) {
      case '/echo':
        return send(200, { echo, key, nested: JSON.stringify({ echo }) });
      case '/echo/redirect':
        // Same origin: followed with the credential placed again; the echo under another name is not its parameter.
        response.writeHead(302, { location: `/echo?leak=${encodeURIComponent(key)}`, 'x-echo-key': headerSafe(key) });
        return response.end();
      case '/echo/away':
        // Another host: the credential is dropped; the key is in the Location all the same.
        response.writeHead(302, { location: `http://localhost:${elsewhere.port}/landing?echo=${encodeURIComponent(key)}` });
        return response.end();
      case '/echo/denied':
        return send(401, { error: 'invalid key', echo, key });
      case '/echo/fail':
        return send(500, { error: 'provider failure', echo, key });
      case '/echo/text':
        response.writeHead(200, { 'content-type': `text/plain; k=${encodeURIComponent(key)}` });
        return response.end(`your key is ${key}`);
      // Git hosts that echo the token: in redirects without end, in an answer that is not the protocol, in a refusal.
      case '/git/loop.git/info/refs':
        response.writeHead(302, { location: `${url.pathname}?service=git-upload-pack&echo=${encodeURIComponent(key)}` });
        return response.end();
      case '/git/garbage.git/info/refs':
        response.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement' });
        return response.end(`your token is ${key} (${encodeURIComponent(key)})`);
      case '/git/denied.git/info/refs':
        response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': `Basic realm="${headerSafe(key)}"` });
        return response.end(`token ${key} refused`);
      default:
        return send(404, { error: 'not_found', echo });
    }
  });
  repositories = await startRepositories({ requireHeader: { name: 'PRIVATE-TOKEN', value: values.git } });
  await repositories.create('rules.git', { main: entityFiles([simpleRule('pulled-rule', 'Pulled rule')]) });
  ({ key } = await createWorkspaceWithKey(t.runtime.store, { id: 'secret-scan' }));
  // Before any call reads the workspace (a warm function keeps what it read for 30 s).
  await t.runtime.store.setWorkspaceAccess('secret-scan', { groups: [{ group: 'scanners', role: 'editor' }], people: [], updatedAt: new Date().toISOString() });
});
afterAll(async () => {
  await Promise.all([provider?.close(), elsewhere?.close(), repositories?.close(), issuer.close()]);
});

/** The raw items of the table, each as JSON. */
async function tableItems(): Promise<{ where: string; text: string }[]> {
  const client = createDocumentClient({ tableName: t.runtime.tableName, endpoint: t.runtime.dynamoEndpoint });
  const items: { where: string; text: string }[] = [];
  let start: Record<string, unknown> | undefined;
  for (let page = 0; page < 1_000; page++) {
    const answer = await client.send(new ScanCommand({ TableName: t.runtime.tableName, ExclusiveStartKey: start }));
    for (const item of answer.Items ?? []) items.push({ where: `the table item ${String(item.PK)} ${String(item.SK)}`, text: JSON.stringify(item) });
    start = answer.LastEvaluatedKey;
    if (!start) break;
  }
  client.destroy();
  return items;
}

const ok = (response: ApiResponse, ...statuses: number[]) =>
  expect(statuses, `${response.status} ${JSON.stringify(response.body).slice(0, 500)}`).toContain(response.status);

describe('secret scan', () => {
  it('leaves no secret, in any encoding, in any log line, answer, execution, task or table item', async () => {
    const started = Date.now();
    // Credentials: created (a retry too), a refused value, rotated, one revoked.
    const header = await createCredential(api, 'scan header', values.header);
    const query = await createCredential(api, 'scan query', values.query, { key: 'api_key', placement: 'query' });
    ok(await api(credentialsPath, json('POST', credentialBody('scan query', values.query, { key: 'api_key', placement: 'query' }))), 200);
    const url = await createCredential(api, 'scan url', values.url, { key: 'api_key', placement: 'query' });
    const git = await createCredential(api, 'scan git', values.git, { key: 'PRIVATE-TOKEN' });
    const revoked = await createCredential(api, 'scan revoked', values.revoked);
    ok(await api(credentialsPath, json('POST', credentialBody('scan refused', values.refused))), 400);

    // Credential tests: echoes in the body, headers and redirects (same host and away), a refusal, a failure, no answer; before and after a rotation.
    for (const id of [header.id, query.id])
      for (const path of ['/echo', '/echo/redirect']) ok(await api(credentialTestPath(id), json('POST', { url: `${provider.origin}${path}` })), 200);
    ok(await api(credentialPath(header.id), json('PATCH', { value: values.headerRotated })), 200);
    ok(await api(credentialPath(query.id), json('PATCH', { value: values.queryRotated })), 200);
    const refusedPort = await closedPort();
    for (const id of [header.id, query.id, url.id, revoked.id])
      for (const path of ['/echo?a=1', '/echo/redirect', '/echo/away', '/echo/denied', '/echo/fail', '/echo/text']) {
        const response = await api<CredentialTestResult>(credentialTestPath(id), json('POST', { url: `${provider.origin}${path}` }));
        ok(response, 200);
      }
    ok(await api(credentialTestPath(query.id), json('POST', { url: `http://127.0.0.1:${refusedPort}/down?a=1` })), 200);
    ok(await api(credentialTestPath(header.id), json('POST', { url: `${provider.origin}/echo`, method: 'POST', body: { note: 'hi' } })), 200);

    // Integrations and their tests, on each placement.
    const headerIntegration = await createIntegration(api, 'scan header', provider.origin, { credentialId: header.id, headers: { 'X-Client': 'scan' } });
    const queryIntegration = await createIntegration(api, 'scan query', provider.origin, { credentialId: query.id });
    const refusedIntegration = await createIntegration(api, 'scan refused', `http://127.0.0.1:${refusedPort}`, { credentialId: query.id, timeoutMs: 500 });
    for (const integration of [headerIntegration, queryIntegration])
      for (const path of ['/echo', '/echo/redirect', '/echo/away', '/echo/denied', '/echo/fail', '/echo/text'])
        ok(await api(integrationTestPath(integration.id), json('POST', { method: 'GET', path, query: { q: 'x y' } })), 200);
    ok(await api(integrationTestPath(refusedIntegration.id), json('POST', { path: '/down' })), 200);
    ok(await api(integrationTestPath(headerIntegration.id), json('POST', { method: 'POST', path: '/echo', body: { a: 1 } })), 200);

    // Rules with recorded executions: a table executed and tested, and a rule that a workflow feeds the echo to.
    await publishRule(api, parcelFee('scan-fee'));
    for (const weightKg of [1, 3]) ok(await api('/dev/v1/rule/scan-fee/execute', json('POST', { params: { weightKg } })), 200);
    ok(await api('/dev/v1/rule/scan-fee/test', json('POST', { params: { weightKg: 3 } })), 200);
    await publishRule(api, {
      id: 'echo-judge',
      name: 'Echo judge',
      type: 'simpleRule',
      definition: {
        parameters: [{ name: 'payload', type: 'context' }],
        when: 'true',
        then: { seen: 'payload.key', target: 'payload.echo.target' },
        settings: { recordExecutions: true },
      },
    });

    // Workflows: every placement, the echo into a rule, redirects, a provider failure accepted, each tested, step-tested, executed both ways.
    const flows = workflowsClient(api);
    const all = workflowRecord('scan-all', {
      start: 'fee',
      steps: [
        { id: 'fee', kind: 'rule', ruleId: 'scan-fee', inputs: { weightKg: '2' }, next: 'h' },
        { id: 'h', kind: 'apiRequest', request: { method: 'POST', integrationId: headerIntegration.id, path: '/echo', body: '{note: "hi"}' }, next: 'judge' },
        { id: 'judge', kind: 'rule', ruleId: 'echo-judge', inputs: { payload: 'h.body' }, next: 'q' },
        {
          id: 'q',
          kind: 'apiRequest',
          request: { method: 'GET', integrationId: queryIntegration.id, path: '/echo/redirect', query: { from: '"EUR"' } },
          next: 'away',
        },
        { id: 'away', kind: 'apiRequest', request: { method: 'GET', integrationId: queryIntegration.id, path: '/echo/away' }, next: 'u' },
        { id: 'u', kind: 'apiRequest', request: { method: 'GET', url: `${provider.origin}/echo?x=1` }, credentialId: url.id, next: 'f' },
        {
          id: 'f',
          kind: 'apiRequest',
          request: { method: 'GET', integrationId: queryIntegration.id, path: '/echo/fail' },
          acceptStatuses: [500],
          retries: 0,
          next: 'done',
        },
        { id: 'done', kind: 'end', output: { fee: 'fee.fee', h: 'h', judged: 'judge', q: 'q', away: 'away.body', u: 'u', f: 'f' } },
      ],
      settings: { recordExecutions: true },
    });
    await flows.created(all);
    const draft = await flows.test('scan-all', { params: {} });
    expect((draft.body.data as RunView).status, JSON.stringify(draft.body)).toBe('succeeded');
    for (const step of ['h', 'q', 'away', 'u', 'f']) ok(await flows.testStep('scan-all', step, { context: {} }), 200);
    ok(await flows.publish('scan-all', {}), 201);
    expect(((await flows.execute('scan-all', { params: {} })).body.data as RunView).status).toBe('succeeded');
    const queued = await flows.execute('scan-all', { params: {}, async: true });
    ok(queued, 202);
    const tasks = [(queued.body.data as TaskAnswer).taskId];
    expect((await waitForTask(api, tasks[0]!)).taskState).toBe('completed');
    // Failing runs, recorded: the provider refuses the key; a provider that keeps failing; no answer at all.
    const failing = workflowRecord('scan-failing', {
      start: 'fail',
      steps: [
        { id: 'fail', kind: 'apiRequest', request: { method: 'GET', url: `${provider.origin}/echo/fail?y=2` }, credentialId: url.id, retries: 1, next: 'done' },
        { id: 'done', kind: 'end' },
      ],
      settings: { recordExecutions: true },
    });
    await flows.published(failing);
    expect(((await flows.execute('scan-failing', { params: {} })).body.data as RunView).status).toBe('failed');
    const failingTask = await flows.execute('scan-failing', { params: {}, async: true });
    ok(failingTask, 202);
    tasks.push((failingTask.body.data as TaskAnswer).taskId);
    await waitForTask(api, tasks[1]!);
    const denied = workflowRecord('scan-denied', {
      start: 'd',
      steps: [
        { id: 'd', kind: 'apiRequest', request: { method: 'GET', integrationId: queryIntegration.id, path: '/echo/denied' }, next: 'done' },
        { id: 'done', kind: 'end' },
      ],
      settings: { recordExecutions: true },
    });
    await flows.published(denied);
    expect(((await flows.execute('scan-denied', { params: {} })).body.data as RunView).status).toBe('failed');
    const text = workflowRecord('scan-text', {
      start: 't',
      steps: [
        { id: 't', kind: 'apiRequest', request: { method: 'GET', integrationId: headerIntegration.id, path: '/echo/text' }, next: 'done' },
        { id: 'done', kind: 'end' },
      ],
      settings: { recordExecutions: true },
    });
    await flows.published(text);
    expect(((await flows.execute('scan-text', { params: {} })).body.data as RunView).status).toBe('failed');
    const down = workflowRecord('scan-down', {
      start: 'd',
      steps: [
        { id: 'd', kind: 'apiRequest', request: { method: 'POST', integrationId: refusedIntegration.id, path: '/down' }, retries: 0, next: 'done' },
        { id: 'done', kind: 'end' },
      ],
      settings: { recordExecutions: true },
    });
    await flows.published(down);
    expect(((await flows.execute('scan-down', { params: {} })).body.data as RunView).status).toBe('failed');

    // The Git remote with its credential: a pull, a pull with the wrong value (refused by the host), the right one again; hosts that echo it.
    const pulls = pullClient(api, key);
    ok(await pulls.setRemote(repositories.repoUrl('rules.git'), git.id), 200);
    const first = await pulls.pullAndWait('main');
    expect(first, JSON.stringify(first)).toMatchObject({ taskState: 'completed' });
    ok(await api(credentialPath(git.id), json('PATCH', { value: values.gitWrong })), 200);
    const refusedPull = await pulls.pullAndWait('main');
    expect(refusedPull, JSON.stringify(refusedPull)).toMatchObject({ taskState: 'failed' });
    ok(await api(credentialPath(git.id), json('PATCH', { value: values.git })), 200);
    expect(await pulls.pullAndWait('main')).toMatchObject({ taskState: 'completed' });
    tasks.push(first.taskId, refusedPull.taskId);
    for (const name of ['loop', 'garbage', 'denied']) {
      ok(await pulls.setRemote(`${provider.origin}/git/${name}.git`, git.id), 200);
      const echoed = await pulls.pullAndWait('main');
      expect(echoed, JSON.stringify(echoed)).toMatchObject({ taskState: 'failed' });
      tasks.push(echoed.taskId);
    }

    // Revocation: never sent again.
    ok(await api(credentialPath(revoked.id), { method: 'DELETE' }), 200);
    ok(await api(credentialTestPath(revoked.id), json('POST', { url: `${provider.origin}/echo` })), 409);

    // Read back everything kept: credentials, integrations, the remote, every execution and task.
    ok(await api(credentialsPath, { query: { pageSize: 100 } }), 200);
    for (const id of [header.id, query.id, url.id, git.id, revoked.id]) ok(await api(credentialPath(id)), 200);
    ok(await api(integrationsPath, { query: { pageSize: 100 } }), 200);
    for (const integration of [headerIntegration, queryIntegration, refusedIntegration]) ok(await api(integrationPath(integration.id)), 200);
    ok(await pulls.getRemote(), 200);
    const recorded: { where: string; text: string }[] = [];
    for (const [type, id] of [
      ['rule', 'scan-fee'],
      ['rule', 'echo-judge'],
      ['workflow', 'scan-all'],
      ['workflow', 'scan-failing'],
      ['workflow', 'scan-denied'],
      ['workflow', 'scan-text'],
      ['workflow', 'scan-down'],
    ] as const) {
      const listed = await api<unknown[]>(`/dev/v1/${type}/${id}/executions`, { query: { pageSize: 100 } });
      ok(listed, 200);
      recorded.push({ where: `the recorded executions of ${type} ${id}`, text: JSON.stringify(listed.body.data) });
    }
    expect(JSON.parse(recorded[2]!.text)).toHaveLength(2);
    for (const taskId of tasks) {
      const task = await api(`/dev/v1/tasks/${taskId}`);
      ok(task, 200);
      recorded.push({ where: `the task ${taskId}`, text: JSON.stringify(task.body.data) });
    }
    // People signed in: a write, an execute and a refusal with a good token; an expired one, one for another client, one in another workspace.
    const person = { sub: 'scan-person', email: 'scan@bank.example', groups: ['scanners'] };
    tokens.push(
      await issuer.token(audience, person),
      await issuer.token(audience, { ...person, exp: Math.floor(Date.now() / 1000) - 10 }),
      await issuer.token('another-client', person),
    );
    const asPerson = (token: string, path: string, options: RequestOptions = {}, workspace = 'secret-scan') =>
      api(path, { ...options, key: null, headers: { ...options.headers, authorization: `Bearer ${token}`, 'service-workspace': workspace } });
    ok(await asPerson(tokens[0]!, '/dev/v1/rule', json('POST', simpleRule('person-rule', 'Person rule'))), 201);
    expect((await asPerson(tokens[0]!, '/dev/v1/rule/scan-fee/execute', json('POST', { params: { weightKg: 2 } }))).status).toBeLessThan(500);
    expect((await asPerson(tokens[0]!, '/dev/v1/keys')).status).toBe(403);
    expect((await asPerson(tokens[1]!, '/dev/v1/rule')).status).toBe(401);
    expect((await asPerson(tokens[2]!, '/dev/v1/rule')).status).toBe(401);
    expect((await asPerson(tokens[0]!, '/dev/v1/rule', {}, 'another-workspace')).status).toBe(403);
    await t.runtime.queue.idle();

    // The searches below look for something real: the provider and the Git host did receive the values.
    const wire = provider.requests.map((request) => `${request.target}\n${request.rawHeaders.join('\n')}`).join('\n');
    for (const value of [values.header, values.headerRotated]) expect(wire).toContain(value);
    for (const value of [values.query, values.queryRotated, values.url])
      expect(wire).toContain(new URL(`http://x/?${encodeURIComponent(value)}`).search.slice(1));
    expect(repositories.seenHeaders.some((header) => header.includes(values.git))).toBe(true);
    expect(repositories.seenHeaders.some((header) => header.includes(values.gitWrong))).toBe(true);
    // Everything is logged: the functions' logger is at DEBUG.
    expect(logger.getLevelName()).toBe('DEBUG');
    const logs = output.join('');
    expect(logs).toMatch(/"level":"INFO".*"message":"outbound request"/);
    expect(logs).toMatch(/"message":"outbound request failed"/);
    expect(answers.map((answer) => answer.text).join('\n')).toContain('[REDACTED]');

    const scanner = secretScanner(secretList(key));
    const items = await tableItems();
    // The audit log is among the items scanned: every credential write made here left a record there.
    const auditRecords = items.filter((item) => item.where.startsWith('the table item AUDIT:') && !item.where.endsWith(' HEAD'));
    expect(auditRecords.filter((item) => /"operation":"(create|update)Credential"/.test(item.text)).length).toBeGreaterThanOrEqual(Object.keys(values).length);
    const leaks: Leak[] = [
      ...output.flatMap((line, i) => scanner.scan(line, `log line ${i}`)),
      ...answers.flatMap((answer) => scanner.scan(answer.text, answer.where)),
      ...recorded.flatMap((item) => scanner.scan(item.text, item.where)),
      ...items.flatMap((item) => scanner.scan(item.text, item.where)),
    ];
    print(
      `secret scan: ${requests} requests, ${answers.length} answers, ${output.length} log lines, ${recorded.length} executions lists and tasks, ` +
        `${secretList(key).length} secrets in ${scanner.size} forms, ${provider.requests.length} provider calls, ${Date.now() - started} ms\n`,
    );
    expect(describeLeaks(leaks)).toBe('');
  }, 50_000);
});
