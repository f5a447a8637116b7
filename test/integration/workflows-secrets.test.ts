/**
 * No credential value in anything a workflow run leaves: with the function
 * logs on (POWERTOOLS_LOG_LEVEL=INFO, set before the runtime and its logger
 * load), everything the process writes during the scenarios is captured, and
 * so is every API answer (runs, step tests, recorded executions, task
 * results). Providers on loopback echo what they received back, in their
 * bodies, headers, redirects and errors. Each value is searched for as
 * typed, URL-encoded (as JavaScript, forms and URLSearchParams encode it),
 * base64 and JSON-escaped (once, twice, and with \u escapes). The values hold
 * characters that encode differently: "%", space, "+", '"', "\", non-ASCII.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { credentialPath, json, recordingApi } from '../helpers/credentials.ts';
import { expectSuccess } from '../helpers/envelope.ts';
import { captureOutput } from '../helpers/output-capture.ts';
import { useRuntime } from '../helpers/runtime.ts';
import {
  callFlow,
  createCredential,
  createIntegration,
  expectRun,
  waitForTask,
  workflowRecord,
  workflowsClient,
  type RunView,
  type TaskAnswer,
  type WorkflowsClient,
} from '../helpers/workflows.ts';
import { closedPort, startProvider, type Provider } from '../outbound/servers.ts';

vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
});

/** Everything written, captured from before the runtime starts. */
const output = captureOutput();

const t = useRuntime();
const { api, answers } = recordingApi(() => t.api);

const values = {
  /** A header value: visible Latin-1, so no "€". */
  header: 'sk_hdr%20 "q\\ +é-9f8e7d',
  rotated: 'sk_rot%25 +ü"\\-1a2b3c4d',
  query: 'sk_qry%2F val+ue/€é="x"\\y~z',
  url: 'sk_url +%41 ñ-5e6f7a8b',
};
const secrets = Object.values(values);

