/**
 * No secret in the logs: with the function logs on (POWERTOOLS_LOG_LEVEL=INFO,
 * set before the runtime and its logger load), everything the process writes
 * to stdout and stderr (and anything sent to console) during a full credential
 * lifecycle is captured and searched for every value, old and rotated, as
 * typed and encoded. Query placement must show up redacted instead.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  credentialBody,
  credentialPath,
  credentialsPath,
  credentialTestPath,
  expectCredential,
  expectInvalid,
  expectNoSecrets,
  json,
  recordingApi,
  type CredentialTestResult,
} from '../helpers/credentials.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { captureOutput } from '../helpers/output-capture.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { closedPort, startProvider, type Provider } from '../outbound/servers.ts';

vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  // As an operator might set it: the request events, which carry the values, must stay out of the logs all the same.
  process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';
});

/** Everything written, captured from before the runtime starts. */
const output = captureOutput();

const t = useRuntime();
const { api, answers } = recordingApi(() => t.api);

let provider: Provider;
let elsewhere: Provider;
beforeAll(async () => {
  elsewhere = await startProvider((_request, response) => response.end('landed'));
  provider = await startProvider((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/away') {
      // Echoes the whole query, key included, into the redirect, and once more under another name.
      const key = url.searchParams.get('api_key') ?? '';
      response.writeHead(302, { location: `http://localhost:${elsewhere.port}/landing${url.search}&echo=${encodeURIComponent(key)}` });
      response.end();
    } else if (url.pathname === '/denied') {
      response.statusCode = 401;
      response.end('{"error":"invalid key"}');
    } else response.end('ok');
  });
});
afterAll(async () => {
  await Promise.all([provider?.close(), elsewhere?.close()]);
});

describe('redaction', () => {
  it('writes no value, old or rotated, to any log or answer, and marks the query key [REDACTED]', async () => {
    const values = {
      header: 'sk_live_LOGGED-HEADER-9a8b7c6d',
      query: 'q/LOGGED+QUERY=5e4f~3a2b',
      rotated: 'sk_live_LOGGED-ROTATED-1c2d3e4f',
      rotatedQuery: 'q LOGGED ROTATED QUERY 6a7b',
      refused: 'sk_live_LOGGED-REFUSED-value-0000',
    };
    const secrets = Object.values(values);
    const test = async (id: string, url: string) => {
      const response = await api<CredentialTestResult>(credentialTestPath(id), json('POST', { url }));
      expectSuccess(response);
      return response.body.data;
    };

    // Create both placements, and a retry of one.
    const header = expectCredential(await api(credentialsPath, json('POST', credentialBody('logged header', values.header))), 201);
    const queryBody = credentialBody('logged query', values.query, { key: 'api_key', placement: 'query' });
    const query = expectCredential(await api(credentialsPath, json('POST', queryBody)), 201);
    expectCredential(await api(credentialsPath, json('POST', queryBody)), 200);
    expectFailure(await api(credentialsPath, json('POST', { ...queryBody, value: values.refused })), 409, 'credential_name_taken');
    expectInvalid(await api(credentialsPath, json('POST', credentialBody('logged invalid', `${values.refused}\r\n`))), ['value']);

    // Tests: header and query placement, a redirect to another host, a 401, a refused connection.
    expect(await test(header.id, `${provider.origin}/ok?a=1`)).toMatchObject({ status: 200, ok: true });
    expect(await test(query.id, `${provider.origin}/ok?a=b%20c`)).toMatchObject({ status: 200, ok: true });
    expect(await test(query.id, `${provider.origin}/away?a=1`)).toMatchObject({ status: 200, ok: true });
    expect(elsewhere.requests).toHaveLength(1);
    expect(await test(header.id, `${provider.origin}/denied`)).toMatchObject({ status: 401, ok: false, message: 'the key is wrong or revoked' });
    const port = await closedPort();
    const failed = await test(query.id, `http://127.0.0.1:${port}/down?a=1`);
    expect(failed).toMatchObject({ status: 0, ok: false, failure: 'refused' });
    expect(failed.message).toContain('api_key=[REDACTED]');
    expectInvalid(await api(credentialTestPath(query.id), json('POST', { url: `${provider.origin}/x?api_key=${encodeURIComponent(values.query)}` })), ['url']);

    // Rotate both, test again, then revoke.
    expectCredential(await api(credentialPath(header.id), json('PATCH', { value: values.rotated })), 200, { valueHint: '••••3e4f' });
    expectCredential(await api(credentialPath(query.id), json('PATCH', { value: values.rotatedQuery })), 200);
    expect(await test(header.id, `${provider.origin}/ok`)).toMatchObject({ status: 200 });
    expect(await test(query.id, `${provider.origin}/away`)).toMatchObject({ status: 200 });
    const failedAgain = await test(query.id, `http://127.0.0.1:${port}/down`);
    expect(failedAgain.message).toContain('api_key=[REDACTED]');
    for (const view of [header, query]) expectCredential(await api(credentialPath(view.id), { method: 'DELETE' }), 200, { status: 'revoked' });
    expectFailure(await api(credentialTestPath(query.id), json('POST', { url: `${provider.origin}/ok` })), 409, 'credential_revoked');
    // These two, and the demo provider's two (lib/local/seed.ts).
    expectSuccess(await api(credentialsPath), { pageNo: 1, pageSize: 10, totalCount: 4 });

    // The provider did get the values, so the search below is looking for something real.
    const wire = provider.requests.map((r) => `${r.target} ${r.rawHeaders.join(' ')}`).join('\n');
    expect(wire).toContain(values.header);
    expect(wire).toContain(values.rotated);
    expect(wire).toContain(encodeURIComponent(values.query));
    expect(wire).toContain(encodeURIComponent(values.rotatedQuery));

    const logs = output.join('');
    expect(logs).toMatch(/"message":"outbound request"/);
    expect(logs).toMatch(/"message":"outbound request failed"/);
    expect(logs).toMatch(/"message":"request"/);
    expect(logs).toContain('api_key=[REDACTED]');
    expect(logs).toContain('echo=[REDACTED]'); // the provider's echo under another name, scrubbed from the logged redirect target
    expectNoSecrets(logs, secrets, 'the process output');
    expectNoSecrets(answers.join('\n'), secrets, 'an API answer');
    expect(answers.join('\n')).toContain('[REDACTED]');
  });
});
