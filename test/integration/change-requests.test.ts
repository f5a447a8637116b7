/**
 * Maker-checker through the local HTTP runtime: on a protected branch a
 * draft is published only through a change request approved by enough
 * people other than its author (the author's other key is refused too);
 * approvals count once per person, also when they come at once; an edit
 * after the proposal makes the request stale; a rejected or published
 * request is closed; a pull may not delete what is published there. Its
 * workspace has no people: it lets its keys approve (keyApprovals in its
 * access mapping), and once it stops, a key is refused and what keys approved
 * stops counting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/workspaces/admin.ts';
import { credentialBody, credentialPath, credentialsPath, credentialTestPath, json } from '../helpers/credentials.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import { entityFiles, startRepositories, type Repositories } from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { waitForTask } from '../helpers/workflows.ts';

// Every call reads its key as it is now (no warm function's key cache): a key renamed or revoked between two calls is seen at the second.
process.env.DIRECTORY_CACHE_TTL_MS = '0';
const t = useRuntime();
const keys: Record<'admin' | 'bob' | 'bobPublisher' | 'carol' | 'carolAgain' | 'dave', string> = {} as never;

interface Request {
  id: string;
  state: string;
  stale: boolean;
  publishable: boolean;
  requiredApprovals: number;
  approvals: { owner: string; counts: boolean }[];
  approvalsCounted: number;
  diff: { path: string; before?: unknown; after?: unknown }[];
  tests: { total: number; failed: number };
  publishedVersion?: string;
}

const as = (who: keyof typeof keys, branch = 'main') => {
  const call = <D>(path: string, options: Parameters<typeof t.api>[1] = {}) => t.api<D>(path, { branch, ...options, key: keys[who] });
  const requests = (id: string) => `/dev/v1/rule/${id}/change-requests`;
  return {
    call,
    save: (body: unknown) => call<{ checksum: string }>('/dev/v1/rule', json('POST', body)),
    edit: (id: string, checksum: string, description: string) => call<{ checksum: string }>(`/dev/v1/rule/${id}`, json('PATCH', { checksum, description })),
    propose: (id: string, checksum: string) => call<Request>(requests(id), json('POST', { checksum, description: `proposing ${id}` })),
    get: (id: string, cr: string) => call<Request>(`${requests(id)}/${cr}`),
    approve: (id: string, cr: string) => call<Request>(`${requests(id)}/${cr}/approve`, json('POST', { comment: `approved by ${who}` })),
    reject: (id: string, cr: string) => call<Request>(`${requests(id)}/${cr}/reject`, json('POST', { comment: 'not like this' })),
    publish: (id: string, body: unknown = {}) => call<{ version: string }>(`/dev/v1/rule/${id}/publish`, json('POST', body)),
  };
};

/** The request shows these approvals (owner, whether it counts now) on main, which requires two, and its publish is refused for want of the ones that count. */
async function expectShortOfApprovals(id: string, changeRequestId: string, approvals: [string, boolean][]) {
  const shown = expectUnpaged(await as('bob').get(id, changeRequestId));
  expect(shown.approvals.map((a) => [a.owner, a.counts])).toEqual(approvals);
  const counted = approvals.filter(([, counts]) => counts).length;
  expect([shown.approvalsCounted, shown.publishable]).toEqual([counted, false]);
  const refused = await as('dave').publish(id, { changeRequestId });
  expectFailure(refused, 409, 'approvals_missing');
  expect(refused.body.data).toEqual({ approvals: counted, required: 2 });
}

let repos: Repositories;
afterAll(() => repos?.close());

beforeAll(async () => {
  repos = await startRepositories();
  keys.admin = (await createWorkspaceWithKey(t.runtime.store, { id: 'cr-ws', branches: ['staging'] })).key;
  // A workspace without people yet: its keys approve, as it says explicitly.
  expectUnpaged(await t.api('/dev/v1/access', { ...json('PUT', { groups: [], people: [], keyApprovals: true }), key: keys.admin }));
  const make = async (owner: string, role: string) =>
    expectUnpaged(await t.api<{ key: string }>('/dev/v1/keys', { ...json('POST', { label: `${owner} ${role}`, owner, role }), key: keys.admin }), 201).key;
  keys.bob = await make('bob', 'editor');
  keys.bobPublisher = await make('bob', 'publisher');
  keys.carol = await make('carol', 'publisher');
  keys.carolAgain = await make('carol', 'publisher');
  keys.dave = await make('dave', 'publisher');
  const protectedMain = expectUnpaged(await as('admin').call('/dev/v1/branches/main/protection', json('PUT', { requiredApprovals: 2 })));
  expect(protectedMain).toMatchObject({ branch: 'main', protection: { requiredApprovals: 2 } });
});

