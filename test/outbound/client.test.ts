import type { LookupAddress } from 'node:dns';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createOutboundClient,
  describeProviderStatus,
  OutboundError,
  type LookupAll,
  type OutboundOptions,
  type OutboundRequest,
} from '../../lib/outbound/index.ts';
import { closedPort, guardConnections, hasIpv6Loopback, startProvider, startTlsProvider, type Provider, type SeenRequest } from './servers.ts';

/** Characters that must be %-encoded in a query, so placement and redaction are tested on the hard case. */
const SECRET = 'sk_live_S3cret/+=&?value';
const ENCODED_SECRET = encodeURIComponent(SECRET);
/** Where the providers listen (any port): the hosts of a credential that the tests of placement, redirects and redaction send. */
const loopback = ['127.0.0.1'];

interface LogLine {
  message: string;
  fields: Record<string, unknown>;
}

/** A client whose log lines are kept; loopback allowed and short timeouts unless told otherwise. */
function clientWithLog(options: OutboundOptions = {}) {
  const lines: LogLine[] = [];
  const client = createOutboundClient({
    allowPrivateNetworks: true,
    connectTimeoutMs: 1000,
    totalTimeoutMs: 3000,
    log: (message, fields) => lines.push({ message, fields }),
    ...options,
  });
  return { send: client.send, lines };
}

async function failureOf(call: Promise<unknown>): Promise<OutboundError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OutboundError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** An injected resolver from a fixed table; unknown names fail like getaddrinfo. Records the names asked for. */
function resolver(table: Record<string, string[]>): LookupAll & { asked: string[] } {
  const asked: string[] = [];
  const lookup: LookupAll = (hostname, _options, callback) => {
    asked.push(hostname);
    const addresses = table[hostname];
    setImmediate(() =>
      addresses
        ? callback(
            null,
            addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
          )
        : callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []),
    );
  };
  return Object.assign(lookup, { asked });
}

/**
 * The providers' behaviour, chosen by path:
 *   /status/N                 answers N
 *   /redirect?status=N&to=U   redirects to U
 *   /echo-redirect?to=U       redirects to U, echoing the received api_key as api_key and as token
 *   /loop                     redirects to itself
 *   /silent                   never answers
 *   /stall                    sends headers and a first chunk, then nothing
 *   /stream                   sends 1000-byte chunks until the client hangs up (bounded)
 *   /bytes?n=N[&declare]      sends N bytes, with Content-Length when `declare` is present
 *   anything else             200 "ok"
 */
function route(request: { url?: string }, response: ServerResponse, _seen: SeenRequest): void {
  const url = new URL(request.url ?? '/', 'http://provider');
  const param = (name: string) => url.searchParams.get(name) ?? '';
  if (url.pathname.startsWith('/status/')) {
    response.statusCode = Number(url.pathname.slice('/status/'.length));
    response.end();
  } else if (url.pathname === '/redirect') {
    response.writeHead(Number(param('status') || 302), { Location: param('to') }).end();
  } else if (url.pathname === '/echo-redirect') {
    const key = encodeURIComponent(param('api_key'));
    response.writeHead(302, { Location: `${param('to')}?keep=1&api_key=${key}&token=${key}` }).end();
  } else if (url.pathname === '/loop') {
    response.writeHead(302, { Location: '/loop' }).end();
  } else if (url.pathname === '/silent') {
    // never answers; the provider closes the connection at the end of the file
  } else if (url.pathname === '/stall') {
    response.writeHead(200, { 'Content-Type': 'text/plain' });
    response.write('first chunk');
  } else if (url.pathname === '/stream') {
    let sent = 0;
    const timer = setInterval(() => (++sent > 2000 ? (clearInterval(timer), response.end()) : response.write(Buffer.alloc(1000, 'x'))), 2);
    response.on('close', () => clearInterval(timer));
  } else if (url.pathname === '/bytes') {
    const body = Buffer.alloc(Number(param('n')), 'y');
    if (url.searchParams.has('declare')) response.setHeader('Content-Length', body.length);
    else response.setHeader('Transfer-Encoding', 'chunked');
    response.end(body);
  } else {
    response.end('ok');
  }
}

