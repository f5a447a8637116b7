/**
 * Credentials made before allowedHosts was required, through the API: one
 * written to the store without the field, as an older deployment left it, and
 * used by an integration on host A and by the remote on host B shows [A, B]
 * before its first use, is bound to them by it (two first uses at once both
 * succeed), and from then on a call to host C is refused before a byte
 * reaches C, also once the integration is pointed at C. One nothing uses is
 * refused everywhere, with a message that says which field to set.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  credentialBody,
  credentialPath,
  credentialsPath,
  credentialTestPath,
  expectCredential,
  expectInvalid,
  json,
  withoutHosts,
  type CredentialTestResult,
} from '../helpers/credentials.ts';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { expectUnpaged } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { startProvider, type Provider } from '../outbound/servers.ts';

const t = useRuntime();
const workspaceId = 'legacy-hosts';
let key: string;
/** A, where the integration calls; C, where nothing may take the key. Both count every connection. */
let a: Provider;
let c: Provider;
/** B, the remote's host: reached as localhost, so that it is another host than A whatever the ports. */
const remoteUrl = 'http://localhost:9/team/rules.git';

const api = <T>(path: string, options: Parameters<typeof t.api>[1] = {}) => t.api<T>(path, { ...options, key });

beforeAll(async () => {
  ({ key } = await createWorkspaceWithKey(t.runtime.store, { id: workspaceId }));
  // A answers JSON, as an integration's provider must.
  [a, c] = await Promise.all([startProvider((_request, response) => response.setHeader('content-type', 'application/json').end('{}')), startProvider()]);
});
afterAll(async () => Promise.all([a?.close(), c?.close()]));

/** A credential as an older deployment stored it: made, then written again without allowedHosts. */
async function legacyCredential(name: string, value: string) {
  const made = expectCredential(await api(credentialsPath, json('POST', credentialBody(name, value, { allowedHosts: ['made.example'] }))), 201);
  await withoutHosts(t.runtime.store, workspaceId, made.id);
  return made.id;
}

const stored = (id: string) => t.runtime.store.getCredential(workspaceId, id, { withSecret: true });
const hostsShown = async (id: string) => expectCredential(await api(credentialPath(id)), 200).allowedHosts;
const testAgainst = (id: string, url: string) => api<CredentialTestResult>(credentialTestPath(id), json('POST', { url }));

it('gets the hosts of the integration and the remote that use it at its first use, and is refused on any other host before a byte is sent', async () => {
  const id = await legacyCredential('Legacy risk key', 'sk-LEGACY-used-0a1b');
  const integration = expectUnpaged(
    await api<{ id: string }>(
      '/dev/v1/integrations',
      json('POST', { name: 'Legacy risk', type: 'restApi', baseUrl: `${a.origin}/v1`, headers: {}, credentialId: id }),
    ),
    201,
  ).id;
  expectUnpaged(await api('/dev/v1/remote', json('PUT', { url: remoteUrl, credentialId: id })), 200);
  const hostA = new URL(a.origin).host;
  const before = await stored(id);

  // Shown before the first use, not yet stored.
  expect(await hostsShown(id)).toEqual([hostA, 'localhost:9']);
  expect(before).not.toHaveProperty('allowedHosts');

  // The first use is two calls at once: both reach A with the key.
  const [viaIntegration, viaTest] = await Promise.all([
    api<{ status: number }>(`/dev/v1/integrations/${integration}/test`, json('POST', { method: 'GET', path: '/ping' })),
    testAgainst(id, `${a.origin}/v1/ping`),
  ]);
  expect(expectUnpaged(viaIntegration, 200).status).toBe(200);
  expect(expectUnpaged(viaTest, 200).status).toBe(200);
  expect(a.requests.map((_, i) => a.header(i, 'X-Api-Key'))).toEqual(['sk-LEGACY-used-0a1b', 'sk-LEGACY-used-0a1b']);
  // Stored once, beside the sealed value as it was.
  expect(await stored(id)).toEqual({ ...before, allowedHosts: [hostA, 'localhost:9'], revision: before!.revision + 1 });
  expect(await hostsShown(id)).toEqual([hostA, 'localhost:9']);

  const refused = expectInvalid(await testAgainst(id, `${c.origin}/steal`), ['url']);
  expect(refused[0]!.message).toContain(`may be sent only to ${hostA}, localhost:9, not to ${new URL(c.origin).host}`);
  // Bound now: pointing the integration at C does not move the hosts.
  expectUnpaged(await api(`/dev/v1/integrations/${integration}`, json('PATCH', { baseUrl: c.origin })), 200);
  const repointed = expectInvalid(await api(`/dev/v1/integrations/${integration}/test`, json('POST', { method: 'GET', path: '/steal' })), ['path']);
  expect(repointed[0]!.message).toContain(`may be sent only to ${hostA}, localhost:9`);
  expect(await hostsShown(id)).toEqual([hostA, 'localhost:9']);
  expect(c.connections).toBe(0);
});

it('gives a credential nothing uses no host, and refuses every call with it, saying to set its allowedHosts', async () => {
  const id = await legacyCredential('Legacy unused key', 'sk-LEGACY-unused-2c3d');
  expect(await hostsShown(id)).toEqual([]);
  const connections = a.connections;

  const refused = expectInvalid(await testAgainst(id, `${a.origin}/v1/ping`), ['url']);
  expect(refused[0]!.message).toMatch(/may be sent to no host yet.*allowedHosts is empty.*Set its allowedHosts to the hosts meant to receive the key/);
  expect(JSON.stringify(refused)).not.toContain('sk-LEGACY-unused');
  expect(a.connections).toBe(connections);
  expect((await stored(id))?.allowedHosts).toEqual([]);

  // An admin sets them, and the credential is sent there.
  expectCredential(await api(credentialPath(id), json('PATCH', { allowedHosts: [new URL(a.origin).host] })), 200);
  expect(expectUnpaged(await testAgainst(id, `${a.origin}/v1/ping`), 200).status).toBe(200);
});