describe('a protected branch', () => {
  it('shows its protection, needs manage to change it, and refuses a direct publish', async () => {
    const branches = expectUnpaged(await as('bob').call<{ name: string; requiredApprovals: number }[]>('/dev/v1/branches'));
    expect(branches.map((b) => [b.name, b.requiredApprovals])).toEqual([
      ['main', 2],
      ['staging', 0],
    ]);
    expectFailure(await as('carol').call('/dev/v1/branches/main/protection', { method: 'DELETE' }), 403, 'forbidden');
    expectFailure(await as('admin').call('/dev/v1/branches/main/protection', json('PUT', { requiredApprovals: 9 })), 400, 'invalid_request');
    expectFailure(await as('admin').call('/dev/v1/branches/nope/protection', json('PUT', { requiredApprovals: 1 })), 404, 'branch_not_found');
    const saved = expectUnpaged(await as('bob').save(simpleRule('fee', 'Fee')), 201);
    expectFailure(await as('carol').publish('fee', { checksum: saved.checksum }), 409, 'branch_protected');
    // An unprotected branch publishes as before.
    const onStaging = expectUnpaged(await as('bob', 'staging').save(simpleRule('fee', 'Fee')), 201);
    expectUnpaged(await as('carol', 'staging').publish('fee', { checksum: onStaging.checksum }), 201);
  });
});

describe('a change request', () => {
  let checksum: string;
  let request: Request;

  it('is proposed with its diff and tests run; the same proposal again answers it', async () => {
    checksum = expectUnpaged(await as('bob').call<{ checksum: string }>('/dev/v1/rule/fee')).checksum;
    request = expectUnpaged(await as('bob').propose('fee', checksum), 201);
    expect(request).toMatchObject({ state: 'open', stale: false, publishable: false, requiredApprovals: 2, approvals: [] });
    expect(request.diff.map((d) => d.path)).toContain('name');
    expect(expectUnpaged(await as('bob').propose('fee', checksum)).id).toBe(request.id);
    expectFailure(await as('bob').propose('fee', 'f'.repeat(64)), 409, 'checksum_mismatch');
    // Proposing needs write; approving needs approve.
    expectFailure(await as('bob').approve('fee', request.id), 403, 'forbidden');
  });

  it('is not approved by its author, with any key; and counts one approval per person', async () => {
    expectFailure(await as('bobPublisher').approve('fee', request.id), 403, 'self_approval');
    expect(expectUnpaged(await as('carol').approve('fee', request.id)).approvals.map((a) => a.owner)).toEqual(['carol']);
    expect(expectUnpaged(await as('carolAgain').approve('fee', request.id)).approvals.map((a) => a.owner)).toEqual(['carol']);
    const missing = await as('carol').publish('fee', { changeRequestId: request.id });
    expectFailure(missing, 409, 'approvals_missing');
    expect(missing.body.data).toEqual({ approvals: 1, required: 2 });
  });

  it('goes stale when the draft is edited after it: neither approved nor published until proposed again', async () => {
    const edited = expectUnpaged(await as('bob').edit('fee', checksum, 'changed after the proposal'));
    expect(expectUnpaged(await as('carol').get('fee', request.id))).toMatchObject({ stale: true, publishable: false });
    expectFailure(await as('dave').approve('fee', request.id), 409, 'change_request_stale');
    expectFailure(await as('carol').publish('fee', { changeRequestId: request.id }), 409, 'change_request_stale');
    checksum = edited.checksum;
  });

  it('is published once enough people approved at once, each counted once, and is then closed', async () => {
    request = expectUnpaged(await as('bob').propose('fee', checksum), 201);
    const approvals = await Promise.all([
      as('carol').approve('fee', request.id),
      as('dave').approve('fee', request.id),
      as('carolAgain').approve('fee', request.id),
    ]);
    for (const answer of approvals) expect(answer.status).toBe(200);
    const approved = expectUnpaged(await as('bob').get('fee', request.id));
    expect(approved.approvals.map((a) => a.owner).sort()).toEqual(['carol', 'dave']);
    expect(approved.publishable).toBe(true);
    // Publishing needs publish: the editor who proposed cannot.
    expectFailure(await as('bob').publish('fee', { changeRequestId: request.id }), 403, 'forbidden');
    expect(expectUnpaged(await as('dave').publish('fee', { changeRequestId: request.id }), 201).version).toBe('v1');
    expect(expectUnpaged(await as('dave').get('fee', request.id))).toMatchObject({ state: 'published', publishedVersion: 'v1' });
    // A retry of that publish answers the version it made.
    expect(expectUnpaged(await as('dave').publish('fee', { changeRequestId: request.id })).version).toBe('v1');
    expectFailure(await as('carol').approve('fee', request.id), 409, 'change_request_closed');
    expectFailure(await as('bob').propose('fee', checksum), 409, 'nothing_to_propose');
  });

  it('is closed by a rejection; the audit log holds each step', async () => {
    const next = expectUnpaged(await as('bob').edit('fee', checksum, 'a second change'));
    const second = expectUnpaged(await as('bob').propose('fee', next.checksum), 201);
    expect(expectUnpaged(await as('carol').reject('fee', second.id))).toMatchObject({ state: 'rejected' });
    expectFailure(await as('dave').approve('fee', second.id), 409, 'change_request_closed');
    expectFailure(await as('dave').publish('fee', { changeRequestId: second.id }), 409, 'change_request_closed');
    expect(expectUnpaged(await as('bob').call<Request[]>('/dev/v1/rule/fee/change-requests')).map((r) => r.state)).toEqual(['rejected', 'published', 'open']);
    const audit = expectUnpaged(
      await as('admin').call<{ records: { operation: string; actor: { owner: string }; detail?: Record<string, unknown> }[] }>('/dev/v1/audit', {
        query: { targetId: 'fee', branch: 'main' },
      }),
    );
    const steps = audit.records.filter((r) => r.operation !== 'updateEntity' && r.operation !== 'createEntity').map((r) => [r.operation, r.actor.owner]);
    expect(steps.slice(0, 3)).toEqual([
      ['rejectChange', 'carol'],
      ['proposeChange', 'bob'],
      ['publishEntity', 'dave'],
    ]);
    expect(audit.records.find((r) => r.operation === 'publishEntity')!.detail).toMatchObject({ version: 'v1', changeRequestId: request.id });
  });

  it('is not found under another id or entity', async () => {
    expectFailure(await as('bob').get('fee', 'cr_00000000000000000000'), 404, 'change_request_not_found');
    expectFailure(await as('bob').get('fee', 'nope'), 404, 'change_request_not_found');
  });
});

