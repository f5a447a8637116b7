/**
 * Maker-checker as a property: random sequences of edits, proposals,
 * approvals, key renames, mints and revocations, publishes (plain, through a
 * request, as a candidate, with the body's checksum or another), rollouts,
 * promotes, rollout ends and pushes, by random keys of a workspace whose main
 * needs two approvals, through the local HTTP runtime and a real Git remote.
 * The workspace has no people: its access mapping lets its keys approve.
 *
 * The test keeps its own account of who is behind each key, by the trust the
 * service states (docs/governance.md): a key the operator made, or an admin
 * limited to no branch made or renamed, is the person it names; a key that
 * mallory (an admin limited to main) made or renamed is mallory's. After
 * every step:
 *
 * - what main serves, and the candidate any running rollout runs, is content
 *   that a change request proposed and that, when it was published, two
 *   people other than its author had approved with keys that were still
 *   unrevoked, still of the owner they approved as (or it is the content
 *   served before the branch was protected);
 * - every push that went through sent such content;
 * - a step the service refused (403, or 409 branch_protected) left exactly
 *   one more refusal in the audit log, and a step that failed in any way
 *   changed nothing of the rule, its rollout, its requests, the keys or the
 *   remote.
 *
 * At the end of each sequence the audit log verifies and holds each refusal
 * the sequence met. Bounded: 16 sequences of at most 36 steps, every wait
 * bounded in time; every server on loopback.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/workspaces/admin.ts';
import type { ApiResponse, RequestOptions } from '../helpers/api.ts';
import { json } from '../helpers/credentials.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import { expectUnpaged } from '../helpers/envelope.ts';
import { RefusalLedger, Tally } from '../helpers/governance.ts';
import { entityFiles, startRepositories, type Repositories } from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';

// Every call reads its key as it is now: a key renamed or revoked in one step is seen in the next.
process.env.DIRECTORY_CACHE_TTL_MS = '0';
const t = useRuntime();
let repos: Repositories;
beforeAll(async () => {
  repos = await startRepositories();
});
afterAll(() => repos?.close());

const rule = (description: string) => simpleRule('fee', 'Fee', { description });
const names = ['alice', 'bob', 'carol', 'dave', 'mallory', 'zed'] as const;

interface Key {
  secret: string;
  keyId: string;
  /** Who is behind it, as the test knows. */
  person: string;
}

interface Request {
  id: string;
  checksum: string;
  description: string;
  authorKeyId: string;
}

type Step =
  | { kind: 'edit'; who: number; value: number }
  | { kind: 'propose'; who: number }
  | { kind: 'approve'; who: number; request: number }
  | { kind: 'rename'; by: 'root' | 'mallory'; target: number; owner: (typeof names)[number] }
  | { kind: 'revoke'; target: number }
  | { kind: 'mint'; by: 'root' | 'mallory'; owner: (typeof names)[number] }
  | { kind: 'publish'; who: number; request: number | null; candidate: boolean; checksum: 'none' | 'draft' | 'request' }
  | { kind: 'rollout'; who: number; mode: 'canary' | 'shadow' }
  | { kind: 'promote'; who: number }
  | { kind: 'endRollout'; who: number }
  | { kind: 'push'; who: number };

