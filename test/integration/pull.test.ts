/**
 * Remote pull through the local HTTP runtime against a real Git server on
 * loopback: what a pull adds, updates, deletes and leaves alone, that a bad
 * commit changes nothing, one open pull per branch, and the envelopes of the
 * pull and task operations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { entityInputSchema, entityTypeOf, type EntityInput } from '../../lib/entities/schema.ts';
import type { RepositoryFiles } from '../../lib/local/git-server.ts';
import { startPull } from '../../lib/remote/start.ts';
import type { Task } from '../../lib/store/types.ts';
import { createWorkspaceWithKey, ruleSet, simpleRule, workflow } from '../helpers/entities.ts';
import { expectFailure } from '../helpers/envelope.ts';
import {
  counts,
  entityFiles,
  expectBareFailure,
  expectTask,
  filePath,
  legacyPullPath,
  legacyTaskPath,
  pullClient,
  pullPath,
  startRepositories,
  taskPath,
  type BranchState,
  type PullClient,
  type Repositories,
} from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
let repos: Repositories;

beforeAll(async () => {
  repos = await startRepositories();
});
afterAll(async () => {
  await repos?.close();
});

/** A workspace of its own, with its own repository (branch → files) as its remote. */
async function workspaceWithRemote(id: string, branches: Record<string, RepositoryFiles>, options: { branches?: string[]; entities?: EntityInput[] } = {}) {
  const { key } = await createWorkspaceWithKey(t.runtime.store, { id, ...options });
  const commits = await repos.create(`${id}.git`, branches);
  const client = pullClient(t.api, key);
  expect((await client.setRemote(repos.repoUrl(`${id}.git`))).status).toBe(200);
  return { key, client, commits, repository: `${id}.git` };
}

/** What the store recorded as the branch's last pulled commit. */
const syncedCommit = async (workspaceId: string, branch: string) => (await t.runtime.store.getBranchSync(workspaceId, branch))?.syncedCommit;

/** The working copy as the API serves it must be the input (with defaults applied). */
function expectEntity(state: BranchState, input: EntityInput) {
  const parsed = entityInputSchema.parse(input);
  const type = entityTypeOf(parsed.type);
  const detail = state.details[`${type}/${parsed.id}`];
  expect(detail, `${type} ${parsed.id}`).toBeDefined();
  expect(detail).toMatchObject({
    id: parsed.id,
    name: parsed.name,
    description: parsed.description,
    type: parsed.type,
    tags: parsed.tags,
    definition: parsed.definition,
    checksum: entityChecksum(parsed),
  });
}