describe('what a protected branch keeps', () => {
  it('refuses to delete a published rule there', async () => {
    expectFailure(await as('bob').call('/dev/v1/rule/fee', { method: 'DELETE' }), 409, 'branch_protected');
    expect((await as('bob').call('/dev/v1/rule/fee')).status).toBe(200);
  });

  it('refuses a pull that would delete what is published there; an unprotected branch takes it', async () => {
    const pulled = simpleRule('pulled', 'Pulled');
    await repos.create('rules.git', { main: entityFiles([pulled]), staging: entityFiles([pulled]) });
    expectUnpaged(await as('admin').call('/dev/v1/remote', json('PUT', { url: repos.repoUrl('rules.git') })));
    const pull = async (branch: string) => {
      const { taskId } = expectUnpaged(await as('bob', branch).call<{ taskId: string }>('/dev/v1/remote/pull', json('POST', {})));
      return (await waitForTask(t.api, taskId, { key: keys.bob })) as unknown as { taskState: string; error?: string };
    };
    // A pull brings drafts: on a protected branch too; they are published through change requests.
    expect((await pull('main')).taskState).toBe('completed');
    const { checksum } = expectUnpaged(await as('bob').call<{ checksum: string }>('/dev/v1/rule/pulled'));
    const request = expectUnpaged(await as('bob').propose('pulled', checksum), 201);
    await Promise.all([as('carol').approve('pulled', request.id), as('dave').approve('pulled', request.id)]);
    expectUnpaged(await as('dave').publish('pulled', { changeRequestId: request.id }), 201);
    // A commit that deletes it: refused whole on the protected branch, taken on the other.
    await repos.commit('rules.git', 'main', {}, ['rules/pulled.json']);
    const refused = await pull('main');
    expect(refused).toMatchObject({ taskState: 'failed', error: expect.stringMatching(/protected.*rule pulled/) });
    expect((await as('bob').call('/dev/v1/rule/pulled')).status).toBe(200);
    expect((await pull('staging')).taskState).toBe('completed');
    expectUnpaged(await as('carol', 'staging').publish('pulled'), 201);
    await repos.commit('rules.git', 'staging', {}, ['rules/pulled.json']);
    expect((await pull('staging')).taskState).toBe('completed');
    expect((await as('bob', 'staging').call('/dev/v1/rule/pulled')).status).toBe(404);
  });
});

