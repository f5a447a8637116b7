/**
 * With OUTBOUND_ALLOW_PRIVATE_NETWORKS=false (as deployed), a credential test
 * may only call public addresses: loopback, private, CGNAT and unspecified
 * targets are refused with 400 before any connection, and a loopback provider
 * hears nothing. The variable is set before the runtime (which keeps a value
 * already set) and the test function's outbound client are loaded.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { credentialBody, credentialsPath, credentialTestPath, expectCredential, expectInvalid, json, type CredentialView } from '../helpers/credentials.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { guardConnections, hasIpv6Loopback, startProvider, type Provider } from '../outbound/servers.ts';

vi.hoisted(() => {
  process.env.OUTBOUND_ALLOW_PRIVATE_NETWORKS = 'false';
});

const t = useRuntime();

let provider: Provider;
let provider6: Provider | undefined;
let guard: ReturnType<typeof guardConnections>;
let header: CredentialView;
let query: CredentialView;

const targets: [name: string, url: () => string, reason: RegExp][] = [
  ['127.0.0.1', () => `http://127.0.0.1:${provider.port}/v1/me`, /loopback/],
  ['localhost (resolved, then refused)', () => `http://localhost:${provider.port}/v1/me`, /localhost resolves to 127\.0\.0\.1.*loopback/],
  ['10.0.0.1', () => 'http://10.0.0.1/v1/me', /private network/],
  ['[::1]', () => `http://[::1]:${provider6?.port ?? provider.port}/v1/me`, /loopback/],
  ['127.0.0.1 as one decimal number', () => `http://2130706433:${provider.port}/`, /loopback/],
  ['127.1 (short form)', () => `http://127.1:${provider.port}/`, /loopback/],
  ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${provider.port}/`, /loopback/],
  ['172.16.0.1', () => 'http://172.16.0.1/', /private network/],
  ['192.168.1.1', () => 'http://192.168.1.1/', /private network/],
  ['100.64.0.1 (CGNAT)', () => 'http://100.64.0.1/', /carrier-grade NAT/],
  ['0.0.0.0', () => `http://0.0.0.0:${provider.port}/`, /unspecified/],
  ['[fc00::1]', () => 'http://[fc00::1]/', /private network/],
  ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', /metadata/],
];

beforeAll(async () => {
  provider = await startProvider();
  if (await hasIpv6Loopback()) provider6 = await startProvider(undefined, '::1');
  // Bound to every target, so that what refuses each is the address policy, not the credential's hosts.
  const allowedHosts = [...new Set(targets.map(([, url]) => new URL(url()).host))];
  header = expectCredential(await t.api(credentialsPath, json('POST', credentialBody('private header', 'sk-PRIVATE-HEADER-1a2b', { allowedHosts }))), 201);
  query = expectCredential(
    await t.api(credentialsPath, json('POST', credentialBody('private query', 'sk-PRIVATE-QUERY-3c4d', { key: 'api_key', placement: 'query', allowedHosts }))),
    201,
  );
  guard = guardConnections();
});
afterAll(async () => {
  guard?.restore();
  await Promise.all([provider?.close(), provider6?.close()]);
});
afterEach(() => {
  expect(provider.requests).toEqual([]);
  expect(provider.connections).toBe(0);
  expect(provider6?.connections ?? 0).toBe(0);
});

describe('outbound calls with private networks not allowed', () => {
  it('keeps the value set before the runtime started', () => {
    expect(process.env.OUTBOUND_ALLOW_PRIVATE_NETWORKS).toBe('false');
  });

  it.each(targets)('refuses %s with 400 invalid_request on field url, for either placement', async (_, url, reason) => {
    for (const credential of [header, query]) {
      const response = await t.api(credentialTestPath(credential.id), json('POST', { url: url(), headers: { 'X-Trace': 'private' } }));
      const [issue] = expectInvalid(response, ['url']);
      expect(issue!.message).toMatch(reason);
      expect(JSON.stringify(response.body)).not.toMatch(/sk-PRIVATE/);
    }
    // Refused before connecting: no socket went to any of these addresses (127.0.0.1 is the API and DynamoDB;
    // the providers' connection counts, checked after each test, cover loopback).
    expect(guard.hosts.filter((host) => !['127.0.0.1', 'localhost'].includes(host))).toEqual([]);
  });
});