let provider: Provider;
let other: Provider; // same host, another port: another origin
let guard: ReturnType<typeof guardConnections>;

beforeAll(async () => {
  guard = guardConnections();
  provider = await startProvider(route);
  other = await startProvider(route);
});
afterAll(async () => {
  guard.restore();
  await Promise.all([provider.close(), other.close()]);
});
afterEach(() => {
  provider.requests.length = 0;
  other.requests.length = 0;
  vi.unstubAllEnvs();
});

describe('credential placement', () => {
  it('puts a header credential on the request exactly as configured, leaving the URL alone', async () => {
    const { send } = clientWithLog();
    const response = await send({
      url: `${provider.origin}/resource?a=b%20c&x=1+2`,
      credential: { key: 'X-Api-Key', value: SECRET, placement: 'header', allowedHosts: loopback },
    });
    expect(response.status).toBe(200);
    const [seen] = provider.requests;
    expect(seen?.target).toBe('/resource?a=b%20c&x=1+2');
    expect(seen?.rawHeaders).toContain('X-Api-Key'); // the name's spelling, not just its case-folded form
    expect(provider.header(0, 'X-Api-Key')).toBe(SECRET);
    expect(provider.header(0, 'User-Agent')).toBe('rules-service/1.0');
  });

  it('appends a query credential without re-encoding the other parameters', async () => {
    const { send } = clientWithLog();
    await send({ url: `${provider.origin}/resource?a=b%20c&x=1+2`, credential: { key: 'api_key', value: SECRET, placement: 'query', allowedHosts: loopback } });
    const [seen] = provider.requests;
    expect(seen?.target).toBe(`/resource?a=b%20c&x=1+2&api_key=${ENCODED_SECRET}`);
    expect(new URL(seen?.target ?? '', 'http://x').searchParams.get('api_key')).toBe(SECRET);
    expect(seen?.rawHeaders.join('\n')).not.toContain(SECRET);
  });

  it('starts the query when the URL has none', async () => {
    const { send } = clientWithLog();
    await send({ url: `${provider.origin}/resource`, credential: { key: 'api_key', value: 'k1', placement: 'query', allowedHosts: loopback } });
    expect(provider.requests[0]?.target).toBe('/resource?api_key=k1');
  });

  it('refuses a URL that already carries the credential parameter, without connecting', async () => {
    const { send } = clientWithLog();
    const before = provider.connections;
    const error = await failureOf(
      send({ url: `${provider.origin}/r?api_key=typed-in-url&a=1`, credential: { key: 'api_key', value: SECRET, placement: 'query', allowedHosts: loopback } }),
    );
    expect(error.failure).toBe('invalid_url');
    expect(error.message).toContain('api_key=[REDACTED]&a=1');
    expect(error.message).not.toContain('typed-in-url');
    expect(provider.connections).toBe(before);
  });

  it('refuses credentials and headers that cannot be sent as given', async () => {
    const { send } = clientWithLog();
    const cases: Array<Omit<OutboundRequest, 'url'>> = [
      { credential: { key: 'X-Api-Key', value: `${SECRET}\r\nX-Injected: 1`, placement: 'header' as const, allowedHosts: loopback } },
      { credential: { key: 'X-Api-Key', value: ` ${SECRET}`, placement: 'header' as const, allowedHosts: loopback } },
      { credential: { key: 'Bad Name', value: SECRET, placement: 'header' as const, allowedHosts: loopback } },
      { credential: { key: 'X-Api-Key', value: SECRET, placement: 'header' as const, allowedHosts: loopback }, headers: { 'x-api-key': 'other' } },
      { headers: { 'X-Trace': 'a\nb' } },
    ];
    for (const extra of cases) {
      const error = await failureOf(send({ url: `${provider.origin}/`, ...extra }));
      expect(error.failure).toBe('invalid_request');
      expect(error.message).not.toContain(SECRET);
    }
    expect(provider.requests).toHaveLength(0);
  });
});