describe('doors that stay shut', () => {
  /** Saves `id` on main, has it proposed by bob, approved by carol and dave, and published by dave through the request. */
  async function approvedAndPublished(id: string, checksum: string, body: Record<string, unknown> = {}) {
    const proposal = expectUnpaged(await as('bob').propose(id, checksum), 201);
    expectUnpaged(await as('carol').approve(id, proposal.id));
    expectUnpaged(await as('dave').approve(id, proposal.id));
    return { proposal, published: expectUnpaged(await as('dave').publish(id, { changeRequestId: proposal.id, ...body }), 201) };
  }

  it('a published change request carries no other content: an edit after it is not published under its id, served or as a candidate', async () => {
    const saved = expectUnpaged(await as('bob').save(simpleRule('door-one', 'Door one')), 201);
    const { proposal, published } = await approvedAndPublished('door-one', saved.checksum);
    expect(published.version).toBe('v1');
    const edited = expectUnpaged(await as('bob').edit('door-one', saved.checksum, 'never approved'));
    // Closed for good once published: only a retry of that publish, its content unchanged, answers its version.
    expectFailure(await as('dave').publish('door-one', { checksum: edited.checksum, changeRequestId: proposal.id }), 409, 'change_request_closed');
    expectFailure(
      await as('dave').publish('door-one', { checksum: edited.checksum, changeRequestId: proposal.id, candidate: true }),
      409,
      'change_request_closed',
    );
    expectFailure(await as('dave').publish('door-one', { changeRequestId: proposal.id }), 409, 'change_request_closed');
    const rule = expectUnpaged(await as('dave').call<{ version: string; candidate: unknown }>('/dev/v1/rule/door-one'));
    expect(rule.version).toBe('v1');
    expect(rule.candidate).toBeUndefined();
  });

  it('a rule whose only version is its candidate is not deleted there', async () => {
    const saved = expectUnpaged(await as('bob').save(simpleRule('door-candidate', 'Door candidate')), 201);
    const { published } = await approvedAndPublished('door-candidate', saved.checksum, { candidate: true });
    expect(published).toMatchObject({ version: 'v1', candidate: true });
    expectFailure(await as('bob').call('/dev/v1/rule/door-candidate', { method: 'DELETE' }), 409, 'branch_protected');
    expect(expectUnpaged(await as('bob').call<{ candidate: { version: string } }>('/dev/v1/rule/door-candidate')).candidate.version).toBe('v1');
  });

  it('a body checksum other than the request proposed is refused, even while the request is open', async () => {
    const saved = expectUnpaged(await as('bob').save(simpleRule('door-checksum', 'Door checksum')), 201);
    const proposal = expectUnpaged(await as('bob').propose('door-checksum', saved.checksum), 201);
    expectUnpaged(await as('carol').approve('door-checksum', proposal.id));
    expectUnpaged(await as('dave').approve('door-checksum', proposal.id));
    expectFailure(await as('dave').publish('door-checksum', { checksum: 'f'.repeat(64), changeRequestId: proposal.id }), 409, 'checksum_mismatch');
    expect(expectUnpaged(await as('dave').publish('door-checksum', { checksum: saved.checksum, changeRequestId: proposal.id }), 201).version).toBe('v1');
  });

  it('a stale request stays stale when the draft goes back to what it proposed after another version was published', async () => {
    const first = expectUnpaged(await as('bob').save(simpleRule('door-eight', 'Door eight')), 201);
    const { description } = expectUnpaged(await as('bob').call<{ description: string }>('/dev/v1/rule/door-eight'));
    const old = expectUnpaged(await as('bob').propose('door-eight', first.checksum), 201);
    expectUnpaged(await as('carol').approve('door-eight', old.id));
    expectUnpaged(await as('dave').approve('door-eight', old.id));
    const other = expectUnpaged(await as('bob').edit('door-eight', first.checksum, 'another change'));
    expect((await approvedAndPublished('door-eight', other.checksum)).published.version).toBe('v1');
    // Back to the content the old request proposed: the version published in between keeps it stale.
    const current = expectUnpaged(await as('bob').call<{ checksum: string }>('/dev/v1/rule/door-eight'));
    const back = expectUnpaged(await as('bob').edit('door-eight', current.checksum, description));
    expect(back.checksum).toBe(first.checksum);
    expect(expectUnpaged(await as('carol').get('door-eight', old.id))).toMatchObject({ stale: true, publishable: false });
    expectFailure(await as('dave').publish('door-eight', { changeRequestId: old.id }), 409, 'change_request_stale');
    expect(expectUnpaged(await as('dave').call<{ version: string }>('/dev/v1/rule/door-eight')).version).toBe('v1');
  });

  it('a candidate made before the branch was protected is neither rolled out nor promoted there; one an approved request published is', async () => {
    const rollout = (who: keyof typeof keys, body: unknown) => as(who, 'staging').call('/dev/v1/rule/door-two/rollout', json('PUT', body));
    const promote = (who: keyof typeof keys, candidate: string) =>
      as(who, 'staging').call('/dev/v1/rule/door-two/rollout/promote', json('POST', { candidate }));
    const saved = expectUnpaged(await as('bob', 'staging').save(simpleRule('door-two', 'Door two')), 201);
    expectUnpaged(await as('carol', 'staging').publish('door-two', { checksum: saved.checksum }), 201);
    const edited = expectUnpaged(await as('bob', 'staging').edit('door-two', saved.checksum, 'a candidate'));
    expect(expectUnpaged(await as('carol', 'staging').publish('door-two', { checksum: edited.checksum, candidate: true }), 201).version).toBe('v2');
    expectUnpaged(await as('admin').call('/dev/v1/branches/staging/protection', json('PUT', { requiredApprovals: 1 })));
    try {
      expectFailure(await rollout('carol', { candidate: 'v2', mode: 'canary', percent: 50 }), 409, 'branch_protected');
      expectFailure(await promote('carol', 'v2'), 409, 'branch_protected');
      const rule = async () => expectUnpaged(await as('carol', 'staging').call<{ version: string }>('/dev/v1/rule/door-two'));
      expect((await rule()).version).toBe('v1');
      // Through a change request published as a candidate: its approval covers the rollout and the promotion.
      const next = expectUnpaged(await as('bob', 'staging').edit('door-two', edited.checksum, 'an approved candidate'));
      const proposal = expectUnpaged(await as('bob', 'staging').propose('door-two', next.checksum), 201);
      expectUnpaged(await as('dave', 'staging').approve('door-two', proposal.id));
      const candidate = expectUnpaged(await as('carol', 'staging').publish('door-two', { changeRequestId: proposal.id, candidate: true }), 201);
      expect(candidate.version).toBe('v3');
      expectUnpaged(await rollout('carol', { candidate: 'v3', mode: 'shadow' }));
      expectUnpaged(await promote('carol', 'v3'));
      expect((await rule()).version).toBe('v3');
    } finally {
      expectUnpaged(await as('admin').call('/dev/v1/branches/staging/protection', { method: 'DELETE' }));
    }
  });
});

