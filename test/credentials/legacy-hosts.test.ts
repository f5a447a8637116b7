/**
 * Binding a credential made before allowedHosts was required, below the HTTP
 * layer: its first opening stores the hosts of what uses it with one
 * conditional write that leaves the sealed value as it was; opening it again
 * writes nothing; two first openings at once both succeed, the one whose write
 * lost reading what the other stored; a call to another host is refused; and
 * the write itself takes only a credential still at the revision read and
 * still without hosts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { localKeyring } from '../../lib/credentials/local-keyring.ts';
import { createCredential, getCredential, openCredential } from '../../lib/credentials/service.ts';
import { createIntegration } from '../../lib/integrations/service.ts';
import { createOutboundClient } from '../../lib/outbound/index.ts';
import { RevisionConflict } from '../../lib/store/revision-retry.ts';
import { withoutHosts } from '../helpers/credentials.ts';
import { useEmbeddedStore } from '../helpers/store.ts';
import { startProvider } from '../outbound/servers.ts';

const fixture = useEmbeddedStore('legacy-hosts');
const keyring = localKeyring(join(mkdtempSync(join(tmpdir(), 'rules-legacy-hosts-')), 'key'));
const workspaceId = 'w';
const value = 'sk_legacy_0123456789';

let named = 0;
/** A credential as an older deployment stored it, used by an integration on `baseUrl`. */
async function legacyUsedAt(baseUrl: string) {
  const name = `legacy ${++named}`;
  const input = { name, type: 'apiKey' as const, key: 'X-Api-Key', value, placement: 'header' as const, description: '', allowedHosts: ['ignored.example'] };
  const { credential } = await createCredential({ store: fixture.store, keyring }, workspaceId, input);
  await createIntegration(fixture.store, workspaceId, {
    name,
    type: 'restApi',
    baseUrl,
    headers: {},
    credentialId: credential.id,
    timeoutMs: 1000,
    description: '',
  });
  return withoutHosts(fixture.store, workspaceId, credential.id);
}

const stored = (id: string) => fixture.store.getCredential(workspaceId, id, { withSecret: true });

it('shows the hosts a credential will get before its first use, stores them at it without rewriting the value, and writes nothing after', async () => {
  const legacy = await legacyUsedAt('https://api.example.com:8443/v1');
  expect((await getCredential(fixture.store, workspaceId, legacy.id)).allowedHosts).toEqual(['api.example.com:8443']);
  expect(await stored(legacy.id)).not.toHaveProperty('allowedHosts');

  const deps = { store: fixture.store, keyring };
  expect(await openCredential(deps, workspaceId, legacy.id)).toEqual({ key: 'X-Api-Key', value, placement: 'header', allowedHosts: ['api.example.com:8443'] });
  const bound = await stored(legacy.id);
  expect(bound).toEqual({ ...legacy, allowedHosts: ['api.example.com:8443'], revision: legacy.revision + 1 });

  const bind = vi.fn(fixture.store.bindCredentialHosts);
  expect((await openCredential({ store: { ...fixture.store, bindCredentialHosts: bind }, keyring }, workspaceId, legacy.id)).allowedHosts).toEqual([
    'api.example.com:8443',
  ]);
  expect(bind).not.toHaveBeenCalled();
  expect(await stored(legacy.id)).toEqual(bound);
});

it('lets two first uses at once both succeed: both write, one write wins, the other reads what it stored', async () => {
  const legacy = await legacyUsedAt('http://127.0.0.1:3002');
  const bind = vi.fn(fixture.store.bindCredentialHosts);
  const deps = { store: { ...fixture.store, bindCredentialHosts: bind }, keyring };
  const opened = await Promise.all([openCredential(deps, workspaceId, legacy.id), openCredential(deps, workspaceId, legacy.id)]);
  for (const credential of opened) expect(credential.allowedHosts).toEqual(['127.0.0.1:3002']);
  expect(bind).toHaveBeenCalledTimes(2);
  const writes = await Promise.allSettled(bind.mock.results.map((result) => result.value));
  expect(writes.map((write) => write.status).sort()).toEqual(['fulfilled', 'rejected']);
  expect(writes.find((write) => write.status === 'rejected')?.reason).toBeInstanceOf(RevisionConflict);
  expect(await stored(legacy.id)).toEqual({ ...legacy, allowedHosts: ['127.0.0.1:3002'], revision: legacy.revision + 1 });
});

it('sends the credential it bound to those hosts only: another is refused, host_not_allowed, before a byte reaches it', async () => {
  const [a, c] = await Promise.all([startProvider(), startProvider()]);
  try {
    const legacy = await legacyUsedAt(`${a.origin}/v1`);
    const credential = await openCredential({ store: fixture.store, keyring }, workspaceId, legacy.id);
    const { send } = createOutboundClient({ allowPrivateNetworks: true, log: () => {} });
    expect((await send({ url: `${a.origin}/v1/ping`, credential })).status).toBe(200);
    await expect(send({ url: `${c.origin}/steal`, credential })).rejects.toMatchObject({ failure: 'host_not_allowed' });
    expect(c.connections).toBe(0);
  } finally {
    await Promise.all([a.close(), c.close()]);
  }
});

it('binds only a credential still at the revision read and still without hosts', async () => {
  const legacy = await legacyUsedAt('https://rates.example.com');
  await expect(fixture.store.bindCredentialHosts(workspaceId, legacy.id, ['elsewhere.example'], legacy.revision - 1)).rejects.toBeInstanceOf(RevisionConflict);
  await fixture.store.bindCredentialHosts(workspaceId, legacy.id, ['rates.example.com'], legacy.revision);
  await expect(fixture.store.bindCredentialHosts(workspaceId, legacy.id, ['elsewhere.example'], legacy.revision + 1)).rejects.toBeInstanceOf(RevisionConflict);
  expect((await stored(legacy.id))?.allowedHosts).toEqual(['rates.example.com']);
});