describe('credentials bound to hosts', () => {
  const bound = (allowedHosts: string[]) => ({ key: 'X-Api-Key', value: SECRET, placement: 'header' as const, allowedHosts });

  it('sends the credential to a host its allowedHosts names, with or without the port', async () => {
    const { send } = clientWithLog();
    const host = new URL(provider.origin).host;
    expect((await send({ url: `${provider.origin}/ok`, credential: bound([host]) })).status).toBe(200);
    expect((await send({ url: `${provider.origin}/ok`, credential: bound(['127.0.0.1']) })).status).toBe(200);
    expect(provider.header(0, 'X-Api-Key')).toBe(SECRET);
  });

  it('refuses a host it does not name before connecting (another port of the same host too), saying where the key may go', async () => {
    const { send, lines } = clientWithLog();
    const before = other.connections;
    const error = await failureOf(send({ url: `${other.origin}/steal`, credential: bound([new URL(provider.origin).host]) }));
    expect(error.failure).toBe('host_not_allowed');
    expect(error.message).toContain(`may be sent only to ${new URL(provider.origin).host}`);
    expect(other.connections).toBe(before);
    expect(other.requests).toEqual([]);
    expect(JSON.stringify([lines, error.message])).not.toContain(SECRET);
  });

  it('refuses a credential bound to no host on every host, before connecting, saying which field to set', async () => {
    const { send } = clientWithLog();
    const before = provider.connections;
    const error = await failureOf(send({ url: `${provider.origin}/ok`, credential: bound([]) }));
    expect(error.failure).toBe('host_not_allowed');
    expect(error.message).toMatch(/may be sent to no host yet, so nothing was sent to 127\.0\.0\.1:\d+ .*Set its allowedHosts/);
    expect(provider.connections).toBe(before);
  });

  it('checks every hop that would carry the key: a same-origin redirect stays allowed, and a hop beyond the origin carries no key', async () => {
    const { send } = clientWithLog();
    const host = new URL(provider.origin).host;
    expect((await send({ url: `${provider.origin}/redirect?to=%2Fok`, credential: bound([host]) })).status).toBe(200);
    const response = await send({ url: `${provider.origin}/redirect?to=${encodeURIComponent(`${other.origin}/landing`)}`, credential: bound([host]) });
    expect(response.status).toBe(200);
    expect(other.header(0, 'X-Api-Key')).toBeUndefined();
  });
});

describe('request headers', () => {
  it('drops hop-by-hop and computed headers, computes Content-Length, keeps the rest', async () => {
    const { send } = clientWithLog();
    await send({
      url: `${provider.origin}/upload`,
      method: 'POST',
      body: 'hello',
      headers: {
        Host: 'evil.example',
        Connection: 'upgrade',
        'Content-Length': '999',
        'Transfer-Encoding': 'chunked',
        Upgrade: 'websocket',
        'Content-Type': 'text/plain',
        'User-Agent': 'custom/2',
      },
    });
    expect(provider.header(0, 'Host')).toBe(`127.0.0.1:${provider.port}`);
    expect(provider.header(0, 'Content-Length')).toBe('5');
    expect(provider.header(0, 'Transfer-Encoding')).toBeUndefined();
    expect(provider.header(0, 'Upgrade')).toBeUndefined();
    // The caller's "upgrade" is dropped; the client keeps its connections alive itself.
    expect(provider.header(0, 'Connection')).toBe('keep-alive');
    expect(provider.header(0, 'Content-Type')).toBe('text/plain');
    expect(provider.header(0, 'User-Agent')).toBe('custom/2');
    expect(provider.requests[0]?.body).toBe('hello');
  });
});