describe('approvals that no longer stand', () => {
  /** A key made by the admin (a publisher unless said): its secret and its id. */
  const makeKey = async (owner: string, role = 'publisher', branches?: string[]) =>
    expectUnpaged(
      await t.api<{ key: string; keyId: string }>('/dev/v1/keys', {
        ...json('POST', { label: `${owner} ${role}`, owner, role, ...(branches && { branches }) }),
        key: keys.admin,
      }),
      201,
    );
  const call =
    (key: string) =>
    <D = { id: string; checksum: string; key: string; keyId: string; vouchedBy?: string }>(path: string, options: Parameters<typeof t.api>[1] = {}) =>
      t.api<D>(path, { branch: 'main', ...options, key });

  it('an approval by a key revoked before the publish does not count', async () => {
    const erin = await makeKey('erin');
    const saved = expectUnpaged(await as('bob').save(simpleRule('door-seven', 'Door seven')), 201);
    const proposal = expectUnpaged(await as('bob').propose('door-seven', saved.checksum), 201);
    expectUnpaged(await call(erin.key)(`/dev/v1/rule/door-seven/change-requests/${proposal.id}/approve`, json('POST', { comment: 'fine' })));
    expectUnpaged(await as('carol').approve('door-seven', proposal.id));
    expectUnpaged(await as('admin').call(`/dev/v1/keys/${erin.keyId}`, { method: 'DELETE' }));
    const refused = await as('dave').publish('door-seven', { changeRequestId: proposal.id });
    expectFailure(refused, 409, 'approvals_missing');
    expect(refused.body.data).toEqual({ approvals: 1, required: 2 });
    // Another person's approval makes up for it.
    expectUnpaged(await as('dave').approve('door-seven', proposal.id));
    expect(expectUnpaged(await as('dave').publish('door-seven', { changeRequestId: proposal.id }), 201).version).toBe('v1');
  });

  it('an approval by a key made before owners counts, as the person its id names', async () => {
    const { key } = await createApiKey(t.runtime.store, 'cr-ws', { role: 'publisher' });
    const saved = expectUnpaged(await as('bob').save(simpleRule('door-legacy', 'Door legacy')), 201);
    const proposal = expectUnpaged(await as('bob').propose('door-legacy', saved.checksum), 201);
    expectUnpaged(await call(key)(`/dev/v1/rule/door-legacy/change-requests/${proposal.id}/approve`, json('POST', { comment: 'fine' })));
    expectUnpaged(await as('carol').approve('door-legacy', proposal.id));
    expect(expectUnpaged(await as('dave').publish('door-legacy', { changeRequestId: proposal.id }), 201).version).toBe('v1');
  });

  it('a key whose owner was renamed between approvals approves once, not as two people', async () => {
    const frank = await makeKey('frank');
    const saved = expectUnpaged(await as('bob').save(simpleRule('door-four', 'Door four')), 201);
    const proposal = expectUnpaged(await as('bob').propose('door-four', saved.checksum), 201);
    const approve = () => call(frank.key)(`/dev/v1/rule/door-four/change-requests/${proposal.id}/approve`, json('POST', { comment: 'fine' }));
    expectUnpaged(await approve());
    // Its owner is fixed once it approved: the rename is refused, and audited.
    const renamed = await as('admin').call(`/dev/v1/keys/${frank.keyId}`, json('PATCH', { owner: 'frank-again' }));
    expectFailure(renamed, 403, 'owner_fixed');
    expect(renamed.body.data).toMatchObject({ keyId: frank.keyId });
    // A rename that slipped in beside the approval (written under the store, as a race would): the approval under the old name stops counting.
    await t.runtime.store.updateApiKey('cr-ws', frank.keyId, { owner: 'frank-again' });
    expectUnpaged(await approve());
    await expectShortOfApprovals('door-four', proposal.id, [
      ['frank', false],
      ['frank-again', true],
    ]);
  });

  it("an author's own keys renamed to other owners approve nothing of the author's", async () => {
    // Mallory holds an admin key limited to main and a publisher key the workspace's admin made for her.
    const mallory = await makeKey('mallory', 'admin', ['main']);
    const malloryPublisher = await makeKey('mallory', 'publisher', ['main']);
    const saved = expectUnpaged(await call(malloryPublisher.key)('/dev/v1/rule', json('POST', simpleRule('door-rename', 'Door rename'))), 201);
    const proposal = expectUnpaged(
      await call(malloryPublisher.key)('/dev/v1/rule/door-rename/change-requests', json('POST', { checksum: saved.checksum, description: 'mine' })),
      201,
    );
    const approve = (key: string) => call(key)(`/dev/v1/rule/door-rename/change-requests/${proposal.id}/approve`, json('POST', { comment: 'fine' }));
    // The key that proposed keeps its owner; her admin key renames itself, which vouches for nobody.
    expectFailure(await call(mallory.key)(`/dev/v1/keys/${malloryPublisher.keyId}`, json('PATCH', { owner: 'pat' })), 403, 'owner_fixed');
    expectUnpaged(await call(mallory.key)(`/dev/v1/keys/${mallory.keyId}`, json('PATCH', { owner: 'max' })));
    expectFailure(await approve(mallory.key), 403, 'self_approval');
    // A third key of hers, renamed by her admin key: that key answers for the name, so it approves as her.
    const third = await makeKey('mallory', 'publisher', ['main']);
    expectUnpaged(await call(mallory.key)(`/dev/v1/keys/${third.keyId}`, json('PATCH', { owner: 'quinn' })));
    expectFailure(await approve(third.key), 403, 'self_approval');
    expect(expectUnpaged(await as('bob').get('door-rename', proposal.id)).approvals).toEqual([]);
  });

  it('keys minted by a branch-limited manage key do not approve its own request', async () => {
    const minter = await makeKey('mint', 'admin', ['main']);
    const mint = async (owner: string) =>
      expectUnpaged(await call(minter.key)('/dev/v1/keys', json('POST', { label: owner, owner, role: 'publisher', branches: ['main'] })), 201) as unknown as {
        key: string;
        keyId: string;
        vouchedBy: string;
      };
    const [bobby, carla] = [await mint('bobby'), await mint('carla')];
    expect(bobby.vouchedBy).toBe(minter.keyId);
    const saved = expectUnpaged(await call(minter.key)('/dev/v1/rule', json('POST', simpleRule('door-mint', 'Door mint'))), 201);
    const proposal = expectUnpaged(
      await call(minter.key)('/dev/v1/rule/door-mint/change-requests', json('POST', { checksum: saved.checksum, description: 'mine' })),
      201,
    );
    for (const key of [bobby, carla])
      expectFailure(
        await call(key.key)(`/dev/v1/rule/door-mint/change-requests/${proposal.id}/approve`, json('POST', { comment: 'ok' })),
        403,
        'self_approval',
      );
    // A key minted by such a key mints on its maker's behalf too.
    const grandchild = expectUnpaged(
      await call(minter.key)('/dev/v1/keys', json('POST', { label: 'sub', owner: 'sub-admin', role: 'admin', branches: ['main'] })),
      201,
    );
    const minted = expectUnpaged(
      await call(grandchild.key)('/dev/v1/keys', json('POST', { label: 'g', owner: 'gus', role: 'publisher', branches: ['main'] })),
      201,
    ) as unknown as {
      key: string;
    };
    expectFailure(
      await call(minted.key)(`/dev/v1/rule/door-mint/change-requests/${proposal.id}/approve`, json('POST', { comment: 'ok' })),
      403,
      'self_approval',
    );
    // Two keys it minted are one person, its own, on another author's request too.
    const other = expectUnpaged(await as('bob').save(simpleRule('door-mint-other', 'Door mint other')), 201);
    const otherProposal = expectUnpaged(await as('bob').propose('door-mint-other', other.checksum), 201);
    for (const key of [bobby, carla])
      expectUnpaged(await call(key.key)(`/dev/v1/rule/door-mint-other/change-requests/${otherProposal.id}/approve`, json('POST', { comment: 'ok' })));
    const weighed = expectUnpaged(await as('bob').get('door-mint-other', otherProposal.id));
    expect(weighed.approvals.map((a) => [a.owner, a.counts])).toEqual([
      ['bobby', true],
      ['carla', false],
    ]);
    expectFailure(await as('dave').publish('door-mint-other', { changeRequestId: otherProposal.id }), 409, 'approvals_missing');
    // People the minter did not make approve its own.
    expectUnpaged(await as('carol').approve('door-mint', proposal.id));
    expectUnpaged(await as('dave').approve('door-mint', proposal.id));
    expect(expectUnpaged(await as('dave').publish('door-mint', { changeRequestId: proposal.id }), 201).version).toBe('v1');
  });
});