describe('pulling a branch from the remote', () => {
  const r1 = simpleRule('r1', 'Rule one');
  const r2 = ruleSet('r2', 'Rule two');
  const r3 = simpleRule('r3', 'Rule three');
  const w1 = workflow('w1', 'Flow one');
  const local = simpleRule('local-only', 'Made here');

  const r2Changed = ruleSet('r2', 'Rule two', {
    definition: { strategy: 'allMatch', rules: [{ id: 'a', priority: 2, when: 'x > 5', then: [{ set: 'z', value: 9 }] }] },
  } as Partial<EntityInput>);
  const w1Renamed = workflow('w1', 'Flow one, renamed');
  const r4 = simpleRule('r4', 'Rule four');
  const w2 = workflow('w2', 'Flow two');

  let client: PullClient;
  let key: string;
  let repository: string;
  let commits: Record<string, string>;

  beforeAll(async () => {
    ({ client, key, repository, commits } = await workspaceWithRemote(
      'sync',
      {
        main: {
          ...entityFiles([r1, r2, r3, w1]),
          'docs/README.md': '# rules\n',
          'scripts/check.sh': 'exit 0\n',
          'README.md': 'top-level files are not entities\n',
          'rules/notes.txt': 'not JSON, not an entity\n',
        },
      },
      { entities: [local] },
    ));
  });

  it('adds every entity of the first commit, records the commit, reports ignored folders', async () => {
    const before = await client.branchState('main');
    expect(before.lists).toEqual({ rule: ['local-only'], workflow: [] });

    const { taskId, taskState } = await client.start('main');
    expect(taskState).toBe('pending');
    const task = await client.wait(taskId);
    expect(task).toEqual({
      taskId,
      taskState: 'completed',
      branch: 'main',
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      commit: commits.main,
      summary: { rule: counts(3), workflow: counts(1), ignoredFolders: ['docs', 'scripts'] },
    });
    expect(Date.parse(task.createdAt)).toBeLessThanOrEqual(Date.parse(task.startedAt!));
    expect(Date.parse(task.startedAt!)).toBeLessThanOrEqual(Date.parse(task.finishedAt!));
    expect(await syncedCommit('sync', 'main')).toBe(task.commit);

    const after = await client.branchState('main');
    expect(after.totals).toEqual({ rule: 4, workflow: 1 });
    expect(after.lists).toEqual({ rule: ['local-only', 'r1', 'r2', 'r3'], workflow: ['w1'] });
    for (const input of [r1, r2, r3, w1, local]) expectEntity(after, input);
    for (const id of ['r1', 'r2', 'r3'])
      expect(after.details[`rule/${id}`]).toMatchObject({ revision: 1, createdBy: 'pull', updatedBy: 'pull', status: 'draft' });
    // An entity the remote never had is the branch's own: left exactly as it was.
    expect(after.details['rule/local-only']).toEqual(before.details['rule/local-only']);

    // Both task operations show the same view.
    const legacy = expectTask(await client.task(taskId, { legacy: true }));
    expect(legacy).toEqual(task);
  });

  it('applies a commit that adds, modifies and deletes files: exact counts, the list follows', async () => {
    const before = await client.branchState('main');
    const second = await repos.commit(
      repository,
      'main',
      {
        ...entityFiles([r2Changed, w1Renamed, r4, w2]),
        // The same record, formatted otherwise: the same content, so not a change.
        [filePath(r1)]: JSON.stringify(r1),
      },
      [filePath(r3), 'docs/README.md'],
    );
    expect(second).not.toBe(commits.main);

    const task = await client.pullAndWait('main');
    expect(task).toMatchObject({
      taskState: 'completed',
      commit: second,
      summary: { rule: counts(1, 1, 1, 1), workflow: counts(1, 1, 0, 0), ignoredFolders: ['scripts'] },
    });
    expect(task).not.toHaveProperty('error');
    expect(await syncedCommit('sync', 'main')).toBe(second);

    const after = await client.branchState('main');
    expect(after.totals).toEqual({ rule: 4, workflow: 2 });
    expect(after.lists).toEqual({ rule: ['local-only', 'r1', 'r2', 'r4'], workflow: ['w1', 'w2'] });
    for (const input of [r1, r2Changed, r4, w1Renamed, w2, local]) expectEntity(after, input);
    expectFailure(await t.api('/dev/v1/rule/r3', { key, branch: 'main' }), 404, 'entity_not_found');
    // Written only where the content changed, keeping when and by whom each was created.
    expect(after.details['rule/r1']).toEqual(before.details['rule/r1']);
    expect(after.details['rule/local-only']).toEqual(before.details['rule/local-only']);
    for (const id of ['rule/r2', 'workflow/w1']) {
      expect(after.details[id]).toMatchObject({ revision: 2, createdAt: before.details[id]!.createdAt, createdBy: 'pull' });
      expect(Date.parse(after.details[id]!.updatedAt)).toBeGreaterThan(Date.parse(before.details[id]!.updatedAt));
    }
  });

  it('pulls the same commit again without writing anything', async () => {
    const before = await client.branchState('main');
    const fetched = repos.fetches(repository);
    const commit = await syncedCommit('sync', 'main');

    const task = await client.pullAndWait('main');
    expect(task).toMatchObject({
      taskState: 'completed',
      commit,
      summary: { rule: counts(0, 0, 0, 3), workflow: counts(0, 0, 0, 2), ignoredFolders: ['scripts'] },
    });
    expect(repos.fetches(repository)).toBe(fetched + 1);
    // Every entity exactly as before: same revision, same updatedAt, same content.
    expect(await client.branchState('main')).toEqual(before);
  });
});

