/** The warm function's memory of reads: hits kept for their time, misses never, writes here forgotten at once, entries bounded. */
import { expect, it } from 'vitest';
import { createTtlCache } from '../../lib/store/ttl-cache.ts';

function fixture(ttlMs: number, maxEntries = 3) {
  let clock = 0;
  const cache = createTtlCache<string>(ttlMs, maxEntries, () => clock);
  const read = (key: string, value: string | undefined) => cache.get(key, async () => value);
  return { cache, read, advance: (ms: number) => void (clock += ms) };
}

it('keeps a hit for its time to live, and reads again after it', async () => {
  const f = fixture(1_000);
  expect(await f.read('a', 'one')).toBe('one');
  expect(await f.read('a', 'two')).toBe('one');
  f.advance(999);
  expect(await f.read('a', 'two')).toBe('one');
  f.advance(1);
  expect(await f.read('a', 'two')).toBe('two');
});

it('never keeps a miss, so that what was just made is found at once', async () => {
  const f = fixture(1_000);
  expect(await f.read('a', undefined)).toBeUndefined();
  expect(await f.read('a', 'made')).toBe('made');
});

it('forgets an entry when this process changes it, and keeps nothing with a time to live of 0', async () => {
  const f = fixture(1_000);
  await f.read('a', 'old');
  f.cache.forget('a');
  expect(await f.read('a', 'new')).toBe('new');
  const none = fixture(0);
  await none.read('a', 'old');
  expect(await none.read('a', 'new')).toBe('new');
});

it('keeps at most its bound of entries, letting the oldest go', async () => {
  const f = fixture(1_000, 2);
  await f.read('a', 'a1');
  await f.read('b', 'b1');
  await f.read('c', 'c1');
  expect(await f.read('a', 'a2')).toBe('a2');
  expect(await f.read('c', 'c2')).toBe('c1');
});