describe('connections', () => {
  it("keeps a connection alive for the client's next call, and never reuses one a failure or a redirect left in an unknown state", async () => {
    const provider = await startProvider((request, response) => {
      if (request.url === '/moved') response.writeHead(302, { Location: '/' }).end('a body nobody reads');
      else if (request.url === '/slow') setTimeout(() => response.end('late'), 500);
      else response.end('ok');
    });
    try {
      const { send } = clientWithLog();
      for (let i = 0; i < 3; i++) expect((await send({ url: `${provider.origin}/` })).status).toBe(200);
      expect(provider.connections).toBe(1);
      // A redirect's connection is closed with its body unread; the hop it leads to opens a new one.
      expect((await send({ url: `${provider.origin}/moved` })).redirects).toBe(1);
      expect(provider.connections).toBe(2);
      expect((await failureOf(send({ url: `${provider.origin}/slow`, timeoutMs: 100 }))).failure).toBe('timeout');
      expect((await send({ url: `${provider.origin}/` })).status).toBe(200);
      expect(provider.connections).toBe(3);
      // Another client has pools of its own.
      expect((await clientWithLog().send({ url: `${provider.origin}/` })).status).toBe(200);
      expect(provider.connections).toBe(4);
    } finally {
      await provider.close();
    }
  });
});

describe('provider statuses', () => {
  it.each([
    [401, 'the key is wrong or revoked'],
    [403, 'the key is valid but lacks the permission'],
    [200, 'the provider accepted the request'],
  ])('passes %i through and explains it', async (status, text) => {
    const { send } = clientWithLog();
    const response = await send({
      url: `${provider.origin}/status/${status}`,
      credential: { key: 'X-Api-Key', value: SECRET, placement: 'header', allowedHosts: loopback },
    });
    expect(response.status).toBe(status);
    expect(describeProviderStatus(response.status)).toBe(text);
  });
});

