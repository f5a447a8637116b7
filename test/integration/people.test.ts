/**
 * People signed in, through the local HTTP runtime, with ID tokens of an
 * issuer on loopback: a person acts in the workspace Service-Workspace names
 * with every grant its mapping gives their groups or e-mail (union, branch
 * limits and all); a workspace that gives them nothing, or does not exist,
 * answers alike; a token failing a check is a 401 saying which; a person
 * approves as themselves, once, never their own change (nor one their personal
 * key proposed), and only while the mapping still lets them; keys, theirs too,
 * do not approve where people are named; a person cannot take manage away
 * from themselves.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { json } from '../helpers/credentials.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import { useRuntimeWithIssuer } from '../helpers/issuer.ts';

const { issuer, audience, t } = await useRuntimeWithIssuer();

const workspace = 'people-ws';
let adminKey: string;

const people = {
  ana: { sub: 'sub-ana', email: 'ana@bank.example', groups: ['pricing-authors'] },
  ben: { sub: 'sub-ben', email: 'ben@bank.example', groups: ['pricing-approvers'] },
  cleo: { sub: 'sub-cleo', email: 'Cleo@Bank.example', groups: ['risk'] },
  dan: { sub: 'sub-dan', email: 'dan@bank.example', groups: ['staging-editors', 'readers'] },
  boss: { sub: 'sub-boss', email: 'boss@bank.example', groups: [] as string[] },
  eve: { sub: 'sub-eve', email: 'eve@bank.example', groups: ['risk-admins'] },
  nobody: { sub: 'sub-nobody', email: 'nobody@bank.example', groups: ['elsewhere'] },
};

/** Calls as `who`, with a fresh ID token, in `inWorkspace`. */
const as =
  (who: keyof typeof people, inWorkspace = workspace) =>
  async <D>(path: string, options: Parameters<typeof t.api>[1] = {}) =>
    t.api<D>(path, {
      branch: 'main',
      ...options,
      key: null,
      headers: { ...options.headers, authorization: `Bearer ${await issuer.token(audience, people[who])}`, 'service-workspace': inWorkspace },
    });

const mapping = {
  groups: [
    { group: 'pricing-authors', role: 'editor' },
    { group: 'pricing-approvers', role: 'publisher' },
    { group: 'staging-editors', role: 'editor', branches: ['staging'] },
    { group: 'readers', role: 'reader' },
    { group: 'risk-admins', role: 'admin', branches: ['staging'] },
  ],
  people: [
    { email: 'cleo@bank.example', role: 'publisher', branches: ['main'] },
    { email: 'boss@bank.example', role: 'admin' },
    { email: 'eve@bank.example', role: 'publisher', branches: ['main'] },
  ],
};

beforeAll(async () => {
  adminKey = (await createWorkspaceWithKey(t.runtime.store, { id: workspace, branches: ['staging'] })).key;
  await createWorkspaceWithKey(t.runtime.store, { id: 'other-ws' });
  expectUnpaged(await t.api('/dev/v1/access', { ...json('PUT', mapping), key: adminKey }));
});

