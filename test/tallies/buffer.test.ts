/**
 * Tallies summed in memory and flushed: on their own (a fake store and
 * clock: when a flush starts, what a failed one keeps) and against the
 * embedded DynamoDB, where several functions' buffers add to the same items
 * at once and the sums come out whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flushTallies, TallyBuffer, tallyBufferOf, whileCounting } from '../../lib/tallies/buffer.ts';
import { talliesPerUpdate, type TallyKey } from '../../lib/store/types.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const key = (name: string, ruleId = 'fees'): TallyKey => ({ workspaceId: 'w', branch: 'main', ruleId, name });

/** A store that keeps what it was asked to add, or fails as told. */
function fakeStore() {
  const calls: { key: TallyKey; counts: Record<string, number>; latest: Record<string, string> }[] = [];
  let failing = false;
  return {
    calls,
    fail: (on: boolean) => (failing = on),
    addTallies: async (key: TallyKey, counts: Record<string, number>, latest: Record<string, string>) => {
      if (failing) throw new Error('throttled');
      calls.push({ key, counts, latest });
    },
  };
}

describe('a tally buffer', () => {
  it('adds without waiting, and flushes once the last flush is older than its period', async () => {
    let now = 0;
    const store = fakeStore();
    const buffer = new TallyBuffer(store, { everyMs: 10_000, maxItems: 10, now: () => now });
    buffer.add(key('coverage:v1'), [['h0', 1]], [['h0', '2026-01-01T00:00:01Z']]);
    now = 5_000;
    buffer.add(
      key('coverage:v1'),
      [
        ['h0', 1],
        ['h2', 1],
      ],
      [['h0', '2026-01-01T00:00:05Z']],
    );
    await Promise.resolve();
    expect(store.calls).toEqual([]);
    now = 10_000;
    buffer.add(key('coverage:v1'), [['n', 3]]);
    await buffer.flush();
    expect(store.calls).toEqual([{ key: key('coverage:v1'), counts: { h0: 2, h2: 1, n: 3 }, latest: { h0: '2026-01-01T00:00:05Z' } }]);
  });

  it('keeps what a failed flush could not write, for the next flush', async () => {
    const store = fakeStore();
    const buffer = new TallyBuffer(store, { everyMs: 10_000, maxItems: 10, now: () => 0 });
    buffer.add(key('coverage:v1'), [['h1', 2]]);
    store.fail(true);
    await buffer.flush();
    buffer.add(key('coverage:v1'), [['h1', 1]]);
    store.fail(false);
    await buffer.flush();
    expect(store.calls).toEqual([{ key: key('coverage:v1'), counts: { h1: 3 }, latest: {} }]);
  });

  it('bounds the items it holds, and cuts a large item into updates the store takes', async () => {
    const store = fakeStore();
    const buffer = new TallyBuffer(store, { everyMs: 10_000, maxItems: 2, now: () => 0 });
    buffer.add(key('a'), [['n', 1]]);
    buffer.add(key('b'), [['n', 1]]);
    buffer.add(key('c'), [['n', 1]]);
    buffer.add(
      key('a'),
      Array.from({ length: 250 }, (_, i) => [`h${i}`, 1] as const),
    );
    await buffer.flush();
    expect(store.calls.map((c) => c.key.name)).toEqual(['a', 'a', 'a', 'b']);
    expect(store.calls.every((c) => Object.keys(c.counts).length + Object.keys(c.latest).length <= talliesPerUpdate)).toBe(true);
    expect(store.calls.filter((c) => c.key.name === 'a').reduce((sum, c) => sum + Object.keys(c.counts).length, 0)).toBe(251);
  });
});

describe("the process's one buffer", () => {
  it('is the same for every counter of a store, and its flush waits for the work still counting', async () => {
    const store = fakeStore();
    expect(tallyBufferOf(store)).toBe(tallyBufferOf(store));
    expect(tallyBufferOf(fakeStore())).not.toBe(tallyBufferOf(store));
    tallyBufferOf(store).add(key('coverage:v1'), [['n', 1]]);
    let release!: () => void;
    const comparison = new Promise<void>((resolve) => (release = resolve)).then(() => tallyBufferOf(store).add(key('rollout:r1'), [['compared', 1]]));
    whileCounting(comparison);
    const flushed = flushTallies();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(store.calls).toEqual([]);
    release();
    await flushed;
    expect(store.calls.map((call) => [call.key.name, call.counts])).toEqual([
      ['coverage:v1', { n: 1 }],
      ['rollout:r1', { compared: 1 }],
    ]);
  });

  it('flushes even when the work it waited for failed', async () => {
    const store = fakeStore();
    tallyBufferOf(store).add(key('coverage:v2'), [['n', 1]]);
    whileCounting(Promise.reject(new Error('the table was unreachable')));
    await flushTallies();
    expect(store.calls.map((call) => call.key.name)).toEqual(['coverage:v2']);
  });
});

describe('tallies in DynamoDB', () => {
  const fixture = useEmbeddedStore('tallies');

  it('add up across functions flushing at once, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.tuple(fc.constantFrom('h0', 'h1', 'h2', 'n'), fc.integer({ min: 1, max: 5 })), { maxLength: 30 }), { minLength: 2, maxLength: 4 }),
        fc.uuid(),
        async (functions, run) => {
          const buffers = functions.map(() => new TallyBuffer(fixture.store, { everyMs: 10_000, maxItems: 10, now: () => 0 }));
          const item = key(`coverage:${run}`);
          functions.forEach((adds, f) => adds.forEach(([name, n]) => buffers[f]!.add(item, [[name, n]], [[name, `2026-01-0${f + 1}T00:00:00Z`]])));
          await Promise.all(buffers.map((b) => b.flush()));
          const expected: Record<string, number> = {};
          for (const [name, n] of functions.flat()) expected[name] = (expected[name] ?? 0) + n;
          const stored = await fixture.store.getTallies(item);
          expect(stored?.counts ?? {}).toEqual(expected);
        },
      ),
      { numRuns: 15 },
    );
  });
});