describe('approvals by keys', () => {
  interface Access {
    keyApprovals: boolean;
  }
  interface Records {
    records: { operation: string; actor: { owner: string }; detail?: Record<string, unknown> }[];
  }
  const keyApprovals = async (on: boolean) =>
    expectUnpaged(await as('admin').call<Access>('/dev/v1/access', json('PUT', { groups: [], people: [], ...(on && { keyApprovals: true }) })));
  const audit = async (query: Record<string, string>) => expectUnpaged(await as('admin').call<Records>('/dev/v1/audit', { query })).records;

  it('count only while the workspace lets keys approve: turned off, a key is refused (audited) and what keys approved stops counting', async () => {
    expect(expectUnpaged(await as('admin').call<Access>('/dev/v1/access')).keyApprovals).toBe(true);
    const saved = expectUnpaged(await as('bob').save(simpleRule('door-keys', 'Door keys')), 201);
    const proposal = expectUnpaged(await as('bob').propose('door-keys', saved.checksum), 201);
    for (const who of ['carol', 'dave'] as const) expectUnpaged(await as(who).approve('door-keys', proposal.id));
    expect(expectUnpaged(await as('bob').get('door-keys', proposal.id))).toMatchObject({ approvalsCounted: 2, publishable: true });
    const other = expectUnpaged(await as('bob').save(simpleRule('door-keys-other', 'Door keys other')), 201);
    const otherProposal = expectUnpaged(await as('bob').propose('door-keys-other', other.checksum), 201);
    try {
      // Left out, keyApprovals is false: the default, which the audit record of the change names.
      expect(await keyApprovals(false)).toMatchObject({ keyApprovals: false });
      expect((await audit({ operation: 'putAccess' }))[0]!.detail).toEqual({ groups: 0, people: 0, keyApprovals: false });
      // The approvals given stop counting, shown and at publish.
      await expectShortOfApprovals('door-keys', proposal.id, [
        ['carol', false],
        ['dave', false],
      ]);
      // A key is refused, before the request is read, saying how people approve; the refusal is audited.
      const refused = await as('carol').approve('door-keys-other', otherProposal.id);
      expectFailure(refused, 403, 'key_cannot_approve');
      expect(refused.body.message).toMatch(/people approve, signed in.*keyApprovals/);
      expectFailure(await as('carol').approve('door-keys-other', 'cr_00000000000000000000'), 403, 'key_cannot_approve');
      const refusals = await audit({ operation: 'approveChange', outcome: 'forbidden', targetId: 'door-keys-other' });
      expect(refusals.map((r) => [r.detail?.code, r.actor.owner])).toEqual([
        ['key_cannot_approve', 'carol'],
        ['key_cannot_approve', 'carol'],
      ]);
      expect(expectUnpaged(await as('bob').get('door-keys-other', otherProposal.id)).approvals).toEqual([]);
      // A key still rejects: a rejection publishes nothing.
      expect(expectUnpaged(await as('carol').reject('door-keys-other', otherProposal.id))).toMatchObject({ state: 'rejected' });
    } finally {
      expect(await keyApprovals(true)).toMatchObject({ keyApprovals: true });
    }
    // Turned on again, the keys' approvals weigh as before.
    expect(expectUnpaged(await as('dave').publish('door-keys', { changeRequestId: proposal.id }), 201).version).toBe('v1');
  });
});