describe('a commit with invalid files', () => {
  const good = simpleRule('good', 'Good rule');
  const flow = workflow('flow', 'A flow');

  it('fails the task, names every bad file, and leaves the branch as it was', async () => {
    const { client, repository, commits } = await workspaceWithRemote('invalid', { main: entityFiles([good, flow]) });
    expect(await client.pullAndWait('main')).toMatchObject({ taskState: 'completed', commit: commits.main });
    const before = await client.branchState('main');

    await repos.commit(
      repository,
      'main',
      {
        // Valid changes beside the bad files: none of them may be applied.
        ...entityFiles([simpleRule('good', 'Good rule, edited'), simpleRule('fresh', 'Would be new')]),
        'rules/broken.json': '{ "id": "broken", "name": ',
        'rules/no-definition.json': JSON.stringify({ id: 'no-definition', name: 'Missing its definition', type: 'simpleRule' }),
        'workflows/bad-id.json': JSON.stringify({ ...flow, id: '-starts-with-dash' }),
        'workflows/misplaced.json': JSON.stringify(simpleRule('misplaced', 'A rule among workflows')),
      },
      [filePath(flow)],
    );

    const task = await client.pullAndWait('main');
    expect(task.taskState).toBe('failed');
    expect(task).not.toHaveProperty('summary');
    expect(task).not.toHaveProperty('commit');
    expect(task.error).toMatch(/^Nothing was applied: 4 file\(s\) are invalid\./);
    expect(task.error).toContain('rules/broken.json: not valid JSON');
    expect(task.error).toMatch(/rules\/no-definition\.json: definition: /);
    expect(task.error).toMatch(/workflows\/bad-id\.json: id: /);
    expect(task.error).toContain('workflows/misplaced.json: a simpleRule belongs in rules/, not workflows/');
    for (const fine of ['rules/good.json', 'rules/fresh.json']) expect(task.error).not.toContain(fine);

    // Nothing written or deleted, and the last pulled commit is still the first one.
    expect(await client.branchState('main')).toEqual(before);
    expect(await syncedCommit('invalid', 'main')).toBe(commits.main);

    // Fixed in the next commit: the branch can be pulled again.
    const fixed = await repos.commit(repository, 'main', {}, [
      'rules/broken.json',
      'rules/no-definition.json',
      'workflows/bad-id.json',
      'workflows/misplaced.json',
    ]);
    expect(await client.pullAndWait('main')).toMatchObject({
      taskState: 'completed',
      commit: fixed,
      summary: { rule: counts(1, 1, 0, 0), workflow: counts(0, 0, 1, 0), ignoredFolders: [] },
    });
    expect((await client.branchState('main')).lists).toEqual({ rule: ['fresh', 'good'], workflow: [] });
  });

  it('refuses two files with the same id', async () => {
    const { client } = await workspaceWithRemote('duplicates', {
      main: { 'rules/a.json': JSON.stringify(simpleRule('same', 'First')), 'rules/b.json': JSON.stringify(simpleRule('same', 'Second')) },
    });
    const task = await client.pullAndWait('main');
    expect(task.taskState).toBe('failed');
    expect(task.error).toContain('rules/b.json: id "same" is also used by rules/a.json');
    expect((await client.branchState('main')).lists).toEqual({ rule: [], workflow: [] });
  });
});