const who = fc.nat({ max: 30 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('edit' as const), who, value: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('propose' as const), who }) },
  { weight: 9, arbitrary: fc.record({ kind: fc.constant('approve' as const), who, request: fc.nat({ max: 10 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rename' as const),
      by: fc.constantFrom('root' as const, 'mallory' as const),
      target: who,
      owner: fc.constantFrom(...names),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), target: who }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('mint' as const), by: fc.constantFrom('root' as const, 'mallory' as const), owner: fc.constantFrom(...names) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('publish' as const),
      who,
      request: fc.option(fc.nat({ max: 10 }), { nil: null, freq: 5 }),
      candidate: fc.boolean(),
      checksum: fc.constantFrom('none' as const, 'draft' as const, 'request' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rollout' as const), who, mode: fc.constantFrom('canary' as const, 'shadow' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('promote' as const), who }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('endRollout' as const), who }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('push' as const), who }) },
);

/**
 * A review as people run one, of random keys: an edit, its proposal, two
 * approvals and a publish, then a push; published as a candidate, it is
 * canaried and promoted before the push.
 */
const review: fc.Arbitrary<Step[]> = fc
  .tuple(fc.integer({ min: 1, max: 4 }), who, who, who, who, fc.boolean())
  .map(([value, author, first, second, publisher, candidate]) => [
    { kind: 'edit', who: author, value },
    { kind: 'propose', who: author },
    { kind: 'approve', who: first, request: 0 },
    { kind: 'approve', who: second, request: 0 },
    { kind: 'publish', who: publisher, request: 0, candidate, checksum: 'none' },
    ...(candidate
      ? ([
          { kind: 'rollout', who: publisher, mode: 'canary' },
          { kind: 'promote', who: publisher },
        ] as const)
      : []),
    { kind: 'push', who: publisher },
  ]);
const steps = fc
  .array(fc.oneof({ weight: 3, arbitrary: step.map((one) => [one]) }, { weight: 2, arbitrary: review }), { minLength: 4, maxLength: 14 })
  .map((chunks) => chunks.flat().slice(0, 36));

interface RuleView {
  checksum: string;
  description: string;
  version?: string;
  candidate?: { version: string; checksum: string };
}
interface RolloutView {
  rollout: { state: string; candidate: string; mode: string } | null;
}
interface RequestView {
  id: string;
  state: string;
  approvals: { owner: string; keyId: string }[];
  publishedVersion?: string;
}
interface KeyView {
  keyId: string;
  owner: string;
  revokedAt?: string;
  ownerFixedAt?: string;
  vouchedBy?: string;
}

let sequence = 0;
const tally = new Tally();

/** One workspace, its keys and its remote, in the state every sequence starts from. */
async function setUp() {
  const workspaceId = `gov-${++sequence}`;
  const { store } = t.runtime;
  const made = await createWorkspaceWithKey(store, { id: workspaceId });
  const root: Key = { secret: made.key, keyId: made.keyId, person: made.keyId };
  const operatorKey = async (owner: string, role: 'publisher' | 'editor' | 'admin', branches?: string[]) => {
    const { key, record } = await createApiKey(store, workspaceId, { label: owner, owner, role, ...(branches && { branches }) });
    return { secret: key, keyId: record.keyId, person: owner };
  };
  const keys: Key[] = [
    await operatorKey('alice', 'publisher'),
    await operatorKey('bob', 'publisher'),
    await operatorKey('carol', 'publisher'),
    await operatorKey('dave', 'editor'),
    await operatorKey('mallory', 'admin', ['main']),
  ];
  const mallory = keys[4]!;
  const api = <D>(key: Key, path: string, options: RequestOptions = {}) => t.api<D>(path, { branch: 'main', ...options, key: key.secret });
  // A workspace without people: its keys approve, as it says explicitly.
  expectUnpaged(await api(root, '/dev/v1/access', json('PUT', { groups: [], people: [], keyApprovals: true })));

  // Before the branch is protected: v1 ('v0') is served, and v2 ('pre') is a candidate no request approved.
  const repository = `${workspaceId}.git`;
  await repos.create(repository, { main: entityFiles([rule('v0')]) });
  expectUnpaged(await api(root, '/dev/v1/remote', json('PUT', { url: repos.repoUrl(repository) })));
  const pulled = expectUnpaged(await api<{ taskId: string }>(root, '/dev/v1/remote/pull', json('POST', {})));
  expect(await waitForTask(api, root, pulled.taskId)).toBe('completed');
  const draft = expectUnpaged(await api<RuleView>(root, '/dev/v1/rule/fee'));
  expectUnpaged(await api(root, '/dev/v1/rule/fee/publish', json('POST', { checksum: draft.checksum })), 201);
  const edited = expectUnpaged(await api<RuleView>(root, '/dev/v1/rule/fee', json('PATCH', { checksum: draft.checksum, description: 'pre' })));
  expectUnpaged(await api(root, '/dev/v1/rule/fee/publish', json('POST', { checksum: edited.checksum, candidate: true })), 201);
  expectUnpaged(await api(root, '/dev/v1/rule/fee', json('PATCH', { checksum: edited.checksum, description: 'v0' })));
  expect(expectUnpaged(await api<RuleView>(root, '/dev/v1/rule/fee')).description).toBe('v0');
  expectUnpaged(await api(root, '/dev/v1/branches/main/protection', json('PUT', { requiredApprovals: 2 })));
  return { workspaceId, root, mallory, keys, api, repository };
}

async function waitForTask(api: <D>(key: Key, path: string) => Promise<ApiResponse<D>>, key: Key, taskId: string) {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const { taskState } = expectUnpaged(await api<{ taskState: string }>(key, `/dev/v1/tasks/${taskId}`));
    if (taskState === 'completed' || taskState === 'failed') return taskState;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} did not end within 15 s`);
}

async function runSequence(steps: Step[]) {
  const world = await setUp();
  const { root, mallory, keys, api, repository } = world;
  const pick = (index: number) => keys[index % keys.length]!;
  const requests: Request[] = [];
  /** The request a step names: most often the newest, which an edit has not made stale yet. */
  const requestAt = (index: number) => requests[Math.max(0, requests.length - 1 - (index % 3 === 0 ? index : 0))] ?? requests[0]!;
  /** Content some approved request published, or served before the protection. */
  const approved = new Set(['v0']);
  const ledger = new RefusalLedger((path, query) => api(root, path, { query }));

  const snapshot = async () => {
    const draft = expectUnpaged(await api<RuleView>(root, '/dev/v1/rule/fee'));
    const served = draft.version ? expectUnpaged(await api<RuleView>(root, '/dev/v1/rule/fee', { query: { version: draft.version } })).description : undefined;
    const { rollout } = expectUnpaged(await api<RolloutView>(root, '/dev/v1/rule/fee/rollout'));
    const running = rollout?.state === 'running' ? rollout : undefined;
    const runs = running && expectUnpaged(await api<RuleView>(root, '/dev/v1/rule/fee', { query: { version: running.candidate } })).description;
    const changeRequests = expectUnpaged(await api<RequestView[]>(root, '/dev/v1/rule/fee/change-requests')).map(
      ({ id, state, approvals, publishedVersion }) => ({
        id,
        state,
        approvals: approvals.map((a) => [a.owner, a.keyId]),
        publishedVersion,
      }),
    );
    const keyList = expectUnpaged(await api<KeyView[]>(root, '/dev/v1/keys')).map(({ keyId, owner, revokedAt, ownerFixedAt, vouchedBy }) => ({
      keyId,
      owner,
      revokedAt,
      ownerFixedAt,
      vouchedBy,
    }));
    const remote = repos.git(repository, 'rev-parse', 'main');
    return { draft, served, running, runs, changeRequests, keys: keyList, remote };
  };

  /** Whether the request, as it stands, had two approvals by people other than its author, by the test's own account. */
  const approvedByTwo = async (request: Request) => {
    const view = expectUnpaged(await api<RequestView>(root, `/dev/v1/rule/fee/change-requests/${request.id}`));
    const current = new Map((await snapshot()).keys.map((k) => [k.keyId, k]));
    const personOf = (keyId: string) => [...keys, root].find((k) => k.keyId === keyId)?.person;
    const author = personOf(request.authorKeyId);
    const people = new Set(
      view.approvals
        .filter(({ owner, keyId }) => {
          const key = current.get(keyId);
          return key && !key.revokedAt && key.owner === owner;
        })
        .map(({ keyId }) => personOf(keyId))
        .filter((person) => person !== undefined && person !== author),
    );
    return people.size >= 2;
  };

  let before = await snapshot();
  for (const [at, action] of steps.entries()) {
    const context = `step ${at + 1} of ${JSON.stringify(steps.slice(0, at + 1))}`;
    let response: ApiResponse | undefined;
    let pushed: string | undefined;
    switch (action.kind) {
      case 'edit': {
        response = await api(pick(action.who), '/dev/v1/rule/fee', json('PATCH', { checksum: before.draft.checksum, description: `v${action.value}` }));
        break;
      }
      case 'propose': {
        const author = pick(action.who);
        response = await api<{ id: string; checksum: string }>(
          author,
          '/dev/v1/rule/fee/change-requests',
          json('POST', { checksum: before.draft.checksum, description: 'a change' }),
        );
        const made = response.body.data as { id?: string } | null;
        if (response.status === 201 && made?.id)
          requests.push({ id: made.id, checksum: before.draft.checksum, description: before.draft.description, authorKeyId: author.keyId });
        break;
      }
      case 'approve': {
        if (!requests.length) continue;
        const request = requestAt(action.request);
        response = await api(pick(action.who), `/dev/v1/rule/fee/change-requests/${request.id}/approve`, json('POST', { comment: 'ok' }));
        break;
      }
      case 'rename': {
        const target = pick(action.target);
        if (target === root) continue;
        response = await api(action.by === 'root' ? root : mallory, `/dev/v1/keys/${target.keyId}`, json('PATCH', { owner: action.owner }));
        if (response.status === 200) target.person = action.by === 'root' ? action.owner : mallory.person;
        break;
      }
      case 'revoke': {
        response = await api(root, `/dev/v1/keys/${pick(action.target).keyId}`, { method: 'DELETE' });
        break;
      }
      case 'mint': {
        if (keys.length >= 12) continue;
        const by = action.by === 'root' ? root : mallory;
        response = await api<{ key: string; keyId: string }>(
          by,
          '/dev/v1/keys',
          json('POST', { label: action.owner, owner: action.owner, role: 'publisher', ...(by === mallory && { branches: ['main'] }) }),
        );
        const made = response.body.data as { key?: string; keyId?: string } | null;
        if (response.status === 201 && made?.key && made.keyId)
          keys.push({ secret: made.key, keyId: made.keyId, person: by === root ? action.owner : mallory.person });
        break;
      }
      case 'publish': {
        const request = action.request === null || !requests.length ? undefined : requestAt(action.request);
        const checksum = action.checksum === 'draft' ? before.draft.checksum : action.checksum === 'request' ? request?.checksum : undefined;
        response = await api(
          pick(action.who),
          '/dev/v1/rule/fee/publish',
          json('POST', { ...(request && { changeRequestId: request.id }), ...(action.candidate && { candidate: true }), ...(checksum && { checksum }) }),
        );
        if (response.status === 201) {
          expect(request, `${context}: published with no change request`).toBeDefined();
          expect(await approvedByTwo(request!), `${context}: published without two people's approvals`).toBe(true);
          approved.add(request!.description);
        }
        break;
      }
      case 'rollout': {
        const candidate = before.draft.candidate?.version ?? 'v2';
        response = await api(
          pick(action.who),
          '/dev/v1/rule/fee/rollout',
          json('PUT', { candidate, mode: action.mode, ...(action.mode === 'canary' && { percent: 50 }) }),
        );
        break;
      }
      case 'promote': {
        response = await api(pick(action.who), '/dev/v1/rule/fee/rollout/promote', json('POST', { candidate: before.draft.candidate?.version ?? 'v2' }));
        break;
      }
      case 'endRollout': {
        response = await api(pick(action.who), '/dev/v1/rule/fee/rollout', { method: 'DELETE' });
        break;
      }
      case 'push': {
        const pusher = pick(action.who);
        response = await api<{ taskId: string }>(pusher, '/dev/v1/remote/push', json('POST', {}));
        const started = response.body.data as { taskId?: string } | null;
        if (response.status === 202 && started?.taskId && (await waitForTask(api, root, started.taskId)) === 'completed')
          pushed = (JSON.parse(repos.git(repository, 'show', 'main:rules/fee.json')) as { description: string }).description;
        break;
      }
    }
    const after = await snapshot();
    tally.add(action.kind, response!);
    await ledger.check(context, response!, before, after);
    if (after.served !== undefined) expect(approved, `${context}: main serves ${after.served}`).toContain(after.served);
    if (after.runs !== undefined) expect(approved, `${context}: a rollout runs ${after.runs}`).toContain(after.runs);
    if (pushed !== undefined) expect(approved, `${context}: pushed ${pushed}`).toContain(pushed);
    before = after;
  }
  await ledger.expectAllRecorded();
}

describe('a protected branch under random sequences of changes by random keys', () => {
  it('serves, runs and pushes only content two other people approved; each refusal is audited and changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(steps, (sequence) => runSequence(sequence)),
      { numRuns: 16, endOnFailure: true, interruptAfterTimeLimit: 150_000 },
    );
    // The sequences reached what the property is about: publishes through requests, rollouts and pushes that went through, and refusals.
    tally.expectReached('governance', [
      'publish 201',
      'propose 201',
      'approve 200',
      'push 202',
      'publish 409 branch_protected',
      'rollout 409 branch_protected',
    ]);
  }, 200_000);
});
