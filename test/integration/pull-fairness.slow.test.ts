/**
 * One tenant's hostile remotes must not hold back another tenant's pull.
 * Five workspaces point their remotes at loopback hosts that each misbehave
 * in their own way (silent, 500, 503, trickling, stalled mid-answer) and pull
 * three branches each, more tasks than the queue has workers; a healthy
 * workspace's pull started among them is measured, and every hostile task
 * must still end failed within the stated bound. Slow (about 20 s: the
 * hostile tasks are tried three times), so `npm run test:slow` runs it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { taskDelivery } from '../../lib/tasks/delivery.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import { expectSuccess } from '../helpers/envelope.ts';
import { entityFiles, hostileGitAnswers, pullClient, startRepositories, type Repositories, type TaskView } from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { startProvider, type Provider } from '../outbound/servers.ts';

const t = useRuntime();

/** Each answers every Git request the same hostile way. */
const hostile = hostileGitAnswers;
const branches = ['main', 'b1', 'b2'];
/** The longest a hostile task may take to end failed: three tries of 3 s to connect and 5 s of silence, and the retry waits (1 s, 2 s locally). */
const hostileBoundMs = 3 * (3_000 + 5_000) + 3_000 + 5_000;

let hosts: Provider[] = [];
let repositories: Repositories;

beforeAll(async () => {
  hosts = await Promise.all(Object.values(hostile).map((handler) => startProvider(handler)));
  repositories = await startRepositories();
  await repositories.create('healthy.git', { main: entityFiles([simpleRule('healthy', 'Healthy')]) });
});
afterAll(async () => {
  await Promise.all([...hosts.map((host) => host.close()), repositories?.close()]);
});

async function workspaceWithRemote(id: string, url: string) {
  const { key } = await createWorkspaceWithKey(t.runtime.store, { id, branches: branches.slice(1) });
  const client = pullClient(t.api, key);
  expectSuccess(await client.setRemote(url));
  return client;
}

it(
  'pulls a healthy workspace within seconds while five hostile remotes are pulled, and ends every hostile task failed within the bound',
  { timeout: 90_000 },
  async () => {
    const tenants = await Promise.all(Object.keys(hostile).map((name, i) => workspaceWithRemote(`hostile-${name}`, `${hosts[i]!.origin}/repo.git`)));
    const healthy = await workspaceWithRemote('healthy', repositories.repoUrl('healthy.git'));
    // The healthy pull alone, for comparison.
    let started = Date.now();
    expect((await healthy.pullAndWait('main')).taskState).toBe('completed');
    const aloneMs = Date.now() - started;

    const hostileStarted = Date.now();
    const hostileTasks = await Promise.all(tenants.flatMap((client) => branches.map(async (branch) => ({ client, task: await client.start(branch) }))));
    expect(hostileTasks.length).toBeGreaterThan(taskDelivery.maxConcurrency);
    // Let the hostile tasks take the workers first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await repositories.commit('healthy.git', 'main', entityFiles([simpleRule('healthy', 'Healthy'), simpleRule('second', 'Second')]));
    started = Date.now();
    const pulled = await healthy.pullAndWait('main');
    const amongHostileMs = Date.now() - started;
    expect(pulled).toMatchObject({ taskState: 'completed', summary: { rule: { added: 1, unchanged: 1 } } });

    const ended: TaskView[] = await Promise.all(hostileTasks.map(({ client, task }) => client.wait(task.taskId, hostileBoundMs)));
    const hostileMs = Date.now() - hostileStarted;
    for (const view of ended) expect(view.taskState, JSON.stringify(view)).toBe('failed');
    console.log(
      `pull fairness: healthy pull ${aloneMs} ms alone, ${amongHostileMs} ms among ${hostileTasks.length} hostile tasks ` +
        `(${taskDelivery.maxConcurrency} workers); every hostile task failed within ${hostileMs} ms (bound ${hostileBoundMs} ms)`,
    );
    expect(amongHostileMs).toBeLessThan(3_000);
  },
);