describe('redirects', () => {
  const redirect = (from: Provider, to: string, status = 302) => `${from.origin}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  it.each(['header', 'query'] as const)('keeps a %s credential on a same-origin redirect', async (placement) => {
    const { send } = clientWithLog();
    const response = await send({
      url: redirect(provider, '/landing?page=2'),
      credential: { key: 'api_key', value: SECRET, placement, allowedHosts: loopback },
    });
    expect(response.redirects).toBe(1);
    const landing = provider.requests[1];
    if (placement === 'header') expect(provider.header(1, 'api_key')).toBe(SECRET);
    else expect(landing?.target).toBe(`/landing?page=2&api_key=${ENCODED_SECRET}`);
  });

  it('drops a header credential, Authorization and Cookie when a redirect leaves the origin', async () => {
    const { send } = clientWithLog();
    const response = await send({
      url: redirect(provider, `${other.origin}/landing`),
      headers: { Authorization: 'Bearer caller-token', Cookie: 'session=1', 'X-Trace': 't-1' },
      credential: { key: 'X-Api-Key', value: SECRET, placement: 'header', allowedHosts: loopback },
    });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${other.origin}/landing`);
    expect(other.requests).toHaveLength(1);
    expect(other.header(0, 'X-Api-Key')).toBeUndefined();
    expect(other.header(0, 'Authorization')).toBeUndefined();
    expect(other.header(0, 'Cookie')).toBeUndefined();
    expect(other.header(0, 'X-Trace')).toBe('t-1');
  });

  it('drops a query credential when a redirect leaves the origin, even one the provider echoed into the Location', async () => {
    const { send } = clientWithLog();
    await send({
      url: `${provider.origin}/echo-redirect?to=${encodeURIComponent(`${other.origin}/landing`)}`,
      credential: { key: 'api_key', value: SECRET, placement: 'query', allowedHosts: loopback },
    });
    const target = other.requests[0]?.target ?? '';
    expect(target.startsWith('/landing?keep=1&token=')).toBe(true);
    expect(new URL(target, 'http://x').searchParams.has('api_key')).toBe(false);
  });

  it('does not restore the credential when the chain comes back to the first origin', async () => {
    const { send } = clientWithLog();
    const back = redirect(provider, `${provider.origin}/final`); // other -> provider
    await send({
      url: redirect(provider, redirect(other, back)),
      credential: { key: 'X-Api-Key', value: SECRET, placement: 'header', allowedHosts: loopback },
    });
    const final = provider.requests.findIndex((seen) => seen.target === '/final');
    expect(final).toBeGreaterThan(0);
    expect(provider.header(final, 'X-Api-Key')).toBeUndefined();
  });

  it.each([
    [303, 'POST', 'GET', ''],
    [302, 'POST', 'GET', ''],
    [301, 'POST', 'GET', ''],
    [307, 'POST', 'POST', 'payload'],
    [308, 'PUT', 'PUT', 'payload'],
    [303, 'PUT', 'GET', ''],
    [302, 'PUT', 'PUT', 'payload'],
  ] as const)('%i after %s repeats as %s', async (status, method, expected, body) => {
    const { send } = clientWithLog();
    await send({ url: redirect(provider, '/landing', status), method, body: 'payload', headers: { 'Content-Type': 'text/plain' } });
    const landing = provider.requests[1];
    expect(landing?.method).toBe(expected);
    expect(landing?.body).toBe(body);
    expect(provider.header(1, 'Content-Type')).toBe(body ? 'text/plain' : undefined);
    expect(provider.header(1, 'Content-Length')).toBe(body ? String(body.length) : undefined);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'http://[fe80::1]/',
    'http://metadata.test/computeMetadata/v1/',
  ])('refuses a redirect to the metadata address %s even with private networks allowed', async (target) => {
    const lookup = resolver({ 'metadata.test': ['169.254.169.254'] });
    const { send, lines } = clientWithLog({ allowPrivateNetworks: true, lookup });
    const connects = guard.hosts.length;
    const error = await failureOf(
      send({ url: redirect(provider, target), credential: { key: 'X-Api-Key', value: SECRET, placement: 'header', allowedHosts: loopback } }),
    );
    expect(error.failure).toBe('blocked_address');
    expect(error.message).toMatch(/metadata/);
    // Only the provider was connected to; metadata.test was refused inside the socket's lookup.
    expect(guard.hosts.slice(connects).filter((host) => host !== 'metadata.test')).toEqual(['127.0.0.1']);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.fields).toMatchObject({ failure: 'blocked_address', redirects: 1 });
  });

  it('gives up after maxRedirects', async () => {
    const { send } = clientWithLog({ maxRedirects: 3 });
    const error = await failureOf(send({ url: `${provider.origin}/loop` }));
    expect(error.failure).toBe('too_many_redirects');
    expect(provider.requests).toHaveLength(4);
  });

  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/x', `http://user:pw@127.0.0.1:1/`])('refuses a redirect to %s', async (target) => {
    const { send } = clientWithLog();
    const error = await failureOf(send({ url: redirect(provider, target) }));
    expect(error.failure).toBe('invalid_url');
    expect(error.message).not.toContain('pw@');
    expect(provider.requests).toHaveLength(1);
  });
});

