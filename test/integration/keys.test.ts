/**
 * API keys managed over /dev/v1/keys through the local HTTP runtime: a key is
 * made with a role, an owner and branches and shown once; it can do what its
 * role grants and nothing more (the repoint of an integration by an editor is
 * refused); no key gives more than it has; the last usable admin key is kept.
 * Each key is used only after its last change, as a warm function keeps a
 * key it has looked up for its directory cache's time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { startTestProvider } from '../helpers/providers.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
let admin: string;

interface KeyAnswer {
  keyId: string;
  key?: string;
  label: string;
  owner: string;
  role: string;
  branches?: string[];
  state: string;
  expiresAt?: string;
}

const keysApi = (key: string) => ({
  create: (body: unknown) => t.api<KeyAnswer>('/dev/v1/keys', { method: 'POST', key, body: JSON.stringify(body) }),
  list: () => t.api<KeyAnswer[]>('/dev/v1/keys', { key }),
  get: (id: string) => t.api<KeyAnswer>(`/dev/v1/keys/${id}`, { key }),
  update: (id: string, body: unknown) => t.api<KeyAnswer>(`/dev/v1/keys/${id}`, { method: 'PATCH', key, body: JSON.stringify(body) }),
  revoke: (id: string) => t.api<KeyAnswer>(`/dev/v1/keys/${id}`, { method: 'DELETE', key }),
});

beforeAll(async () => {
  admin = (await createWorkspaceWithKey(t.runtime.store, { id: 'keys-ws', branches: ['staging'] })).key;
});

describe('making a key', () => {
  it('answers it once with its role, owner and branches; lists and gets show no secret', async () => {
    const made = await keysApi(admin).create({ label: 'checkout', owner: 'checkout-service', role: 'executor', branches: ['staging'] });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ label: 'checkout', owner: 'checkout-service', role: 'executor', branches: ['staging'], state: 'active' });
    expect(made.body.data.key).toMatch(/\S{20,}/);
    const listed = (await keysApi(admin).list()).body.data;
    expect(listed.find((k) => k.keyId === made.body.data.keyId)).toMatchObject({ role: 'executor' });
    expect(JSON.stringify(listed)).not.toContain(made.body.data.key!);
    expect(JSON.stringify((await keysApi(admin).get(made.body.data.keyId)).body.data)).not.toContain(made.body.data.key!);
  });

  it('refuses what is not valid, naming the field: a role that is none, a branch the workspace lacks, an expiry past', async () => {
    expectFailure(await keysApi(admin).create({ label: 'x', owner: 'o', role: 'root' }), 400, 'invalid_request');
    const noBranch = await keysApi(admin).create({ label: 'x', owner: 'o', role: 'reader', branches: ['nope'] });
    expectFailure(noBranch, 400, 'invalid_request');
    expect(JSON.stringify(noBranch.body.data)).toContain('branches[0]');
    const past = await keysApi(admin).create({ label: 'x', owner: 'o', role: 'reader', expiresAt: '2020-01-01T00:00:00Z' });
    expectFailure(past, 400, 'invalid_request');
    expect(JSON.stringify(past.body.data)).toContain('expiresAt');
  });

  it('changes nothing, and answers the key as it is, when a change names only the owner it has', async () => {
    const made = (await keysApi(admin).create({ label: 'same', owner: 'same-owner', role: 'reader' })).body.data;
    const again = await keysApi(admin).update(made.keyId, { owner: 'same-owner' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ keyId: made.keyId, owner: 'same-owner', label: 'same' });
    const audit = await t.api<{ records: { operation: string }[] }>('/dev/v1/audit', { key: admin, query: { targetId: made.keyId } });
    expect(audit.body.data.records.map((r) => r.operation)).toEqual(['createKey']);
  });

  it('answers 404 key_not_found for a key of no one', async () => {
    expectFailure(await keysApi(admin).get('key_0000000000000000'), 404, 'key_not_found');
    expectFailure(await keysApi(admin).revoke('not a key'), 404, 'key_not_found');
  });
});

describe('a key does what its role grants, nothing more', () => {
  it("an editor cannot repoint an integration to another host (manage), and cannot read the workspace's keys", async () => {
    const editor = (await keysApi(t.runtime.apiKey).create({ label: 'editor', owner: 'eve@example.com', role: 'editor' })).body.data.key!;
    const repoint = await t.api('/dev/v1/integrations/intg_demo_risk', {
      method: 'PATCH',
      key: editor,
      body: JSON.stringify({ baseUrl: 'http://127.0.0.1:3999' }),
    });
    expectFailure(repoint, 403, 'forbidden');
    expect(repoint.body.data).toEqual({ permission: 'manage', role: 'editor' });
    expectFailure(
      await t.api('/dev/v1/integrations/intg_demo_risk/test', { method: 'POST', key: editor, body: '{"method":"POST","path":"/steal"}' }),
      403,
      'forbidden',
    );
    expectFailure(await keysApi(editor).list(), 403, 'forbidden');
    // What it may do, it does.
    expect((await t.api('/dev/v1/rule', { key: editor })).status).toBe(200);
  });

  it('an executor executes and reads nothing', async () => {
    const executor = (await keysApi(t.runtime.apiKey).create({ label: 'exec', owner: 'checkout', role: 'executor' })).body.data.key!;
    expectFailure(await t.api('/dev/v1/rule', { key: executor }), 403, 'forbidden');
    const executed = await t.api('/dev/v1/rule/shipping-cost/execute', { method: 'POST', key: executor, body: '{"params":{}}' });
    expect(executed.status).not.toBe(403);
  });
});

describe('the repoint attack, by an admin', () => {
  it('is refused at the outbound client: the demo credential is bound to the demo provider, so nothing reaches the other host', async () => {
    const attacker = await startTestProvider();
    try {
      const repointed = await t.api('/dev/v1/integrations/intg_demo_fx', { method: 'PATCH', body: JSON.stringify({ baseUrl: attacker.origin }) });
      expect(repointed.status).toBe(200);
      const stolen = await t.api<{ errors: { field: string; message: string }[] }>('/dev/v1/integrations/intg_demo_fx/test', {
        method: 'POST',
        body: JSON.stringify({ method: 'POST', path: '/steal' }),
      });
      expectFailure(stolen, 400, 'invalid_request');
      expect(stolen.body.data.errors[0]!.message).toMatch(/may be sent only to 127\.0\.0\.1:\d+, not to 127\.0\.0\.1:\d+.*nothing was sent/);
      expect(attacker.requests()).toEqual([]);
      // The credential's hosts are changed with manage, as every credential change is: an editor cannot.
      const editor = (await keysApi(t.runtime.apiKey).create({ label: 'editor 2', owner: 'eve', role: 'editor' })).body.data.key!;
      const widen = await t.api('/dev/v1/credentials/cred_demo_query', {
        method: 'PATCH',
        key: editor,
        body: JSON.stringify({ allowedHosts: ['*.evil.test'] }),
      });
      expectFailure(widen, 403, 'forbidden');
    } finally {
      await t.api('/dev/v1/integrations/intg_demo_fx', { method: 'PATCH', body: JSON.stringify({ baseUrl: t.runtime.providerUrl }) });
      await attacker.close();
    }
  });
});

describe('no key gives more than it has', () => {
  it('a key limited to staging makes keys for staging only', async () => {
    const stagingAdmin = (await keysApi(admin).create({ label: 'staging admin', owner: 'sam', role: 'admin', branches: ['staging'] })).body.data.key!;
    const unlimited = await keysApi(stagingAdmin).create({ label: 'x', owner: 'sam', role: 'reader' });
    expectFailure(unlimited, 403, 'forbidden');
    expect(unlimited.body.data).toEqual({ branch: '(every branch)', branches: ['staging'] });
    const onMain = await keysApi(stagingAdmin).create({ label: 'x', owner: 'sam', role: 'reader', branches: ['main'] });
    expectFailure(onMain, 403, 'forbidden');
    expect(onMain.body.data).toEqual({ branch: 'main', branches: ['staging'] });
    expect((await keysApi(stagingAdmin).create({ label: 'x', owner: 'sam', role: 'reader', branches: ['staging'] })).status).toBe(201);
    // Nor lifts its own limit, nor touches a key beyond it.
    const own = (await keysApi(admin).list()).body.data.find((k) => k.label === 'staging admin')!;
    expectFailure(await keysApi(stagingAdmin).update(own.keyId, { branches: null }), 403, 'forbidden');
    const adminId = (await keysApi(admin).list()).body.data.find((k) => !k.branches && k.role === 'admin')!.keyId;
    expectFailure(await keysApi(stagingAdmin).revoke(adminId), 403, 'forbidden');
  });
});

describe('the last usable admin key', () => {
  it('is neither revoked, demoted, limited nor given an expiry until another admin key exists', async () => {
    const { key, keyId } = await createWorkspaceWithKey(t.runtime.store, { id: 'keys-last', branches: ['staging'] });
    const api = keysApi(key);
    expectFailure(await api.revoke(keyId), 409, 'last_admin');
    expectFailure(await api.update(keyId, { role: 'publisher' }), 409, 'last_admin');
    expectFailure(await api.update(keyId, { branches: ['staging'] }), 409, 'last_admin');
    expectFailure(await api.update(keyId, { expiresAt: '2099-01-01T00:00:00Z' }), 409, 'last_admin');
    expectSuccess(await api.update(keyId, { label: 'still the admin' }));
    const second = (await api.create({ label: 'second', owner: 'ops', role: 'admin' })).body.data;
    const demoted = await api.update(keyId, { role: 'publisher' });
    expectSuccess(demoted);
    expect(demoted.body.data).toMatchObject({ role: 'publisher', label: 'still the admin' });
    // The second admin, unused so far, keeps the workspace governable; it revokes the first.
    expect((await keysApi(second.key!).revoke(keyId)).body.data).toMatchObject({ state: 'revoked' });
    expectFailure(await keysApi(second.key!).revoke(second.keyId), 409, 'last_admin');
    expectFailure(await keysApi(second.key!).update(keyId, { label: 'back' }), 409, 'key_revoked');
  });

  it('takes a limit away with null', async () => {
    const made = (await keysApi(admin).create({ label: 'temp', owner: 'o', role: 'reader', branches: ['staging'], expiresAt: '2099-01-01T00:00:00Z' })).body
      .data;
    const lifted = await keysApi(admin).update(made.keyId, { branches: null, expiresAt: null });
    expectSuccess(lifted);
    expect(lifted.body.data.branches).toBeUndefined();
    expect(lifted.body.data.expiresAt).toBeUndefined();
  });
});

describe('GET /dev/v1/me', () => {
  it('answers every key what it may do: role, permissions, branches, workspace', async () => {
    const executor = await keysApi(admin).create({ label: 'exec', owner: 'shop', role: 'executor', branches: ['staging'] });
    const me = await t.api<{ role: string; permissions: string[]; branches: string[] | null; owner: string; workspace: { id: string } }>('/dev/v1/me', {
      key: executor.body.data.key!,
    });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ keyId: executor.body.data.keyId, owner: 'shop', role: 'executor', permissions: ['execute'], branches: ['staging'] });
    expect(me.body.data.workspace.id).toBe('keys-ws');
    expect((await t.api<{ branches: null; permissions: string[] }>('/dev/v1/me', { key: admin })).body.data).toMatchObject({ branches: null, role: 'admin' });
  });
});
