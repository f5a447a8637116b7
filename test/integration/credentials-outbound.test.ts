/**
 * Testing a credential against a real provider on 127.0.0.1: where the key
 * goes on the wire, what the answer means, redirects that must not carry it,
 * rotation and revocation as the provider sees them, network failures, and
 * SSRF refused through the API (the local runtime allows private networks,
 * never link-local or metadata addresses).
 */
import type http from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
  type CredentialView,
} from '../helpers/credentials.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { closedPort, guardConnections, startProvider, type Provider, type SeenRequest } from '../outbound/servers.ts';

const t = useRuntime();
const { api, answers } = recordingApi(() => t.api);

type Route = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** A provider whose answer per path a test sets; 200 "ok" for any other path. */
async function routedProvider(host?: string) {
  const routes = new Map<string, Route>();
  const provider = await startProvider((request, response) => {
    const route = routes.get(new URL(request.url ?? '/', 'http://x').pathname);
    if (route) route(request, response);
    else response.end('ok');
  }, host);
  return Object.assign(provider, { routes });
}

const redirect =
  (status: number, location: () => string): Route =>
  (_request, response) => {
    response.writeHead(status, { location: location() });
    response.end();
  };

let provider: Provider & { routes: Map<string, Route> };
/** Another origin: the same loopback address, reached as "localhost" on another port. */
let elsewhere: Provider & { routes: Map<string, Route> };
let guard: ReturnType<typeof guardConnections>;

const secrets = new Set<string>();

beforeAll(async () => {
  [provider, elsewhere] = await Promise.all([routedProvider(), routedProvider()]);
  guard = guardConnections();
});
afterAll(async () => {
  guard?.restore();
  await Promise.all([provider?.close(), elsewhere?.close()]);
});
beforeEach(() => {
  provider.requests.length = 0;
  elsewhere.requests.length = 0;
  provider.routes.clear();
  elsewhere.routes.clear();
  guard.hosts.length = 0;
});
afterEach(() => {
  expectNoSecrets(answers.join('\n'), secrets, 'an API answer');
  answers.length = 0;
  // No connection ever went anywhere but loopback (the guard throws on others; this says where one was asked to go).
  expect(offLoopback()).toEqual([]);
});

/** The hosts of socket connects (this process: test, runtime, outbound client) that were not loopback. */
const offLoopback = () => guard.hosts.filter((host) => !['127.0.0.1', '::1', 'localhost'].includes(host));

const elsewhereUrl = (path: string) => `http://localhost:${elsewhere.port}${path}`;

let created = 0;
async function credential(value: string, extra: Record<string, unknown> = {}): Promise<CredentialView> {
  secrets.add(value);
  return expectCredential(await api(credentialsPath, json('POST', credentialBody(`outbound ${++created}`, value, extra))), 201);
}

async function testCall(id: string, request: Record<string, unknown>): Promise<CredentialTestResult> {
  const response = await api<CredentialTestResult>(credentialTestPath(id), json('POST', request));
  expectSuccess(response);
  const result = response.body.data;
  expect(Object.keys(result).sort()).toEqual(
    result.failure === undefined ? ['durationMs', 'message', 'ok', 'status'] : ['durationMs', 'failure', 'message', 'ok', 'status'],
  );
  expect(Number.isInteger(result.durationMs) && result.durationMs >= 0).toBe(true);
  expect(result.ok).toBe(result.status >= 200 && result.status < 300);
  return result;
}

/** Every place a request could carry a secret: target, headers, body. */
const wire = (seen: SeenRequest) => `${seen.method} ${seen.target}\n${seen.rawHeaders.join('\n')}\n\n${seen.body}`;
const headerOf = (seen: SeenRequest, name: string) => {
  const at = seen.rawHeaders.findIndex((header, i) => i % 2 === 0 && header.toLowerCase() === name.toLowerCase());
  return at < 0 ? undefined : { name: seen.rawHeaders[at], value: seen.rawHeaders[at + 1] };
};