describe('address policy', () => {
  it('refuses cloud metadata service names by name, before any lookup, whatever they would resolve to', async () => {
    // Resolved to loopback, allowed here: were the name not refused, the call would reach nothing off this machine and fail otherwise.
    const lookup = resolver({ 'metadata.google.internal': ['127.0.0.1'], 'instance-data': ['127.0.0.1'] });
    const { send } = clientWithLog({ lookup, allowPrivateNetworks: true });
    for (const host of ['metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'instance-data']) {
      const error = await failureOf(send({ url: `http://${host}/computeMetadata/v1/` }));
      expect(error.failure).toBe('blocked_address');
      expect(error.message).toMatch(/is the name of a cloud metadata service; outbound calls may only go to public internet addresses\.$/);
    }
    expect(lookup.asked).toEqual([]);
  });

  it.each([
    'http://127.0.0.1:PORT/',
    'http://127.1.2.3:PORT/',
    'http://[::1]:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://[::ffff:7f00:1]:PORT/',
    'http://[64:ff9b::7f00:1]:PORT/',
    'http://2130706433:PORT/',
    'http://0x7f.1:PORT/',
    'http://0177.0.0.1:PORT/',
    'http://0.0.0.0:PORT/',
    'http://[::]:PORT/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[fd12:3456::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/',
  ])('refuses %s without connecting', async (url) => {
    const { send } = clientWithLog({ allowPrivateNetworks: false });
    const connects = guard.hosts.length;
    const accepted = provider.connections;
    const error = await failureOf(send({ url: url.replace('PORT', String(provider.port)) }));
    expect(error.failure).toBe('blocked_address');
    expect(guard.hosts.length).toBe(connects);
    expect(provider.connections).toBe(accepted);
  });

  it('refuses [::1] even when something listens there', async () => {
    if (!(await hasIpv6Loopback())) return; // no IPv6 loopback here: the case above already covers the refusal
    const v6 = await startProvider(route, '::1');
    try {
      const error = await failureOf(clientWithLog({ allowPrivateNetworks: false }).send({ url: `${v6.origin}/` }));
      expect(error.failure).toBe('blocked_address');
      expect(v6.connections).toBe(0);
    } finally {
      await v6.close();
    }
  });

  it('refuses localhost, which resolves to loopback, without connecting', async () => {
    const { send } = clientWithLog({ allowPrivateNetworks: false });
    const accepted = provider.connections;
    const error = await failureOf(send({ url: `http://localhost:${provider.port}/` }));
    expect(error.failure).toBe('blocked_address');
    expect(error.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(provider.connections).toBe(accepted);
  });

  it.each([
    [['10.1.2.3']],
    [['192.168.0.10']],
    // One bad address is enough. The good ones are documentation addresses (RFC 5737, RFC 3849),
    // so that even a broken policy would not reach a real host.
    [['192.0.2.1', '127.0.0.1']],
    [['2001:db8::1', '::ffff:10.0.0.1']],
  ])('refuses a name that resolves to %j', async (addresses) => {
    const lookup = resolver({ 'provider.test': addresses });
    const { send } = clientWithLog({ allowPrivateNetworks: false, lookup, connectTimeoutMs: 200 });
    const error = await failureOf(send({ url: 'http://provider.test/' }));
    expect(error.failure).toBe('blocked_address');
    expect(error.message).toContain('provider.test resolves to');
    expect(lookup.asked).toEqual(['provider.test']);
  });

  it('connects to the address its own lookup checked', async () => {
    const lookup = resolver({ 'provider.test': ['127.0.0.1'] });
    const { send } = clientWithLog({ allowPrivateNetworks: true, lookup });
    const response = await send({ url: `http://provider.test:${provider.port}/hello` });
    expect(response.status).toBe(200);
    expect(lookup.asked).toEqual(['provider.test']);
    expect(provider.header(0, 'Host')).toBe(`provider.test:${provider.port}`);
  });

  it('takes allowPrivateNetworks from OUTBOUND_ALLOW_PRIVATE_NETWORKS by default', async () => {
    const log = () => undefined;
    vi.stubEnv('OUTBOUND_ALLOW_PRIVATE_NETWORKS', 'true');
    expect((await createOutboundClient({ log }).send({ url: `${provider.origin}/` })).status).toBe(200);
    vi.stubEnv('OUTBOUND_ALLOW_PRIVATE_NETWORKS', 'false');
    expect((await failureOf(createOutboundClient({ log }).send({ url: `${provider.origin}/` }))).failure).toBe('blocked_address');
  });
});

describe('failures', () => {
  it('reports a refused connection', async () => {
    const error = await failureOf(clientWithLog().send({ url: `http://127.0.0.1:${await closedPort()}/` }));
    expect(error).toMatchObject({ failure: 'refused', code: 'ECONNREFUSED' });
    expect(error.message).toMatch(/refused/);
  });

  it.each(['ENOTFOUND', 'EAI_AGAIN'])('reports a DNS failure (%s)', async (code) => {
    const lookup: LookupAll = (hostname, _options, callback) =>
      setImmediate(() => callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code }), []));
    const error = await failureOf(clientWithLog({ lookup }).send({ url: 'https://no-such-provider.test/v1' }));
    expect(error).toMatchObject({ failure: 'dns', code, url: 'https://no-such-provider.test/v1' });
  });

  it('times out connecting (a resolver that never answers)', async () => {
    const lookup: LookupAll = () => undefined;
    const started = Date.now();
    const error = await failureOf(clientWithLog({ lookup, connectTimeoutMs: 100 }).send({ url: 'http://slow-dns.test/' }));
    expect(error.failure).toBe('timeout');
    expect(error.message).toMatch(/connect/i);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.each(['/silent', '/stall'])('times out the whole call (%s)', async (path) => {
    const started = Date.now();
    const error = await failureOf(clientWithLog({ totalTimeoutMs: 200 }).send({ url: `${provider.origin}${path}` }));
    expect(error.failure).toBe('timeout');
    expect(error.message).toMatch(/did not complete within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails a provider that goes silent as soon as its silence passes the idle bound, before the answer or within it', async () => {
    const stalled = await startProvider((request, response) => {
      if (request.url === '/mid-body') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"part":');
      } else if (request.url === '/trickle') {
        let sent = 0;
        response.writeHead(200);
        const timer = setInterval(() => {
          response.write('x');
          if (++sent < 6) return;
          clearInterval(timer);
          response.end();
        }, 100);
      }
      // '/silent': the request is taken and never answered.
    });
    try {
      const { send } = clientWithLog({ idleTimeoutMs: 300, totalTimeoutMs: 5000 });
      for (const path of ['/silent', '/mid-body']) {
        const started = Date.now();
        const error = await failureOf(send({ url: `${stalled.origin}${path}` }));
        expect(error.failure, path).toBe('timeout');
        expect(error.message).toMatch(/sent nothing for 300 ms while its answer was awaited/);
        expect(Date.now() - started).toBeLessThan(2000);
      }
      // Slow but never silent for long: 600 ms in all, past the idle bound twice over.
      expect((await send({ url: `${stalled.origin}/trickle` })).body.toString()).toBe('xxxxxx');
    } finally {
      await stalled.close();
    }
  });

  it('fails a provider that trickles its answer below the speed floor, and takes a fast one whole', async () => {
    const trickling = await startProvider((request, response) => {
      response.writeHead(200);
      if (request.url === '/fast') return response.end('y'.repeat(64 * 1024));
      // A byte every 50 ms: never silent for the idle bound, far below 1,000 bytes a second.
      const timer = setInterval(() => response.write('x'), 50);
      response.on('close', () => clearInterval(timer));
    });
    try {
      const { send } = clientWithLog({ idleTimeoutMs: 300, minBytesPerSecond: 1000, totalTimeoutMs: 10_000 });
      const started = Date.now();
      const error = await failureOf(send({ url: `${trickling.origin}/trickle` }));
      expect(error.failure).toBe('timeout');
      expect(error.message).toMatch(/slower than 1000 bytes per second for 300 ms/);
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await send({ url: `${trickling.origin}/fast` })).body.length).toBe(64 * 1024);
    } finally {
      await trickling.close();
    }
  });

  it('counts redirects against the total time', async () => {
    // Each hop is quick; the last never answers, and the deadline set at the start still holds.
    const target = `${provider.origin}/redirect?to=${encodeURIComponent('/silent')}`;
    const error = await failureOf(clientWithLog({ totalTimeoutMs: 200 }).send({ url: target }));
    expect(error.failure).toBe('timeout');
  });

  it('stops reading a response that grows past the limit', async () => {
    const started = Date.now();
    const error = await failureOf(clientWithLog({ maxResponseBytes: 10_000 }).send({ url: `${provider.origin}/stream` }));
    expect(error.failure).toBe('too_large');
    expect(Date.now() - started).toBeLessThan(2000); // the provider would go on for 2 MB over several seconds
  });

  it('refuses a declared Content-Length past the limit, and accepts a body exactly at it', async () => {
    const { send } = clientWithLog({ maxResponseBytes: 1000 });
    expect((await failureOf(send({ url: `${provider.origin}/bytes?n=1001&declare` }))).failure).toBe('too_large');
    expect((await failureOf(send({ url: `${provider.origin}/bytes?n=1001` }))).failure).toBe('too_large');
    expect((await send({ url: `${provider.origin}/bytes?n=1000` })).body.length).toBe(1000);
    expect((await send({ url: `${provider.origin}/bytes?n=1000&declare` })).body.length).toBe(1000);
  });

  it('reports TLS failures: a self-signed certificate, and https to a plain http port', async () => {
    const tls = await startTlsProvider();
    try {
      const selfSigned = await failureOf(clientWithLog().send({ url: `${tls.origin}/` }));
      expect(selfSigned.failure).toBe('tls');
      expect(selfSigned.message).toMatch(/certificate/);
      expect(tls.requests).toHaveLength(0);
    } finally {
      await tls.close();
    }
    const plain = await failureOf(clientWithLog().send({ url: `https://127.0.0.1:${provider.port}/` }));
    expect(plain.failure).toBe('tls');
  });

  it.each(['not a url', 'ftp://127.0.0.1/file', 'file:///etc/passwd', 'http://user:pass@127.0.0.1/', 'javascript:alert(1)'])(
    'refuses %s as invalid_url',
    async (url) => {
      const connects = guard.hosts.length;
      const error = await failureOf(clientWithLog().send({ url }));
      expect(error.failure).toBe('invalid_url');
      expect(error.message).not.toContain('pass@');
      expect(guard.hosts.length).toBe(connects);
    },
  );
});