describe('a schedule on a protected branch', () => {
  it("changes, input included, without a change request (it runs the approved version), and each change is audited with the input's digest", async () => {
    const saved = expectUnpaged(await as('bob').save(simpleRule('scheduled-fee', 'Scheduled fee')), 201);
    const proposal = expectUnpaged(await as('bob').propose('scheduled-fee', saved.checksum), 201);
    for (const who of ['carol', 'dave'] as const) expectUnpaged(await as(who).approve('scheduled-fee', proposal.id));
    expectUnpaged(await as('dave').publish('scheduled-fee', { changeRequestId: proposal.id }), 201);
    const schedule = (x: string) => ({ unit: 'day', spec: { hour: '6', minute: '0' }, timezone: 'UTC', inputParam: { x } });
    for (const x of ['2', '3.10']) expectUnpaged(await as('bob').call('/dev/v1/rule/scheduled-fee/schedule', json('POST', schedule(x))));
    const { records } = expectUnpaged(
      await as('admin').call<{ records: { operation: string; detail: { inputChecksum: string } }[] }>('/dev/v1/audit', {
        query: { targetType: 'schedule', targetId: 'scheduled-fee' },
      }),
    );
    expect(records.map((r) => r.operation)).toEqual(['saveSchedule', 'saveSchedule']);
    const [second, first] = records.map((r) => r.detail.inputChecksum);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).not.toBe(first);
    expect(JSON.stringify(records)).not.toContain('3.10');
  });
});