describe('placing the key', () => {
  it('sends a header credential as "<Key>: <value>", with the caller\'s method, headers and body', async () => {
    const value = 'sk_live_HEADER-51b7c2e9a0';
    const view = await credential(value);
    const result = await testCall(view.id, {
      url: `${provider.origin}/v1/me?a=b%20c&x=1+2`,
      method: 'POST',
      headers: { 'X-Trace': 'trace-1', 'Content-Type': 'application/json' },
      body: { hello: 'world' },
    });
    expect(result).toEqual({ status: 200, ok: true, durationMs: expect.any(Number), message: 'the provider accepted the request' });

    expect(provider.requests).toHaveLength(1);
    const [seen] = provider.requests as [SeenRequest];
    expect(seen.method).toBe('POST');
    expect(seen.target).toBe('/v1/me?a=b%20c&x=1+2');
    expect(headerOf(seen, 'x-api-key')).toEqual({ name: 'X-Api-Key', value });
    expect(headerOf(seen, 'x-trace')?.value).toBe('trace-1');
    expect(seen.body).toBe('{"hello":"world"}');
    expect(wire(seen).split(value)).toHaveLength(2); // the value is on the wire exactly once
  });

  it('sends a string body as it is, and GET by default', async () => {
    const view = await credential('sk-HEADER-GET-0c1d2e3f');
    await testCall(view.id, { url: `${provider.origin}/plain` });
    await testCall(view.id, { url: `${provider.origin}/text`, method: 'PUT', body: 'raw text' });
    expect(provider.requests.map((r) => [r.method, r.target, r.body])).toEqual([
      ['GET', '/plain', ''],
      ['PUT', '/text', 'raw text'],
    ]);
  });

  it('appends a query credential as "?<Key>=<value>", leaving the other parameters byte for byte', async () => {
    const value = 'q/val+ue=42~Zx-QUERY';
    const view = await credential(value, { key: 'api_key', placement: 'query' });
    await testCall(view.id, { url: `${provider.origin}/v1/me?a=b%20c&x=1+2` });
    await testCall(view.id, { url: `${provider.origin}/v1/me` });
    await testCall(view.id, { url: `${provider.origin}/v1/me?empty=&flag&tilde=~x&pct=%7e#fragment` });
    const encoded = 'q%2Fval%2Bue%3D42~Zx-QUERY';
    expect(provider.requests.map((r) => r.target)).toEqual([
      `/v1/me?a=b%20c&x=1+2&api_key=${encoded}`,
      `/v1/me?api_key=${encoded}`,
      `/v1/me?empty=&flag&tilde=~x&pct=%7e&api_key=${encoded}`,
    ]);
    for (const seen of provider.requests) {
      expect(new URL(seen.target, 'http://x').searchParams.get('api_key')).toBe(value);
      expect(seen.rawHeaders.join('\n')).not.toContain(value);
      expect(seen.rawHeaders.join('\n')).not.toContain(encoded);
    }
  });

  it('encodes a query key name that needs it', async () => {
    const view = await credential('sk-QUERY-KEYNAME-77', { key: 'api key', placement: 'query' });
    await testCall(view.id, { url: `${provider.origin}/k?a=1` });
    expect(provider.requests[0]!.target).toBe('/k?a=1&api%20key=sk-QUERY-KEYNAME-77');
  });

  it('refuses a URL that already has the query parameter, on field url, and sends nothing', async () => {
    const view = await credential('sk-QUERY-DUPLICATE-88', { key: 'api_key', placement: 'query' });
    expectInvalid(await api(credentialTestPath(view.id), json('POST', { url: `${provider.origin}/v1?api_key=mine` })), ['url']);
    expect(provider.requests).toEqual([]);
  });

  it.each([
    [200, true, 'the provider accepted the request'],
    [204, true, 'the provider accepted the request'],
    [401, false, 'the key is wrong or revoked'],
    [403, false, 'the key is valid but lacks the permission'],
    [404, false, 'the provider has nothing at this URL; check the URL'],
    [429, false, 'the provider is limiting the rate of calls; try again later'],
    [500, false, 'the provider failed to handle the request; try again later'],
  ])('explains a provider answer of %i', async (status, ok, message) => {
    const value = `sk-STATUS-${status}-abcd`;
    const view = await credential(value);
    provider.routes.set('/answer', (_request, response) => {
      response.statusCode = status;
      response.end(status === 204 ? undefined : `{"error":"status ${status}"}`);
    });
    expect(await testCall(view.id, { url: `${provider.origin}/answer` })).toEqual({ status, ok, durationMs: expect.any(Number), message });
    expect(headerOf(provider.requests[0]!, 'X-Api-Key')?.value).toBe(value);
  });

  it('refuses a caller header that is also the key with 400 on field headers, sending nothing', async () => {
    const view = await credential('sk-CONFLICT-1122');
    const issues = expectInvalid(
      await api(credentialTestPath(view.id), json('POST', { url: `${provider.origin}/c`, headers: { 'x-api-key': 'caller-supplied' } })),
      ['headers'],
    );
    expect(issues[0]!.message).toMatch(/also the credential's Key/);
    expect(provider.requests).toEqual([]);
  });

  it.each(['Host', 'Content-Length', 'Transfer-Encoding', 'Connection'])(
    'never sends a header credential named %s (refused when created, or when tested)',
    async (key) => {
      const value = `sk-RESERVED-${key}-3344`;
      secrets.add(value);
      const made = await api<CredentialView>(credentialsPath, json('POST', credentialBody(`reserved ${key}`, value, { key })));
      if (made.status === 400) expectInvalid(made, ['key']);
      else {
        // What the code does today: the name passes the create's token check, and the outbound client refuses it.
        const view = expectCredential(made, 201);
        expectFailure(await api(credentialTestPath(view.id), json('POST', { url: `${provider.origin}/reserved` })), 400, 'invalid_request');
      }
      expect(provider.requests).toEqual([]);
    },
  );
});

describe('redirects', () => {
  it('does not carry a header credential to another host', async () => {
    const value = 'sk-REDIRECT-HEADER-3f4a';
    const view = await credential(value);
    provider.routes.set(
      '/away',
      redirect(302, () => elsewhereUrl('/landing?z=1')),
    );
    elsewhere.routes.set('/landing', (_request, response) => response.end('landed'));
    expect(await testCall(view.id, { url: `${provider.origin}/away`, headers: { 'X-Trace': 'kept' } })).toMatchObject({ status: 200, ok: true });

    expect(headerOf(provider.requests[0]!, 'X-Api-Key')?.value).toBe(value);
    expect(elsewhere.requests).toHaveLength(1);
    const [landed] = elsewhere.requests as [SeenRequest];
    expect(landed.target).toBe('/landing?z=1');
    expect(headerOf(landed, 'X-Api-Key')).toBeUndefined();
    expect(headerOf(landed, 'host')?.value).toBe(`localhost:${elsewhere.port}`);
    expect(headerOf(landed, 'X-Trace')?.value).toBe('kept');
    expectNoSecrets(wire(landed), [value], 'the request to the other host');
  });

  it('does not carry an Authorization credential to another host', async () => {
    const value = 'Bearer eyJ-REDIRECT-AUTH-5b6c';
    const view = await credential(value, { key: 'Authorization' });
    provider.routes.set(
      '/away',
      redirect(307, () => elsewhereUrl('/landing')),
    );
    await testCall(view.id, { url: `${provider.origin}/away`, method: 'POST', body: { a: 1 } });
    expect(headerOf(provider.requests[0]!, 'authorization')?.value).toBe(value);
    expect(elsewhere.requests.map((r) => [r.method, r.body])).toEqual([['POST', '{"a":1}']]);
    expectNoSecrets(wire(elsewhere.requests[0]!), [value], 'the request to the other host');
  });

  it('does not carry a query credential to another host, even when the Location echoes it', async () => {
    const value = 'sk-REDIRECT-QUERY-7d8e';
    const view = await credential(value, { key: 'api_key', placement: 'query' });
    provider.routes.set('/away', (request, response) => {
      // A provider that copies the incoming query (key included) into its redirect.
      response.writeHead(302, { location: elsewhereUrl(`/landing${new URL(request.url!, 'http://x').search}&z=1`) });
      response.end();
    });
    await testCall(view.id, { url: `${provider.origin}/away?a=b%20c` });
    expect(provider.requests[0]!.target).toBe(`/away?a=b%20c&api_key=${value}`);
    expect(elsewhere.requests.map((r) => r.target)).toEqual(['/landing?a=b%20c&z=1']);
    expectNoSecrets(wire(elsewhere.requests[0]!), [value], 'the request to the other host');
  });

  it('keeps the credential on a redirect within the same origin', async () => {
    const header = await credential('sk-SAME-ORIGIN-H-9f0a');
    provider.routes.set(
      '/moved',
      redirect(301, () => '/landing'),
    );
    await testCall(header.id, { url: `${provider.origin}/moved` });
    expect(provider.requests.map((r) => [r.target, headerOf(r, 'X-Api-Key')?.value])).toEqual([
      ['/moved', 'sk-SAME-ORIGIN-H-9f0a'],
      ['/landing', 'sk-SAME-ORIGIN-H-9f0a'],
    ]);

    provider.requests.length = 0;
    const query = await credential('sk-SAME-ORIGIN-Q-1b2c', { key: 'token', placement: 'query' });
    provider.routes.set(
      '/moved',
      redirect(302, () => '/landing?z=1'),
    );
    await testCall(query.id, { url: `${provider.origin}/moved` });
    expect(provider.requests.map((r) => r.target)).toEqual(['/moved?token=sk-SAME-ORIGIN-Q-1b2c', '/landing?z=1&token=sk-SAME-ORIGIN-Q-1b2c']);
  });

  it('does not put the credential back when a redirect returns to the first origin', async () => {
    const value = 'sk-BOUNCE-3d4e';
    const view = await credential(value);
    provider.routes.set(
      '/out',
      redirect(302, () => elsewhereUrl('/back')),
    );
    elsewhere.routes.set(
      '/back',
      redirect(302, () => `${provider.origin}/home`),
    );
    expect(await testCall(view.id, { url: `${provider.origin}/out` })).toMatchObject({ status: 200, ok: true });
    expect(provider.requests.map((r) => [r.target, headerOf(r, 'X-Api-Key')?.value])).toEqual([
      ['/out', value],
      ['/home', undefined],
    ]);
    expect(headerOf(elsewhere.requests[0]!, 'X-Api-Key')).toBeUndefined();
  });

  it('gives up on a redirect loop: ok false, status 0, failure too_many_redirects', async () => {
    const view = await credential('sk-LOOP-5f6a', { key: 'k', placement: 'query' });
    provider.routes.set(
      '/loop',
      redirect(302, () => '/loop'),
    );
    const result = await testCall(view.id, { url: `${provider.origin}/loop` });
    expect(result).toMatchObject({ status: 0, ok: false, failure: 'too_many_redirects' });
    expect(result.message).toContain('[REDACTED]');
    expect(provider.requests).toHaveLength(6);
  });
});

describe('rotation, key and placement changes', () => {
  it('sends the rotated value from the next test on, under the current key name and placement', async () => {
    const [v1, v2] = ['sk-ROTATE-ONE-7b8c', 'sk-ROTATE-TWO-9d0e'];
    const view = await credential(v1);
    await testCall(view.id, { url: `${provider.origin}/r` });
    secrets.add(v2);
    expectCredential(await api(credentialPath(view.id), json('PATCH', { value: v2 })), 200, { id: view.id });
    await testCall(view.id, { url: `${provider.origin}/r` });
    expectCredential(await api(credentialPath(view.id), json('PATCH', { key: 'X-Renamed-Key', name: 'rotated and renamed' })), 200, { id: view.id });
    await testCall(view.id, { url: `${provider.origin}/r` });
    expectCredential(await api(credentialPath(view.id), json('PATCH', { placement: 'query', key: 'token' })), 200, { id: view.id });
    await testCall(view.id, { url: `${provider.origin}/r?a=1` });

    const [first, second, third, fourth] = provider.requests as [SeenRequest, SeenRequest, SeenRequest, SeenRequest];
    expect(headerOf(first, 'X-Api-Key')?.value).toBe(v1);
    expect(headerOf(second, 'X-Api-Key')?.value).toBe(v2);
    expect(headerOf(third, 'X-Api-Key')).toBeUndefined();
    expect(headerOf(third, 'X-Renamed-Key')).toEqual({ name: 'X-Renamed-Key', value: v2 });
    expect(fourth.target).toBe(`/r?a=1&token=${v2}`);
    expect(headerOf(fourth, 'X-Renamed-Key')).toBeUndefined();
    for (const seen of [second, third, fourth]) expect(wire(seen)).not.toContain(v1);
  });
});

describe('revocation', () => {
  it('never sends a revoked credential: 409 credential_revoked and nothing reaches the provider', async () => {
    const view = await credential('sk-REVOKED-1a2b3c');
    await testCall(view.id, { url: `${provider.origin}/before` });
    expect(provider.requests).toHaveLength(1);
    const connections = provider.connections;

    expectCredential(await api(credentialPath(view.id), { method: 'DELETE' }), 200, { status: 'revoked' });
    const response = await api(credentialTestPath(view.id), json('POST', { url: `${provider.origin}/after` }));
    expectFailure(response, 409, 'credential_revoked');
    expectCredential(await api(credentialPath(view.id), { method: 'DELETE' }), 200, { status: 'revoked' });
    expectFailure(await api(credentialTestPath(view.id), json('POST', { url: `${provider.origin}/after` })), 409, 'credential_revoked');

    expect(provider.requests.map((r) => r.target)).toEqual(['/before']);
    expect(provider.connections).toBe(connections);
  });
});

describe('network failures', () => {
  it('reports a refused connection as ok false, status 0, failure refused', async () => {
    const view = await credential('sk-REFUSED-4c5d', { key: 'api_key', placement: 'query' });
    const port = await closedPort();
    const result = await testCall(view.id, { url: `http://127.0.0.1:${port}/x?a=1` });
    expect(result).toMatchObject({ status: 0, ok: false, failure: 'refused' });
    expect(result.message).toContain(`http://127.0.0.1:${port}/x?a=1&api_key=[REDACTED]`);
    expect(result.message).toMatch(/refused/);
  });

  it('reports a connection dropped mid-answer as failure network', async () => {
    const view = await credential('sk-DROPPED-6e7f');
    provider.routes.set('/drop', (request) => request.socket.destroy());
    expect(await testCall(view.id, { url: `${provider.origin}/drop` })).toMatchObject({ status: 0, ok: false, failure: 'network' });
  });

  it('reports an answer over 1 MiB as failure too_large', async () => {
    const view = await credential('sk-TOO-LARGE-8a9b');
    provider.routes.set('/big', (_request, response) => response.end(Buffer.alloc(1024 * 1024 + 1, 'a')));
    expect(await testCall(view.id, { url: `${provider.origin}/big` })).toMatchObject({ status: 0, ok: false, failure: 'too_large' });
  });
});

describe('SSRF through the API', () => {
  it.each([
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
    ['the metadata address with a port', 'http://169.254.169.254:80/'],
    ['the ECS metadata address', 'http://169.254.170.2/v2/credentials'],
    ['the metadata address in hex', 'http://0xa9fea9fe/'],
    ['the metadata address as one decimal number', 'http://2852039166/'],
    ['the metadata address IPv4-mapped in IPv6', 'http://[::ffff:169.254.169.254]/'],
    ['the EC2 IPv6 metadata address', 'http://[fd00:ec2::254]/'],
    ['an IPv6 link-local address', 'http://[fe80::1]/'],
  ])('refuses %s with 400 invalid_request on field url, though private networks are allowed here', async (_, url) => {
    // Bound to the host under test, so that what refuses it is the address policy, not the credential's hosts.
    const view = await credential(`sk-SSRF-${url.length}-0f1e`, { allowedHosts: [new URL(url).host] });
    const issues = expectInvalid(await api(credentialTestPath(view.id), json('POST', { url })), ['url']);
    expect(issues[0]!.message).toMatch(/metadata|link-local/);
    expect(offLoopback()).toEqual([]); // no connection was even attempted
  });

  it('refuses a loopback provider that redirects to the metadata address, without calling it', async () => {
    const view = await credential('sk-SSRF-REDIRECT-2d3c');
    provider.routes.set(
      '/to-metadata',
      redirect(302, () => 'http://169.254.169.254/latest/meta-data/'),
    );
    const issues = expectInvalid(await api(credentialTestPath(view.id), json('POST', { url: `${provider.origin}/to-metadata` })), ['url']);
    expect(issues[0]!.message).toMatch(/169\.254\.169\.254.*metadata|metadata.*169\.254\.169\.254/);
    expect(provider.requests.map((r) => r.target)).toEqual(['/to-metadata']);
    expect(offLoopback()).toEqual([]);
  });

  it('refuses a redirect to the IPv4-mapped metadata address too', async () => {
    const view = await credential('sk-SSRF-REDIRECT-V6-4b5a', { key: 'k', placement: 'query' });
    provider.routes.set(
      '/to-metadata',
      redirect(307, () => 'http://[::ffff:a9fe:a9fe]/latest/'),
    );
    expectInvalid(await api(credentialTestPath(view.id), json('POST', { url: `${provider.origin}/to-metadata` })), ['url']);
    expect(provider.requests).toHaveLength(1);
    expect(offLoopback()).toEqual([]);
  });

  it.each([
    ['text that is not a URL', 'not a url'],
    ['a relative URL', '/v1/me'],
    ['an ftp URL', 'ftp://127.0.0.1/file'],
    ['a file URL', 'file:///etc/passwd'],
    ['a URL with a user and password', 'http://user:pass@127.0.0.1:9/'],
  ])('refuses %s with 400 invalid_request on field url', async (_, url) => {
    const view = await credential(`sk-BAD-URL-${url.length}-6978`);
    expectInvalid(await api(credentialTestPath(view.id), json('POST', { url })), ['url']);
    expect(offLoopback()).toEqual([]);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const view = await credential('sk-BAD-REDIRECT-8a7b');
    provider.routes.set(
      '/to-file',
      redirect(302, () => 'file:///etc/passwd'),
    );
    expectInvalid(await api(credentialTestPath(view.id), json('POST', { url: `${provider.origin}/to-file` })), ['url']);
  });
});
