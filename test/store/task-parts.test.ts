/**
 * The store's side of a task split into shards: what each shard found is
 * written once (a redelivered shard's second write is refused), read back by
 * shard, and a shard is recorded done on the task once, only while the task
 * is in progress.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Store, Task } from '../../lib/store/index.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('task-parts');
let store: Store;

const task = (taskId: string): Task => ({ kind: 'pull', taskId, workspaceId: 'w', branch: 'main', taskState: 'pending', createdAt: new Date().toISOString() });

beforeAll(() => {
  store = fixture.store;
});

const parts = async (taskId: string) => {
  const read: string[] = [];
  for await (const part of store.readTaskParts(taskId)) read.push(part);
  return read;
};

it("keeps each shard's first part, and reads them back by shard", async () => {
  await store.createTask(task('t1'));
  expect(await store.putTaskPart('t1', 2, '{"shard":2}')).toBe(true);
  expect(await store.putTaskPart('t1', 0, '{"shard":0}')).toBe(true);
  expect(await store.putTaskPart('t1', 2, '{"shard":"again"}')).toBe(false);
  expect(await store.putTaskPart('t1', 10, '{"shard":10}')).toBe(true);
  expect(await parts('t1')).toEqual(['{"shard":0}', '{"shard":2}', '{"shard":10}']);
  expect(await parts('t2')).toEqual([]);
  // The task itself is not a part, and reads as it was.
  expect((await store.getTask('t1'))?.taskState).toBe('pending');
});

it('reads parts larger than a page of the table', async () => {
  await store.createTask(task('t3'));
  const big = (shard: number) => JSON.stringify({ shard, text: 'x'.repeat(300_000) });
  for (let shard = 0; shard < 5; shard++) await store.putTaskPart('t3', shard, big(shard));
  expect(await parts('t3')).toEqual([0, 1, 2, 3, 4].map(big));
});

it('records a shard done once, only on an in-progress task with its shards recorded', async () => {
  await store.createTask(task('t4'));
  expect(await store.markShardDone('t4', 0, 'a')).toBeUndefined();
  await store.transitionTask('t4', ['pending'], { taskState: 'in-progress' });
  expect(await store.markShardDone('t4', 0, 'a')).toBeUndefined();
  await store.transitionTask('t4', ['in-progress'], { shards: { count: 3, done: {} } });
  expect((await store.markShardDone('t4', 1, 'b'))?.shards).toEqual({ count: 3, done: { 1: 'b' } });
  expect((await store.markShardDone('t4', 1, 'c'))?.shards).toEqual({ count: 3, done: { 1: 'c' } });
  expect((await store.markShardDone('t4', 0, 'd'))?.shards).toEqual({ count: 3, done: { 0: 'd', 1: 'c' } });
  await store.transitionTask('t4', ['in-progress'], { taskState: 'failed' });
  expect(await store.markShardDone('t4', 2, 'e')).toBeUndefined();
  expect((await store.getTask('t4'))?.shards).toEqual({ count: 3, done: { 0: 'd', 1: 'c' } });
  expect(await store.markShardDone('no-such-task', 0, 'f')).toBeUndefined();
});