describe('logging and redaction', () => {
  it('logs one line per call with method, redacted URL, status, duration and redirects', async () => {
    const { send, lines } = clientWithLog();
    await send({
      url: `${provider.origin}/redirect?to=%2Fok`,
      method: 'POST',
      credential: { key: 'api_key', value: SECRET, placement: 'query', allowedHosts: loopback },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toBe('outbound request');
    expect(lines[0]?.fields).toEqual({
      method: 'POST',
      url: `${provider.origin}/ok?api_key=[REDACTED]`,
      status: 200,
      durationMs: expect.any(Number),
      redirects: 1,
    });
  });

  it('never lets the key value into a log line, an error or a response URL', async () => {
    const { send, lines } = clientWithLog({ totalTimeoutMs: 300, maxResponseBytes: 5000, maxRedirects: 2 });
    const outputs: string[] = [];
    const query = { key: 'api_key', value: SECRET, placement: 'query' as const, allowedHosts: loopback };
    const header = { key: 'X-Api-Key', value: SECRET, placement: 'header' as const, allowedHosts: loopback };
    const calls = [
      { url: `${provider.origin}/ok?a=1`, credential: query },
      { url: `${provider.origin}/redirect?to=%2Fok%3Fb%3D2`, credential: query },
      // the provider echoes the key into another origin's URL under api_key and under token
      { url: `${provider.origin}/echo-redirect?to=${encodeURIComponent(`${other.origin}/landing`)}`, credential: query },
      { url: `${provider.origin}/status/401`, credential: query },
      { url: `${provider.origin}/loop`, credential: query },
      { url: `${provider.origin}/silent`, credential: query },
      { url: `${provider.origin}/stream`, credential: query },
      { url: `http://127.0.0.1:${await closedPort()}/`, credential: query },
      { url: `${provider.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/')}`, credential: query },
      { url: `${provider.origin}/x?api_key=${ENCODED_SECRET}`, credential: query },
      { url: `${provider.origin}/ok`, credential: header },
      { url: `${provider.origin}/silent`, credential: header },
    ];
    for (const call of calls) {
      try {
        outputs.push((await send(call)).url);
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        outputs.push(error.message, error.url, String(error.stack), JSON.stringify(error));
      }
    }
    expect(lines).toHaveLength(calls.length);
    const everything = [...lines.map((line) => JSON.stringify(line)), ...outputs].join('\n');
    for (const form of [SECRET, ENCODED_SECRET, 'S3cret']) expect(everything).not.toContain(form);
    expect(everything).toContain('api_key=[REDACTED]');
    // every line about a first hop that carried the query key shows its name and the marker
    const firstHops = lines.slice(0, calls.length - 2).filter((line) => line.fields.redirects === 0);
    for (const line of firstHops) expect(String(line.fields.url)).toContain('api_key=[REDACTED]');
  });
});
