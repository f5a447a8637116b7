/**
 * A task's kind as the store gives it back: the kind a task was written
 * with, and for a task written before tasks recorded their kind, the kind its
 * data says (a workflow run's, a push's, a replay's; none, a pull's).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import { taskKey } from '../../lib/store/keys.ts';
import type { Task } from '../../lib/store/types.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('task-kinds');
const common = { workspaceId: 'w', branch: 'main', taskState: 'pending' as const, createdAt: '2026-01-01T00:00:00.000Z' };

/** Writes a task's item as a store that knew no kinds wrote it. */
async function putUnmarked(taskId: string, data: Record<string, unknown>) {
  const client = createDocumentClient(fixture.config);
  await client.send(new PutCommand({ TableName: fixture.config.tableName, Item: { ...taskKey(taskId), taskId, ...common, ...data } }));
}

describe('a task kind', () => {
  beforeAll(async () => {
    await putUnmarked('old-pull', {});
    await putUnmarked('old-push', { push: {} });
    await putUnmarked('old-run', { workflowRun: { workflowId: 'f', version: 'v1', executionId: 'e', paramsJson: '{}' } });
    await putUnmarked('old-replay', {
      replay: { ruleId: 'r', candidate: { label: 'draft', checksum: 'c' }, baseline: { label: 'v1', checksum: 'b' }, source: { paramsList: { count: 1 } } },
    });
  });

  it('is the one a task was written with', async () => {
    const task: Task = { kind: 'push', taskId: 'new-push', ...common, push: {} };
    await fixture.store.createTask(task);
    expect(await fixture.store.getTask('new-push')).toEqual(task);
  });

  it('is told by its data for a task written before kinds were recorded', async () => {
    const kinds = await Promise.all(['old-pull', 'old-push', 'old-run', 'old-replay'].map(async (id) => (await fixture.store.getTask(id))?.kind));
    expect(kinds).toEqual(['pull', 'push', 'workflowRun', 'replay']);
  });

  it('stays through a transition', async () => {
    const moved = await fixture.store.transitionTask('old-replay', ['pending'], { taskState: 'failed', error: 'stopped' });
    expect(moved).toMatchObject({ kind: 'replay', taskState: 'failed' });
  });
});
