/**
 * Remote push through the local HTTP runtime, to repositories on a real Git
 * server on loopback, read back with the git CLI: the commit (files, author,
 * message), a pull of it changing nothing, a push with nothing to change,
 * the refusal when the remote moved behind the service's back (then pull,
 * then push), a branch created, the credential only for the remote's host,
 * who may push, one pull or push of a branch at a time, and the Git host
 * cutting the answer to a push or refusing it. The queue redelivers at once
 * (100 ms visibility timeout, no backoff), so retries take no time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, addBranch } from '../../lib/workspaces/admin.ts';
import { credentialBody, credentialsPath, expectNoSecrets, json, recordingApi, type CredentialView } from '../helpers/credentials.ts';
import { createWorkspaceWithKey, demoInput, ruleSet, simpleRule, workflow } from '../helpers/entities.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import {
  contentOf,
  counts,
  entityFiles,
  pullClient,
  startRepositories,
  startVanishingRemote,
  type Repositories,
  type VanishingRemote,
} from '../helpers/pull.ts';
import { rulesClient } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import type { Api } from '../helpers/api.ts';
import { taskDelivery } from '../../lib/tasks/delivery.ts';

const t = useRuntime({ visibilityTimeoutMs: 100, retryBaseSeconds: 0 });
const { api, answers } = recordingApi(() => t.api);

const TOKEN_HEADER = 'PRIVATE-TOKEN';
const TOKEN = 'glpat-PUSH-s3cret_Value+/=77c1';

let repos: Repositories;
let guarded: Repositories;
let front: VanishingRemote;

beforeAll(async () => {
  [repos, guarded] = await Promise.all([startRepositories(), startRepositories({ requireHeader: { name: TOKEN_HEADER, value: TOKEN } })]);
  front = await startVanishingRemote(repos.url);
});
afterAll(async () => {
  await Promise.all([repos?.close(), guarded?.close(), front?.close()]);
});
afterEach(() => {
  front.answerPushes(undefined);
  expectNoSecrets(answers.join('\n'), [TOKEN], 'an API answer');
  answers.length = 0;
});

const alpha = simpleRule('alpha', 'Alpha');
const beta = ruleSet('beta', 'Beta');
const gone = simpleRule('gone', 'Gone');
const onboard = workflow('onboard', 'Onboard', {
  definition: {
    start: 'check',
    steps: [
      { id: 'check', kind: 'rule', ruleId: 'alpha', next: 'done' },
      { id: 'done', kind: 'end' },
    ],
  },
} as Partial<typeof alpha>);

/**
 * A workspace whose main holds alpha, beta and gone, pulled from a
 * repository (created here) whose main holds them, a README and docs: the
 * remote and the branch in step. Its key is a publisher owned by alice.
 */
async function inStep(id: string, options: { url?: (repository: string) => string } = {}) {
  const { store } = t.runtime;
  const { key: adminKey } = await createWorkspaceWithKey(store, { id });
  const { key } = await createApiKey(store, id, { owner: 'alice', role: 'publisher' });
  const repository = `${id}.git`;
  await repos.create(repository, { main: { ...entityFiles([alpha, beta, gone]), 'README.md': '# Team rules\n', 'docs/how.md': 'How we work\n' } });
  const client = pullClient(api, key);
  // Setting the remote is an admin's (manage); pulling and pushing, alice's.
  expect((await pullClient(api, adminKey).setRemote(options.url?.(repository) ?? repos.repoUrl(repository))).status).toBe(200);
  expect(await client.pullAndWait('main')).toMatchObject({ taskState: 'completed', summary: { rule: counts(3) } });
  const as: Api = (path, request) => api(path, { key, ...request });
  return {
    key,
    adminKey,
    client,
    repository,
    rules: rulesClient(as),
    workflows: rulesClient(as, 'workflow'),
    git: (...args: string[]) => repos.git(repository, ...args),
  };
}

/** Edits on main: alpha changed, gone deleted, onboard added. */
async function editMain({ rules, workflows }: Awaited<ReturnType<typeof inStep>>) {
  const { checksum } = (await rules.get('alpha')).body.data;
  expect((await rules.update('alpha', { checksum, description: 'Edited in the service' })).status).toBe(200);
  expect((await rules.remove('gone')).status).toBe(200);
  expect((await workflows.create(onboard)).status).toBe(201);
}