describe('refusals', () => {
  interface Records {
    records: { operation: string; outcome: string; actor: { owner: string }; detail?: Record<string, string> }[];
  }
  const refusals = async (query: Record<string, string>) =>
    expectUnpaged(await as('admin').call<Records>('/dev/v1/audit', { query: { outcome: 'forbidden', ...query } })).records.map((r) => [
      r.operation,
      r.detail?.code,
      r.actor.owner,
    ]);

  it('raised by an operation itself are in the audit log with the code the caller got: a self-approval, a protected branch, an escalation', async () => {
    const saved = expectUnpaged(await as('bob').save(simpleRule('door-six', 'Door six')), 201);
    const proposal = expectUnpaged(await as('bob').propose('door-six', saved.checksum), 201);
    expectFailure(await as('bobPublisher').approve('door-six', proposal.id), 403, 'self_approval');
    expectFailure(await as('carol').publish('door-six', { checksum: saved.checksum }), 409, 'branch_protected');
    expect(await refusals({ targetId: 'door-six' })).toEqual([
      ['publishEntity', 'branch_protected', 'carol'],
      ['approveChange', 'self_approval', 'bob'],
    ]);
    const limited = expectUnpaged(
      await t.api<{ key: string }>('/dev/v1/keys', {
        ...json('POST', { label: 'staging admin', owner: 'gina', role: 'admin', branches: ['staging'] }),
        key: keys.admin,
      }),
      201,
    );
    const escalation = await t.api('/dev/v1/keys', {
      ...json('POST', { label: 'beyond', owner: 'gina', role: 'editor', branches: ['main'] }),
      key: limited.key,
      branch: 'staging',
    });
    expectFailure(escalation, 403, 'forbidden');
    expect(await refusals({ operation: 'createKey', owner: 'gina' })).toEqual([['createKey', 'forbidden', 'gina']]);
  });
});

describe('a key limited to branches', () => {
  it("changes and sends out nothing the whole workspace shares, and reads only its branches' audit records", async () => {
    const credential = expectUnpaged(
      await t.api<{ id: string }>(credentialsPath, { ...json('POST', credentialBody('door-five', 'sk-DOOR-five-value')), key: keys.admin }),
      201,
    );
    const limited = expectUnpaged(
      await t.api<{ key: string }>('/dev/v1/keys', {
        ...json('POST', { label: 'main admin', owner: 'hank', role: 'admin', branches: ['main'] }),
        key: keys.admin,
      }),
      201,
    );
    const call = (path: string, options: Parameters<typeof t.api>[1] = {}) => t.api(path, { branch: 'main', ...options, key: limited.key });
    expectFailure(await call(credentialPath(credential.id), json('PATCH', { allowedHosts: ['attacker.example'] })), 403, 'forbidden');
    expectFailure(await call(credentialTestPath(credential.id), json('POST', { url: 'http://127.0.0.1:1/' })), 403, 'forbidden');
    expectFailure(await call('/dev/v1/remote', json('PUT', { url: 'https://attacker.example/rules.git' })), 403, 'forbidden');
    expectFailure(await call('/dev/v1/audit/export'), 403, 'forbidden');
    // Reads of what the workspace shares stay open: a workflow on its branch names credentials.
    expect((await call(credentialPath(credential.id))).status).toBe(200);
    const seen = expectUnpaged(
      await (call as typeof t.api)<{ records: { target: { branch?: string } }[] }>('/dev/v1/audit', { query: { limit: '100' } }),
    ).records;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((record) => record.target.branch === 'main')).toBe(true);
  });
});