/** JSON-escaped as JSON.stringify does, and with every non-ASCII character as \uXXXX (as Python's json does). */
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
const asciiEscaped = (text: string) => jsonEscaped(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Every form a secret could leak in. */
function leakForms(secret: string): string[] {
  const encoded = [encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+'), new URLSearchParams({ k: secret }).toString().slice(2)];
  const base = [secret, ...encoded, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url')];
  return [
    ...new Set([...base, ...base.map(jsonEscaped), ...base.map((f) => jsonEscaped(jsonEscaped(f))), asciiEscaped(secret), jsonEscaped(asciiEscaped(secret))]),
  ];
}

/** Where each secret shows in `text`, in which form. */
const leaks = (text: string) =>
  secrets.flatMap((secret) =>
    leakForms(secret)
      .filter((form) => text.includes(form))
      .map((form) => `${JSON.stringify(secret)} as ${JSON.stringify(form)}`),
  );

let provider: Provider;
let workflows: WorkflowsClient;
const ids = { header: '', query: '', url: '', headerIntegration: '', queryIntegration: '', refusedIntegration: '' };

/** What the provider received, as it echoes it. */
function echoOf(target: string, rawHeaders: string[], body: string) {
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) headers[rawHeaders[i]!.toLowerCase()] = rawHeaders[i + 1]!;
  const url = new URL(target, 'http://x');
  return { target, headers, query: Object.fromEntries(url.searchParams), body, url };
}

beforeAll(async () => {
  provider = await startProvider((_request, response, seen) => {
    const { url, ...echo } = echoOf(seen.target, seen.rawHeaders, seen.body);
    const key = echo.headers['x-api-key'] ?? url.searchParams.get('api_key') ?? '';
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    switch (url.pathname) {
      case '/echo':
        // In the body as JSON, and in headers (a header carries Latin-1 only: a query key goes %-encoded).
        return send(200, { echo, key }, { 'x-echo-key': /^[\x20-\xff]*$/.test(key) ? key : encodeURIComponent(key), 'x-echo-target': seen.target });
      case '/echo/denied':
        return send(401, { error: 'invalid key', echo, key });
      case '/echo/text':
        response.writeHead(200, { 'content-type': `text/plain; k=${encodeURIComponent(key)}; raw=${/^[\x20-\xff]*$/.test(key) ? key : ''}` });
        return response.end(`your key is ${key}`);
      case '/echo/redirect':
        // Back to the same origin, with the key under another name: the credential is placed again, the echo is not its parameter.
        response.writeHead(302, { location: `/echo?leak=${encodeURIComponent(key)}` });
        return response.end();
      case '/echo/links':
        // Paging links as a provider builds them, with the URLSearchParams encoder.
        return send(200, { items: [], links: { self: `http://provider.example${url.pathname}?${new URLSearchParams(url.searchParams).toString()}` } });
      case '/echo/nested':
        // A JSON document held in a string, as debug fields and error messages often carry one.
        return send(200, { debug: JSON.stringify(echo) });
      case '/hang':
        return; // never answers; closing the provider ends the connection
      default:
        return send(404, { error: 'not_found' });
    }
  });
  workflows = workflowsClient(api);
  ids.header = (await createCredential(api, 'secrets header', values.header)).id;
  ids.query = (await createCredential(api, 'secrets query', values.query, { key: 'api_key', placement: 'query' })).id;
  ids.url = (await createCredential(api, 'secrets url', values.url, { key: 'api_key', placement: 'query' })).id;
  ids.headerIntegration = (await createIntegration(api, 'secrets header', provider.origin, { credentialId: ids.header })).id;
  ids.queryIntegration = (await createIntegration(api, 'secrets query', provider.origin, { credentialId: ids.query })).id;
  ids.refusedIntegration = (await createIntegration(api, 'secrets refused', `http://127.0.0.1:${await closedPort()}`, { credentialId: ids.query })).id;
});
afterAll(async () => {
  await provider?.close();
});

/** Every provider call a run makes here: echoes in the body, headers, a redirect, on both placements and a url step. */
const echoAll = (id: string) =>
  workflowRecord(id, {
    start: 'h',
    steps: [
      { id: 'h', kind: 'apiRequest', request: { method: 'POST', integrationId: ids.headerIntegration, path: '/echo', body: '{note: "hi"}' }, next: 'q' },
      { id: 'q', kind: 'apiRequest', request: { method: 'GET', integrationId: ids.queryIntegration, path: '/echo', query: { from: '"EUR"' } }, next: 'hr' },
      { id: 'hr', kind: 'apiRequest', request: { method: 'GET', integrationId: ids.headerIntegration, path: '/echo/redirect' }, next: 'qr' },
      { id: 'qr', kind: 'apiRequest', request: { method: 'GET', integrationId: ids.queryIntegration, path: '/echo/redirect' }, next: 'u' },
      { id: 'u', kind: 'apiRequest', request: { method: 'GET', url: `${provider.origin}/echo?x=1` }, credentialId: ids.url, next: 'done' },
      { id: 'done', kind: 'end', output: { h: 'h', q: 'q', hr: 'hr.body', qr: 'qr.body', u: 'u.body' } },
    ],
    settings: { recordExecutions: true },
  });

let made = 0;
/** Tests a draft of `callFlow` with this step: the run. */
async function run(step: Record<string, unknown>): Promise<RunView> {
  const id = `secret-flow-${++made}`;
  await workflows.created(callFlow(id, step, { settings: { recordExecutions: true } }));
  return expectRun(await workflows.test(id, { params: {} }));
}

describe('no secret in any answer or log line', () => {
  it('runs, step tests, recorded executions, task results, failures, rotation and revocation', async () => {
    // Succeeding runs: the draft tested, the version executed (recorded) and run asynchronously (kept in the task), one step tried.
    await workflows.created(echoAll('echo-all'));
    const tested = expectRun(await workflows.test('echo-all', { params: {} }));
    expect(tested.status, JSON.stringify(tested)).toBe('succeeded');
    expect(await workflows.publish('echo-all')).toMatchObject({ status: 201 });
    expect(expectRun(await workflows.execute('echo-all', { params: {} })).status).toBe('succeeded');
    const started = await workflows.execute('echo-all', { params: {}, async: true });
    expect(started.status).toBe(202);
    expect((await waitForTask(api, (started.body.data as TaskAnswer).taskId)).taskState).toBe('completed');
    for (const step of ['h', 'q', 'u']) expect((await workflows.testStep('echo-all', step, { context: {} })).body.data).toMatchObject({ status: 'succeeded' });

    // Failing runs: a 401 that echoes the key, bodies that are not JSON, a timeout and a refused connection with the key in the query.
    const failures = [
      await run({ request: { method: 'GET', integrationId: ids.headerIntegration, path: '/echo/denied' } }),
      await run({ request: { method: 'GET', integrationId: ids.queryIntegration, path: '/echo/denied' } }),
      await run({ request: { method: 'GET', integrationId: ids.headerIntegration, path: '/echo/text' } }),
      await run({ request: { method: 'GET', integrationId: ids.queryIntegration, path: '/echo/text' } }),
      await run({ request: { method: 'POST', integrationId: ids.queryIntegration, path: '/hang' }, timeoutMs: 200 }),
      await run({ request: { method: 'POST', integrationId: ids.refusedIntegration, path: '/down' } }),
      await run({ request: { method: 'POST', url: `${provider.origin}/hang?x=1` }, credentialId: ids.url, timeoutMs: 200 }),
    ];
    expect(failures.map((f) => f.status)).toEqual(Array(failures.length).fill('failed'));
    expect(failures[4]!.error!.message).toContain('api_key=[REDACTED]');
    expect(failures[5]!.error!.message).toContain('api_key=[REDACTED]');
    // A failed execution is recorded too.
    await workflows.published(
      callFlow(
        'denied-recorded',
        { request: { method: 'GET', integrationId: ids.queryIntegration, path: '/echo/denied' } },
        { settings: { recordExecutions: true } },
      ),
    );
    expect(expectRun(await workflows.execute('denied-recorded', { params: {} })).status).toBe('failed');

    // Rotation, then revocation.
    expectSuccess(await api(credentialPath(ids.header), json('PATCH', { value: values.rotated })));
    expect(expectRun(await workflows.execute('echo-all', { params: {} })).status).toBe('succeeded');
    expectSuccess(await api(credentialPath(ids.url), { method: 'DELETE' }));
    const revoked = expectRun(await workflows.execute('echo-all', { params: {} }));
    expect(revoked.error).toMatchObject({ stepId: 'u', message: expect.stringContaining(ids.url) });

    // Read back everything kept: executions and the task.
    for (const id of ['echo-all', 'denied-recorded']) {
      const recorded = await workflows.executions(id, { pageSize: 100 });
      expect([recorded.status, recorded.body.totalCount]).toEqual([200, id === 'echo-all' ? 4 : 1]);
    }

    // The provider did receive every value, so the searches below look for something real.
    const wire = provider.requests.map((r) => `${r.target}\n${r.rawHeaders.join('\n')}`).join('\n');
    for (const value of [values.header, values.rotated]) expect(wire).toContain(value);
    for (const value of [values.query, values.url]) expect(wire).toContain(encodeURIComponent(value));
    // And echoed them: the answers hold the echoes, scrubbed.
    const answered = answers.join('\n');
    expect(answered).toContain('[REDACTED]');
    expect(answered).toContain('"leak":"[REDACTED]"');

    const logs = output.join('');
    expect(logs).toMatch(/"message":"outbound request"/);
    expect(logs).toMatch(/"message":"outbound request failed"/);
    expect(logs).toContain('api_key=[REDACTED]');
    expect(leaks(answered)).toEqual([]);
    expect(leaks(logs)).toEqual([]);
  });
});

describe('echoes in forms the scrubber must also know', () => {
  it('a paging link the provider builds with URLSearchParams, holding the query key', async () => {
    answers.length = 0;
    const result = await run({ request: { method: 'GET', integrationId: ids.queryIntegration, path: '/echo/links', query: { page: '2' } } });
    expect(result.status).toBe('succeeded');
    expect(leaks(answers.join('\n'))).toEqual([]);
  });

  it('the received request echoed as a JSON document inside a string', async () => {
    answers.length = 0;
    const viaHeader = await run({ request: { method: 'GET', integrationId: ids.headerIntegration, path: '/echo/nested' } });
    const viaQuery = await run({ request: { method: 'GET', integrationId: ids.queryIntegration, path: '/echo/nested' } });
    expect([viaHeader.status, viaQuery.status]).toEqual(['succeeded', 'succeeded']);
    expect(leaks(answers.join('\n'))).toEqual([]);
  });
});
