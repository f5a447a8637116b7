import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createLocalQueue } from '../../lib/local/sqs.ts';

/** A worker that records what it was handed and finishes each batch when told. */
function heldWorker() {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  let active = 0;
  let mostActive = 0;
  return {
    started,
    get mostActive() {
      return mostActive;
    },
    finish: (body: string) => release.get(body)!(),
    worker: async (event: SQSEvent) => {
      active++;
      mostActive = Math.max(mostActive, active);
      const body = event.Records[0]!.body;
      started.push(body);
      await new Promise<void>((resolve) => release.set(body, resolve));
      active--;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('the local task queue', () => {
  it('hands the worker as many batches at once as the deployed event source, and no more', async () => {
    const held = heldWorker();
    const queue = createLocalQueue({ worker: held.worker, visibilityTimeoutMs: 1_000, maxReceiveCount: 3, batchSize: 1, maxConcurrency: 3 });
    for (const body of ['a', 'b', 'c', 'd', 'e']) queue.send(body, body);
    await settle();
    expect(held.started).toEqual(['a', 'b', 'c']);
    held.finish('b');
    await settle();
    expect(held.started).toEqual(['a', 'b', 'c', 'd']);
    for (const body of ['a', 'c', 'd']) held.finish(body);
    await settle();
    held.finish('e');
    await queue.idle();
    expect(held.mostActive).toBe(3);
  });

  it('serves a quiet group before the group that holds the workers, whatever the order sent', async () => {
    const held = heldWorker();
    const queue = createLocalQueue({ worker: held.worker, visibilityTimeoutMs: 1_000, maxReceiveCount: 3, batchSize: 1, maxConcurrency: 2 });
    for (const body of ['noisy-1', 'noisy-2', 'noisy-3', 'noisy-4']) queue.send(body, 'noisy');
    queue.send('quiet-1', 'quiet');
    await settle();
    // Both workers went to the first group before the quiet one had sent anything.
    expect(held.started).toEqual(['noisy-1', 'quiet-1']);
    held.finish('noisy-1');
    await settle();
    expect(held.started.at(-1)).toBe('noisy-2');
    queue.send('quiet-2', 'quiet');
    held.finish('quiet-1');
    await settle();
    // Noisy has one in flight, quiet none: quiet goes first though noisy's messages are older.
    expect(held.started.at(-1)).toBe('quiet-2');
    for (const body of ['noisy-2', 'quiet-2']) held.finish(body);
    await settle();
    for (const body of ['noisy-3', 'noisy-4']) held.finish(body);
    await queue.idle();
    expect(held.started).toHaveLength(6);
  });

  it("prefers, among groups with as many in flight, the one that took less of the workers' time lately", async () => {
    const held = heldWorker();
    const queue = createLocalQueue({ worker: held.worker, visibilityTimeoutMs: 1_000, maxReceiveCount: 3, batchSize: 1, maxConcurrency: 1 });
    queue.send('slow-1', 'slow');
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 60));
    queue.send('slow-2', 'slow');
    queue.send('fast-1', 'fast');
    held.finish('slow-1');
    await settle();
    expect(held.started).toEqual(['slow-1', 'fast-1']);
    held.finish('fast-1');
    await settle();
    held.finish('slow-2');
    await queue.idle();
  });

  it('once closed, lets the run under way end but delivers and returns nothing more, so that waiting for it ends with that run', async () => {
    const held = heldWorker();
    // The run fails: unclosed, the queue would hand it back after a minute.
    const failing = async (event: SQSEvent) => {
      await held.worker(event);
      throw new Error('the provider went away');
    };
    const queue = createLocalQueue({ worker: failing, visibilityTimeoutMs: 60_000, maxReceiveCount: 3, batchSize: 1, maxConcurrency: 1 });
    queue.send('running', 'a');
    queue.send('waiting', 'b');
    await settle();
    expect(held.started).toEqual(['running']);
    queue.close();
    let idle = false;
    const waiting = queue.idle().then(() => (idle = true));
    await settle();
    expect(idle).toBe(false);
    held.finish('running');
    await waiting;
    queue.send('after', 'c');
    await settle();
    expect(held.started).toEqual(['running']);
    expect(queue.deadLetters).toEqual([]);
  });
});