describe('a push', () => {
  it("commits the branch's changes in the layout a pull reads, by its asker; a pull of it changes nothing; pushing again changes nothing", async () => {
    const remote = await inStep('push-basic');
    const { client, git } = remote;
    const before = git('rev-parse', 'main');
    await editMain(remote);

    const pushed = await client.pushAndWait('main');
    const commit = git('rev-parse', 'main');
    expect(pushed).toMatchObject({
      taskState: 'completed',
      branch: 'main',
      commit,
      summary: { rule: counts(0, 1, 1, 1), workflow: counts(1), ignoredFolders: ['docs'] },
      push: { pushed: true, message: expect.stringMatching(/^Push main from the rules service/) },
    });
    expect(git('rev-parse', 'main^')).toBe(before);
    expect(git('ls-tree', '-r', '--name-only', 'main').split('\n')).toEqual([
      'README.md',
      'docs/how.md',
      'rules/alpha.json',
      'rules/beta.json',
      'workflows/onboard.json',
    ]);
    expect(git('log', '-1', '--format=%an <%ae>%n%cn <%ce>%n%B', 'main').split('\n')).toEqual([
      expect.stringMatching(/^alice <noreply\+key_[0-9a-f]+@rules-service\.invalid>$/),
      'Rules service <noreply@rules-service.invalid>',
      'Push main from the rules service: 1 rule updated (alpha), 1 rule deleted (gone), 1 workflow added (onboard); by alice',
      '',
      'updated rules/alpha.json',
      'deleted rules/gone.json: the branch has no rule "gone" any more',
      'added workflows/onboard.json',
    ]);
    expect(pushed.push?.message).toBe(git('log', '-1', '--format=%B', 'main') + '\n');
    const alphaFile = JSON.parse(git('show', 'main:rules/alpha.json'));
    expect(alphaFile).toEqual({ ...alpha, description: 'Edited in the service' });

    const branchBefore = contentOf(await client.branchState('main'));
    expect(await client.pullAndWait('main')).toMatchObject({
      taskState: 'completed',
      commit,
      summary: { rule: counts(0, 0, 0, 2), workflow: counts(0, 0, 0, 1) },
    });
    expect(contentOf(await client.branchState('main'))).toEqual(branchBefore);

    const again = await client.pushAndWait('main');
    expect(again).toMatchObject({
      taskState: 'completed',
      commit,
      summary: { rule: counts(0, 0, 0, 2), workflow: counts(0, 0, 0, 1) },
      push: { pushed: false },
    });
    expect(git('rev-parse', 'main')).toBe(commit);
  });

  it('from a protected branch is refused at once while a draft there is not what it serves, and the refusal is audited', async () => {
    const remote = await inStep('push-protected');
    const { client, git, rules, adminKey } = remote;
    const before = git('rev-parse', 'main');
    expect((await api('/dev/v1/branches/main/protection', { ...json('PUT', { requiredApprovals: 1 }), key: adminKey })).status).toBe(200);
    const { checksum } = (await rules.get('alpha')).body.data;
    expect((await rules.update('alpha', { checksum, description: 'never approved' })).status).toBe(200);
    const refused = await client.push('main');
    expectFailure(refused, 409, 'branch_protected');
    expect(refused.body.message).toMatch(/^The branch "main" is protected, and 3 drafts there are not what it serves \(rule alpha, /);
    expect(git('rev-parse', 'main')).toBe(before);
    const { records } = expectUnpaged(
      await api<{ records: { operation: string; detail: { code: string } }[] }>('/dev/v1/audit', { key: adminKey, query: { outcome: 'forbidden', limit: 1 } }),
    );
    expect(records.map((r) => [r.operation, r.detail.code])).toEqual([['pushRemote', 'branch_protected']]);
  });

  it('sends nothing when the branch was protected, with a draft other than it serves, after the push was asked for', async () => {
    const remote = await inStep('push-protected-late');
    const { client, git, rules, adminKey } = remote;
    const before = git('rev-parse', 'main');
    const { checksum } = (await rules.get('alpha')).body.data;
    expect((await rules.update('alpha', { checksum, description: 'never approved' })).status).toBe(200);
    const release = repos.hold();
    const { taskId } = await client.startPush('main');
    expect((await api('/dev/v1/branches/main/protection', { ...json('PUT', { requiredApprovals: 1 }), key: adminKey })).status).toBe(200);
    release();
    expect(await client.wait(taskId)).toMatchObject({
      taskState: 'failed',
      error: expect.stringMatching(/^Nothing was pushed: The branch "main" is protected, and 3 drafts there are not what it serves \(rule alpha, /),
    });
    expect(git('rev-parse', 'main')).toBe(before);
    expect(git('show', 'main:rules/alpha.json')).not.toContain('never approved');
  });

  it('records the push in the audit log: who asked, and the commit it sent with its counts', async () => {
    const remote = await inStep('push-audit');
    await editMain(remote);
    const { taskId, commit } = await remote.client.pushAndWait('main');
    const { records } = expectUnpaged(await api<{ records: unknown[] }>('/dev/v1/audit', { key: remote.adminKey, query: { limit: 2 } }));
    const [applied, asked] = records;
    expect(asked).toMatchObject({
      operation: 'pushRemote',
      target: { type: 'task', id: taskId, branch: 'main' },
      actor: { owner: 'alice', role: 'publisher' },
    });
    expect(applied).toMatchObject({
      operation: 'pushApplied',
      target: { type: 'branch', id: 'main', branch: 'main' },
      actor: { owner: 'alice' },
      detail: { taskId, commit, rulesUpdated: 1, rulesDeleted: 1, workflowsAdded: 1 },
    });
  });

  it('refuses a remote that moved since the last pull or push, naming both commits; pulling first lets the push through', async () => {
    const remote = await inStep('push-moved');
    const { client, git, repository, rules } = remote;
    const synced = git('rev-parse', 'main');
    const theirs = await repos.commit(repository, 'main', entityFiles([simpleRule('theirs', 'Theirs')]));
    expect((await rules.create(simpleRule('ours', 'Ours'))).status).toBe(201);

    const refused = await client.pushAndWait('main');
    expect(refused).toMatchObject({ taskState: 'failed' });
    expect(refused.error).toBe(`The remote's main moved from ${synced} to ${theirs} since the last pull or push; pull first, then push again.`);
    expect(git('rev-parse', 'main')).toBe(theirs);

    expect(await client.pullAndWait('main')).toMatchObject({ taskState: 'completed', commit: theirs, summary: { rule: counts(1, 0, 0, 3) } });
    expect(await client.pushAndWait('main')).toMatchObject({ taskState: 'completed', summary: { rule: counts(1, 0, 0, 4) }, push: { pushed: true } });
    expect(git('rev-parse', 'main^')).toBe(theirs);
    expect(git('ls-tree', '--name-only', 'main:rules').split('\n')).toEqual(['alpha.json', 'beta.json', 'gone.json', 'ours.json', 'theirs.json']);
  });

  it("refuses a remote's branch this branch never pulled or pushed", async () => {
    const { client } = await newWorkspace('push-never-pulled');
    await repos.create('never-pulled.git', { main: entityFiles([alpha]) });
    expect((await client.setRemote(repos.repoUrl('never-pulled.git'))).status).toBe(200);
    const at = repos.git('never-pulled.git', 'rev-parse', 'main');
    expect(await client.pushAndWait('main')).toMatchObject({
      taskState: 'failed',
      error: `The remote's main is at ${at}, which this branch has never pulled or pushed; pull first, then push again.`,
    });
  });

  it("creates a branch the remote does not have, from the remote's default branch", async () => {
    const remote = await inStep('push-new-branch');
    const { store } = t.runtime;
    await addBranch(store, 'push-new-branch', 'feature');
    expect((await remote.rules.create(simpleRule('feature-rule', 'Feature rule'), { branch: 'feature' })).status).toBe(201);
    const pushed = await remote.client.pushAndWait('feature');
    expect(pushed).toMatchObject({ taskState: 'completed', summary: { rule: counts(1, 0, 3) }, push: { pushed: true } });
    expect(remote.git('rev-parse', 'feature')).toBe(pushed.commit);
    expect(remote.git('rev-parse', 'feature^')).toBe(remote.git('rev-parse', 'main'));
    expect(remote.git('ls-tree', '-r', '--name-only', 'feature').split('\n')).toEqual(['README.md', 'docs/how.md', 'rules/feature-rule.json']);
    expect(remote.git('log', '-1', '--format=%s', 'feature')).toBe(
      'Create feature from the rules service: 1 rule added (feature-rule), 3 rules deleted (alpha, beta, gone); by alice',
    );
    // In step from now on: a pull of it changes nothing.
    expect(await remote.client.pullAndWait('feature')).toMatchObject({ taskState: 'completed', commit: pushed.commit, summary: { rule: counts(0, 0, 0, 1) } });
  });
});

async function newWorkspace(id: string) {
  const { key } = await createWorkspaceWithKey(t.runtime.store, { id });
  return { key, client: pullClient(api, key) };
}

describe('who may push, and when', () => {
  it('needs the publish permission: an editor pulls but may not push', async () => {
    const { client } = await inStep('push-permission');
    const { key: editorKey } = await createApiKey(t.runtime.store, 'push-permission', { role: 'editor' });
    expectFailure(await pullClient(api, editorKey).push('main'), 403, 'forbidden');
    expect((await client.push('main')).status).toBe(202);
  });

  it('answers an open push again with its task, and refuses a push while a pull of the branch runs (and a pull while a push runs)', async () => {
    const { client, repository } = await inStep('push-busy');
    const release = repos.hold();
    try {
      const pull = await client.start('main');
      const refused = await client.push('main');
      expectFailure(refused, 409, 'remote_busy');
      expect(refused.body.message).toBe(
        `A pull of this branch is in progress (task ${pull.taskId}): push once it has ended (GET /dev/v1/tasks/${pull.taskId}).`,
      );
      release();
      await client.wait(pull.taskId);

      const holdAgain = repos.hold();
      const push = await client.startPush('main');
      expect((await client.startPush('main')).taskId).toBe(push.taskId);
      expectFailure(await client.pull('main'), 409, 'remote_busy', {});
      holdAgain();
      expect(await client.wait(push.taskId)).toMatchObject({ taskState: 'completed', push: { pushed: false } });
    } finally {
      release();
    }
    expect(repos.fetches(repository)).toBeGreaterThan(0);
  });

  it('answers 400 remote_not_configured without a remote, and needs the branch', async () => {
    const { client } = await newWorkspace('push-no-remote');
    expectFailure(await client.push('main'), 400, 'remote_not_configured');
    expectFailure(await api('/dev/v1/remote/push', { method: 'POST', key: client.key }), 400, 'branch_required');
  });
});

describe("the remote's credential", () => {
  async function createCredential(key: string, name: string, value: string): Promise<CredentialView> {
    const response = await api<CredentialView>(credentialsPath, json('POST', credentialBody(name, value, { key: TOKEN_HEADER }), { key }));
    expect(response.status).toBe(201);
    return response.body.data;
  }

  it("is sent in its header to the remote's host, for the fetch and the push, and nowhere else", async () => {
    const { key, client } = await newWorkspace('push-credential');
    await guarded.create('private.git', { main: entityFiles([alpha]) });
    const credential = await createCredential(key, 'git host', TOKEN);
    expect((await client.setRemote(guarded.repoUrl('private.git'), credential.id)).status).toBe(200);
    expect(await client.pullAndWait('main')).toMatchObject({ taskState: 'completed' });
    expect((await rulesClient((path, request) => api(path, { key, ...request })).create(simpleRule('pushed', 'Pushed'))).status).toBe(201);
    guarded.seenHeaders.length = 0;
    expect(await client.pushAndWait('main')).toMatchObject({ taskState: 'completed', push: { pushed: true } });
    expect(guarded.git('private.git', 'ls-tree', '--name-only', 'main:rules').split('\n')).toEqual(['alpha.json', 'pushed.json']);
    const sent = guarded.seenHeaders.filter((header) => header.includes(TOKEN));
    expect(sent.length).toBeGreaterThanOrEqual(4); // the fetch's discovery and pack, the push's discovery and pack
    expect(sent.every((header) => header === `${TOKEN_HEADER.toLowerCase()}: ${TOKEN}`)).toBe(true);

    // Without it the host refuses, and the task says what the push needs.
    expect((await client.setRemote(guarded.repoUrl('private.git'))).status).toBe(200);
    const refused = await client.pushAndWait('main');
    expect(refused).toMatchObject({ taskState: 'failed', error: expect.stringMatching(/requires authentication .*HTTP 401/) });
  });
});

describe("the remote's format", () => {
  it('dmn: decision tables are pushed as DMN files, which a pull then reads back as the same rules', async () => {
    const remote = await inStep('push-dmn');
    const table = { ...demoInput('discount-tier'), id: 'table' };
    expect((await remote.rules.create(table)).status).toBe(201);
    expect((await pullClient(api, remote.adminKey).setRemote(repos.repoUrl(remote.repository), undefined, 'dmn')).status).toBe(200);
    const pushed = await remote.client.pushAndWait('main');
    expect(pushed).toMatchObject({ taskState: 'completed', push: { pushed: true } });
    expect(remote.git('ls-tree', '--name-only', 'main:rules').split('\n')).toContain('table.dmn');
    expect(remote.git('show', 'main:rules/table.dmn')).toContain('<decisionTable');
    const pulled = await remote.client.pullAndWait('main');
    expect(pulled).toMatchObject({ taskState: 'completed', summary: { rule: { added: 0, updated: 0, deleted: 0 } } });
    expect(pulled.summary).not.toHaveProperty('notCarried');
  });
});

describe('a Git host that fails the push', () => {
  const deadLettersOf = (taskId: string) => t.runtime.queue.deadLetters.filter((m) => JSON.parse(m.body).taskId === taskId);

  it('cutting its answer after taking the commit: the next delivery finds its commit there and completes, pushing nothing twice', async () => {
    const remote = await inStep('push-cut', { url: (repository) => `${front.url}/${repository}` });
    await editMain(remote);
    const before = remote.git('rev-parse', 'main');
    front.cutPacks(1, 'git-receive-pack');
    const pushed = await remote.client.pushAndWait('main');
    expect(pushed).toMatchObject({ taskState: 'completed', summary: { rule: counts(0, 1, 1, 1), workflow: counts(1) }, push: { pushed: true } });
    expect(remote.git('rev-list', `${before}..main`)).toBe(pushed.commit);
    expect(deadLettersOf(pushed.taskId)).toEqual([]);
    // In step: a pull changes nothing, and so does another push.
    expect(await remote.client.pullAndWait('main')).toMatchObject({ taskState: 'completed', commit: pushed.commit });
    expect(await remote.client.pushAndWait('main')).toMatchObject({ taskState: 'completed', push: { pushed: false } });
  });

  it('unavailable to pushes: tried on each delivery, then failed; the remote as it was; once it serves them the push completes', async () => {
    const remote = await inStep('push-unavailable', { url: (repository) => `${front.url}/${repository}` });
    await editMain(remote);
    const before = remote.git('rev-parse', 'main');
    front.answerPushes((_request, response) => response.writeHead(503).end('later'));
    const failed = await remote.client.pushAndWait('main');
    await t.runtime.queue.idle();
    expect(failed).toMatchObject({ taskState: 'failed', error: expect.stringMatching(/did not serve the repository \(HTTP 503/) });
    expect(deadLettersOf(failed.taskId).map((m) => m.receiveCount)).toEqual([taskDelivery.maxReceiveCount]);
    expect(remote.git('rev-parse', 'main')).toBe(before);
    front.answerPushes(undefined);
    expect(await remote.client.pushAndWait('main')).toMatchObject({ taskState: 'completed', push: { pushed: true } });
  });

  it('refusing the push (403): failed at once, saying the credential may not push', async () => {
    const remote = await inStep('push-forbidden', { url: (repository) => `${front.url}/${repository}` });
    await editMain(remote);
    front.answerPushes((_request, response) => response.writeHead(403).end('read only'));
    const failed = await remote.client.pushAndWait('main');
    expect(failed).toMatchObject({
      taskState: 'failed',
      error: expect.stringMatching(/refused access .*HTTP 403: pushing needs a credential that can push to it/),
    });
    expect(deadLettersOf(failed.taskId)).toEqual([]);
  });
});