describe('a person signed in', () => {
  it("acts with the grants the workspace's mapping gives their groups and e-mail, and is named by their e-mail", async () => {
    const me = expectUnpaged(await (await as('ana'))('/dev/v1/me'));
    expect(me).toMatchObject({
      owner: 'ana@bank.example',
      role: 'editor',
      branches: null,
      workspace: { id: workspace },
      person: { issuer: issuer.url, subject: 'sub-ana', email: 'ana@bank.example' },
      grants: [{ role: 'editor', branches: null }],
      approves: true,
    });
    // A key's approvals are not taken in a workspace whose mapping names people: /me says so, for the console to say it beforehand.
    expect(expectUnpaged<{ approves: boolean }>(await t.api('/dev/v1/me', { key: adminKey })).approves).toBe(false);
    const saved = expectUnpaged(await as('ana')('/dev/v1/rule', json('POST', simpleRule('people-fee', 'People fee'))), 201);
    const refused = await as('ana')('/dev/v1/rule/people-fee/publish', json('POST', { checksum: (saved as { checksum: string }).checksum }));
    expectFailure(refused, 403, 'forbidden');
    expect(refused.body.data).toEqual({ permission: 'publish', role: 'editor' });
    // An e-mail is compared without case; a grant limited to branches holds there only.
    expect(expectUnpaged(await as('cleo')('/dev/v1/me'))).toMatchObject({ role: 'publisher', branches: ['main'] });
    expectFailure(await as('cleo')('/dev/v1/rule', { branch: 'staging' }), 403, 'forbidden');
    // The union of grants: reader everywhere, editor on staging.
    expect((await as('dan')('/dev/v1/rule', { branch: 'main' })).status).toBe(200);
    expectFailure(await as('dan')('/dev/v1/rule', json('POST', simpleRule('dan-fee', 'Dan fee'))), 403, 'forbidden');
    expect((await as('dan')('/dev/v1/rule', { ...json('POST', simpleRule('dan-fee', 'Dan fee')), branch: 'staging' })).status).toBe(201);
    const { records } = expectUnpaged(
      await t.api<{ records: { operation: string; actor: Record<string, unknown> }[] }>('/dev/v1/audit', {
        key: adminKey,
        query: { operation: 'createEntity', branch: 'main', outcome: 'ok' },
      }),
    );
    // A person acts with the widest of their grants on the branch of the call: eve is an admin on staging, a publisher on main.
    expectUnpaged(await as('eve')('/dev/v1/rule', json('POST', simpleRule('eve-fee', 'Eve fee'))), 201);
    const eves = expectUnpaged(
      await t.api<{ records: { actor: { owner: string; role: string } }[] }>('/dev/v1/audit', {
        key: adminKey,
        query: { operation: 'createEntity', targetId: 'eve-fee', outcome: 'ok' },
      }),
    );
    expect(eves.records[0]!.actor).toMatchObject({ owner: 'eve@bank.example', role: 'publisher' });
    expect(records[0]!.actor).toEqual({
      kind: 'person',
      owner: 'ana@bank.example',
      keyId: expect.stringMatching(/^person_[0-9a-f]{24}$/),
      role: 'editor',
      person: { issuer: issuer.url, subject: 'sub-ana', email: 'ana@bank.example' },
    });
  });

  it('is refused alike by a workspace that gives them nothing and by one that does not exist', async () => {
    const none = await as('nobody')('/dev/v1/rule');
    const elsewhere = await as('ana', 'other-ws')('/dev/v1/rule');
    const missing = await as('ana', 'no-such-ws')('/dev/v1/rule');
    expectFailure(none, 403, 'forbidden');
    expectFailure(elsewhere, 403, 'forbidden');
    expectFailure(missing, 403, 'forbidden');
    expect(missing.body.message.replace('no-such-ws', 'other-ws')).toBe(elsewhere.body.message);
    // The workspace that exists records who tried.
    const { records } = expectUnpaged(
      await t.api<{ records: { operation: string; outcome: string; actor: Record<string, unknown> }[] }>('/dev/v1/audit', {
        key: adminKey,
        query: { outcome: 'forbidden', operation: 'listEntities' },
      }),
    );
    expect(records[0]).toMatchObject({ actor: { owner: 'nobody@bank.example', role: '', person: { subject: 'sub-nobody' } } });
  });

  it('needs the workspace named, one credential only, and a token that passes every check', async () => {
    const token = await issuer.token(audience, people.ana);
    const call = (headers: Record<string, string>, key: string | null = null) => t.api('/dev/v1/rule', { key, headers });
    const noWorkspace = await call({ authorization: `Bearer ${token}` });
    expectFailure(noWorkspace, 400, 'invalid_request');
    expect(JSON.stringify(noWorkspace.body.data)).toContain('Service-Workspace');
    expectFailure(await call({ authorization: `Bearer ${token}`, 'service-workspace': workspace }, adminKey), 400, 'invalid_request');
    expectFailure(await call({ authorization: `Basic ${token}`, 'service-workspace': workspace }), 401, 'token_malformed');
    const bad = async (claims: Record<string, unknown>) =>
      call({ authorization: `Bearer ${await issuer.token(audience, { ...people.ana, ...claims })}`, 'service-workspace': workspace });
    expectFailure(await bad({ exp: Math.floor(Date.now() / 1000) - 5 }), 401, 'token_expired');
    expectFailure(await bad({ aud: 'someone-else' }), 401, 'token_audience_invalid');
    expectFailure(await bad({ iss: 'https://elsewhere.example' }), 401, 'token_issuer_invalid');
  });

  it('approves as themselves, once, never their own change, and only while the mapping still lets them', async () => {
    expectUnpaged(await t.api('/dev/v1/branches/main/protection', { ...json('PUT', { requiredApprovals: 2 }), key: adminKey }));
    const saved = expectUnpaged(await as('ana')<{ checksum: string }>('/dev/v1/rule', json('POST', simpleRule('people-cr', 'People CR'))), 201);
    const proposal = expectUnpaged(
      await as('ana')<{ id: string }>('/dev/v1/rule/people-cr/change-requests', json('POST', { checksum: saved.checksum, description: 'fee up' })),
      201,
    );
    const approve = (who: keyof typeof people) =>
      as(who)<{ approvalsCounted: number; approvals: { owner: string; counts: boolean; person?: { subject: string } }[] }>(
        `/dev/v1/rule/people-cr/change-requests/${proposal.id}/approve`,
        json('POST', { comment: 'ok' }),
      );
    expectFailure(await approve('ana'), 403, 'forbidden');
    const once = expectUnpaged(await approve('ben'));
    expect(once.approvals).toEqual([
      expect.objectContaining({ owner: 'ben@bank.example', counts: true, person: expect.objectContaining({ subject: 'sub-ben' }) }),
    ]);
    expect(expectUnpaged(await approve('ben')).approvalsCounted).toBe(1);
    expect(expectUnpaged(await approve('cleo')).approvalsCounted).toBe(2);
    // Cleo's approval lapses when the mapping no longer gives her approve on main.
    expectUnpaged(
      await t.api('/dev/v1/access', { ...json('PUT', { ...mapping, people: mapping.people.filter((p) => p.role !== 'publisher') }), key: adminKey }),
    );
    const refused = await as('ben')('/dev/v1/rule/people-cr/publish', json('POST', { changeRequestId: proposal.id }));
    expectFailure(refused, 409, 'approvals_missing');
    expectUnpaged(await t.api('/dev/v1/access', { ...json('PUT', mapping), key: adminKey }));
    expect(
      expectUnpaged(await as('ben')<{ version: string }>('/dev/v1/rule/people-cr/publish', json('POST', { changeRequestId: proposal.id })), 201).version,
    ).toBe('v1');
  });

  it('approves where keys cannot: a service key and a personal key are refused, audited; a personal key is its person', async () => {
    expectUnpaged(await t.api('/dev/v1/branches/main/protection', { ...json('PUT', { requiredApprovals: 2 }), key: adminKey }));
    // A mapping that names people keeps keys from approving: it shows so, and cannot say otherwise.
    expect(expectUnpaged(await t.api<{ keyApprovals: boolean }>('/dev/v1/access', { key: adminKey })).keyApprovals).toBe(false);
    const keyApprovals = await t.api('/dev/v1/access', { ...json('PUT', { ...mapping, keyApprovals: true }), key: adminKey });
    expectFailure(keyApprovals, 400, 'invalid_request');
    expect(keyApprovals.body.data).toEqual({ errors: [{ in: 'body', field: 'keyApprovals', message: expect.stringContaining('no people yet') }] });

    const saved = expectUnpaged(await as('ana')<{ checksum: string }>('/dev/v1/rule', json('POST', simpleRule('people-keys', 'People keys'))), 201);
    const proposal = expectUnpaged(
      await as('ana')<{ id: string }>('/dev/v1/rule/people-keys/change-requests', json('POST', { checksum: saved.checksum, description: 'fee' })),
      201,
    );
    const approvePath = (id: string, cr: string) => `/dev/v1/rule/${id}/change-requests/${cr}/approve`;
    const service = expectUnpaged(
      await t.api<{ key: string }>('/dev/v1/keys', { ...json('POST', { label: 'ci', owner: 'ci-bot', role: 'publisher' }), key: adminKey }),
      201,
    );
    const personal = expectUnpaged(await as('ben')<{ key: string }>('/dev/v1/me/keys', json('POST', { label: 'laptop', role: 'publisher' })), 201);
    for (const key of [service.key, personal.key])
      expectFailure(
        await t.api(approvePath('people-keys', proposal.id), { ...json('POST', { comment: 'ok' }), key, branch: 'main' }),
        403,
        'key_cannot_approve',
      );
    const { records } = expectUnpaged(
      await t.api<{ records: { actor: { owner: string }; detail: { code: string } }[] }>('/dev/v1/audit', {
        key: adminKey,
        query: { operation: 'approveChange', outcome: 'forbidden', targetId: 'people-keys' },
      }),
    );
    expect(records.map((r) => [r.detail.code, r.actor.owner])).toEqual([
      ['key_cannot_approve', 'ben@bank.example'],
      ['key_cannot_approve', 'ci-bot'],
    ]);
    // People approve it as before.
    for (const who of ['ben', 'cleo'] as const) expectUnpaged(await as(who)(approvePath('people-keys', proposal.id), json('POST', { comment: 'ok' })));
    expectUnpaged(await as('ben')('/dev/v1/rule/people-keys/publish', json('POST', { changeRequestId: proposal.id })), 201);

    // What ben's personal key proposes is ben's: he cannot approve it signed in, by his issuer and subject, whatever e-mail his token names now.
    const mine = expectUnpaged(
      await t.api<{ checksum: string }>('/dev/v1/rule', { ...json('POST', simpleRule('people-mine', 'People mine')), key: personal.key, branch: 'main' }),
      201,
    );
    const own = expectUnpaged(
      await t.api<{ id: string }>('/dev/v1/rule/people-mine/change-requests', {
        ...json('POST', { checksum: mine.checksum, description: 'mine' }),
        key: personal.key,
        branch: 'main',
      }),
      201,
    );
    expectFailure(await as('ben')(approvePath('people-mine', own.id), json('POST', { comment: 'ok' })), 403, 'self_approval');
    const renamed = await t.api(approvePath('people-mine', own.id), {
      ...json('POST', { comment: 'ok' }),
      key: null,
      branch: 'main',
      headers: {
        authorization: `Bearer ${await issuer.token(audience, { ...people.ben, email: 'benjamin@bank.example' })}`,
        'service-workspace': workspace,
      },
    });
    expectFailure(renamed, 403, 'self_approval');
  });

  it('makes personal keys with at most their own grants, owned by them, that stop working when their grants no longer cover them', async () => {
    const make = (who: keyof typeof people, body: unknown) =>
      as(who)<{ key: string; keyId: string; owner: string; person?: { subject: string } }>('/dev/v1/me/keys', json('POST', body));
    const made = expectUnpaged(await make('dan', { label: 'laptop', role: 'editor', branches: ['staging'] }), 201);
    expect(made).toMatchObject({ owner: 'dan@bank.example', role: 'editor', branches: ['staging'], person: { subject: 'sub-dan' } });
    // Beyond the person's grants: editor on main (dan only reads there), or on every branch.
    const beyond = await make('dan', { label: 'too much', role: 'editor', branches: ['main'] });
    expectFailure(beyond, 403, 'forbidden');
    expect(beyond.body.data).toMatchObject({ permission: 'write' });
    expectFailure(await make('dan', { label: 'too much', role: 'editor' }), 403, 'forbidden');
    // The owner comes from the token: a body naming one is refused; a key cannot make a personal key.
    expectFailure(await make('dan', { label: 'x', role: 'reader', owner: 'someone-else' }), 400, 'invalid_request');
    expectFailure(await t.api('/dev/v1/me/keys', { ...json('POST', { label: 'x', role: 'reader' }), key: adminKey }), 403, 'people_only');
    // It works as its person's, within its role and branches; its owner does not change.
    const withKey = (path: string, options: Parameters<typeof t.api>[1] = {}) => t.api(path, { branch: 'staging', ...options, key: made.key });
    expect((await withKey('/dev/v1/rule', json('POST', simpleRule('dan-laptop', 'Dan laptop')))).status).toBe(201);
    // The audit log names the key, as a key, and the person it belongs to.
    const created = expectUnpaged(
      await t.api<{ records: { actor: Record<string, unknown> }[] }>('/dev/v1/audit', {
        key: adminKey,
        query: { operation: 'createEntity', targetId: 'dan-laptop' },
      }),
    ).records[0]!.actor;
    expect(created).toEqual({
      kind: 'key',
      keyId: made.keyId,
      owner: 'dan@bank.example',
      role: 'editor',
      person: { issuer: issuer.url, subject: 'sub-dan', email: 'dan@bank.example' },
    });
    expectFailure(await t.api(`/dev/v1/keys/${made.keyId}`, { ...json('PATCH', { owner: 'mallory' }), key: adminKey }), 403, 'personal_key_owner');
    // The mapping no longer gives dan's groups editor on staging: the key stops working.
    expectUnpaged(
      await t.api('/dev/v1/access', { ...json('PUT', { ...mapping, groups: mapping.groups.filter((g) => g.group !== 'staging-editors') }), key: adminKey }),
    );
    expectFailure(await withKey('/dev/v1/rule'), 401, 'service_api_key_invalid');
    expectUnpaged(await t.api('/dev/v1/access', { ...json('PUT', mapping), key: adminKey }));
    expect((await withKey('/dev/v1/rule')).status).toBe(200);
  });

  it('manages the mapping with manage, and cannot take manage away from themselves', async () => {
    expectFailure(await as('ana')('/dev/v1/access'), 403, 'forbidden');
    expect(expectUnpaged(await as('boss')<typeof mapping>('/dev/v1/access')).people).toHaveLength(3);
    const lockout = await as('boss')('/dev/v1/access', json('PUT', { ...mapping, people: [] }));
    expectFailure(lockout, 409, 'self_lockout');
    const unknownBranch = await as('boss')('/dev/v1/access', json('PUT', { ...mapping, groups: [{ group: 'x', role: 'reader', branches: ['nope'] }] }));
    expectFailure(unknownBranch, 400, 'invalid_request');
    expect(JSON.stringify(unknownBranch.body.data)).toContain('groups[0].branches[0]');
    expectUnpaged(await as('boss')('/dev/v1/access', json('PUT', mapping)));
    const { records } = expectUnpaged(
      await t.api<{ records: { operation: string; actor: { owner: string } }[] }>('/dev/v1/audit', { key: adminKey, query: { operation: 'putAccess' } }),
    );
    expect(records[0]!.actor.owner).toBe('boss@bank.example');
  });
});