describe('one open pull per branch', () => {
  it('answers two pulls asked for at once with the same task, and a later one with a new task', async () => {
    const { client, repository } = await workspaceWithRemote(
      'concurrent',
      { main: entityFiles([simpleRule('one', 'One')]), staging: {} },
      { branches: ['staging'] },
    );
    const release = repos.hold();
    let tasks: { taskId: string }[];
    let staging: string;
    try {
      tasks = await Promise.all([client.start('main'), client.start('main', { legacy: true }), client.start('main'), client.start('main', { legacy: true })]);
      expect(new Set(tasks.map((task) => task.taskId)).size).toBe(1);

      // While the fetch is held the task is in progress: asking again still answers it.
      const deadline = Date.now() + 5000;
      while (expectTask(await client.task(tasks[0]!.taskId)).taskState !== 'in-progress' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const running = expectTask(await client.task(tasks[0]!.taskId));
      expect(running).toMatchObject({ taskState: 'in-progress', startedAt: expect.any(String) });
      expect(running).not.toHaveProperty('finishedAt');
      expect(await client.start('main')).toEqual({ taskId: tasks[0]!.taskId, taskState: 'in-progress' });

      // Another branch is another pull.
      staging = (await client.start('staging')).taskId;
      expect(staging).not.toBe(tasks[0]!.taskId);
    } finally {
      release();
    }
    const done = await client.wait(tasks[0]!.taskId);
    expect(done).toMatchObject({ taskState: 'completed', summary: { rule: counts(1) } });
    expect(await client.wait(staging)).toMatchObject({ taskState: 'completed', branch: 'staging', summary: { rule: counts() } });
    expect(repos.fetches(repository)).toBe(2); // main once, staging once

    const next = await client.start('main');
    expect(next.taskId).not.toBe(tasks[0]!.taskId);
    expect(await client.wait(next.taskId)).toMatchObject({ taskState: 'completed', summary: { rule: counts(0, 0, 0, 1) } });
  });
});

describe('one open pull per branch, at the store', () => {
  it('starts one task even when writing a task is slow (the claim never names a task not yet written)', async () => {
    await createWorkspaceWithKey(t.runtime.store, { id: 'slow-writes' });
    await t.runtime.store.putRemote('slow-writes', { url: repos.repoUrl('slow-writes.git'), updatedAt: new Date().toISOString() });
    const store = t.runtime.store;
    const slowStore: typeof store = Object.create(store, {
      createTask: { value: async (task: Task) => (await new Promise((r) => setTimeout(r, 150)), store.createTask(task)) },
    });
    const sent: string[] = [];
    const queue = { send: async ({ taskId }: { taskId: string }) => void sent.push(taskId) };
    const tasks = await Promise.all([0, 1, 2].map(() => startPull({ store: slowStore, queue }, 'slow-writes', 'main')));
    expect(new Set(tasks.map((task) => task.taskId)).size).toBe(1);
    expect(sent).toEqual([tasks[0]!.taskId]);
    expect((await store.getBranchSync('slow-writes', 'main'))?.activeTaskId).toBe(tasks[0]!.taskId);
  });
});

describe('one open pull per branch, asked for at once on many branches', () => {
  it('starts exactly one task per branch however the requests interleave', async () => {
    const branches = ['b1', 'b2', 'b3'];
    const { client } = await workspaceWithRemote('rounds', Object.fromEntries(branches.map((b) => [b, {}])), { branches });
    const rounds = await Promise.all(branches.map((branch) => Promise.all([0, 1, 2, 3].map((i) => client.start(branch, { legacy: i % 2 === 1 })))));
    for (const answers of rounds) expect(new Set(answers.map((a) => a.taskId)).size).toBe(1);
    const ended = await Promise.all(rounds.map((answers) => client.wait(answers[0]!.taskId)));
    expect(ended.map((task) => [task.branch, task.taskState])).toEqual(branches.map((b) => [b, 'completed']));
  });
});

describe.each([
  ['/dev/v1', pullPath],
  ['legacy', legacyPullPath],
])('the pull operation (%s): envelopes', (_name, path) => {
  let key: string;
  let client: PullClient;
  const post = (options: { key?: string | null; branch?: string; body?: string; headers?: Record<string, string> } = {}) =>
    t.api(path, { method: 'POST', key, ...options });

  beforeAll(async () => {
    ({ key, client } = await workspaceWithRemote(`envelopes-${path.replace(/\W/g, '')}`, { main: {}, empty: {} }, { branches: ['empty'] }));
  });

  it('needs the API key: 401 with data null, before any branch check', async () => {
    expectBareFailure(await post({ key: null, branch: 'main' }), 401, 'service_api_key_empty');
    expectBareFailure(await post({ key: '', branch: 'main' }), 401, 'service_api_key_empty');
    expectBareFailure(await post({ key: null }), 401, 'service_api_key_empty');
    expectBareFailure(await post({ key: 'not-a-key', branch: 'main' }), 401, 'service_api_key_invalid');
  });

  it('needs a branch of the workspace: 400 with data {}', async () => {
    expectBareFailure(await post(), 400, 'branch_required');
    expectBareFailure(await post({ branch: '' }), 400, 'branch_required');
    expectBareFailure(await post({ branch: 'bad..name' }), 400, 'invalid_branch');
    expectBareFailure(await post({ branch: 'has space' }), 400, 'invalid_branch');
    expectBareFailure(await post({ branch: 'staging' }), 400, 'branch_not_found');
  });

  const strict = path === pullPath;

  it(`refuses a body that is not JSON (400, data {}), and takes no body, an empty one or ${strict ? '{} (v1 is strict: any field or other JSON is a 400)' : 'any JSON'}`, async () => {
    expectBareFailure(await post({ branch: 'main', body: '{not json', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    expectBareFailure(await post({ branch: 'main', body: 'plain words' }), 400, 'invalid_request');
    const otherJson = [
      () => post({ branch: 'main', body: '{"ignored": true}', headers: { 'content-type': 'application/json' } }),
      () => post({ branch: 'main', body: '[]' }),
    ];
    if (strict) for (const send of otherJson) expectBareFailure(await send(), 400, 'invalid_request');
    const answers = [
      await client.start('main'),
      (await post({ branch: 'main', body: '' })).body.data,
      (await post({ branch: 'main', body: '  \n' })).body.data,
      (await post({ branch: 'main', body: '{}' })).body.data,
      ...(strict ? [] : await Promise.all(otherJson.map(async (send) => (await send()).body.data))),
    ] as { taskId: string }[];
    for (const answer of answers) expect(Object.keys(answer).sort()).toEqual(['taskId', 'taskState']);
    // Each answered the open task or, once it ended, a new one: every task the answers name exists and ends.
    for (const taskId of new Set(answers.map((a) => a.taskId))) expect((await client.wait(taskId)).taskState).toBe('completed');
  });

  it('answers 400 remote_not_configured for a workspace without a remote', async () => {
    const { key: bare } = await createWorkspaceWithKey(t.runtime.store, { id: `no-remote-${path.replace(/\W/g, '')}` });
    expectBareFailure(await post({ key: bare, branch: 'main' }), 400, 'remote_not_configured');
    expectFailure(await t.api('/dev/v1/remote', { key: bare }), 404, 'remote_not_configured', {});
  });
});

describe('the task operations', () => {
  it("answer 404 for an unknown task or another workspace's, 401 without a key", async () => {
    const { client, key } = await workspaceWithRemote('owner', { main: {} });
    const { key: stranger } = await createWorkspaceWithKey(t.runtime.store, { id: 'stranger' });
    const { taskId } = await client.start('main');
    await client.wait(taskId);

    for (const path of [taskPath, legacyTaskPath]) {
      expectFailure(await t.api(path(taskId), { key: stranger }), 404, 'task_not_found', {});
      expectFailure(await t.api(path('00000000-0000-4000-8000-000000000000'), { key: stranger }), 404, 'task_not_found', {});
      expectFailure(await client.task('no-such-task', { legacy: path === legacyTaskPath }), 404, 'task_not_found', {});
      expectFailure(await t.api(path(taskId), { key: null }), 401, 'service_api_key_empty', null);
      // The task's own workspace sees it; a branch header changes nothing.
      expect(expectTask(await t.api(path(taskId), { key, branch: 'main' }))).toMatchObject({ taskId, taskState: 'completed' });
    }
  });
});
