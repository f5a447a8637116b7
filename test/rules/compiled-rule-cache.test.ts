/** The warm function's cache of compiled rules: bounded by entries and weight, least recently used out first; rules compiled with references expire. */
import { describe, expect, it } from 'vitest';
import { CompiledCache } from '../../lib/rules/cache.ts';
import type { RunnableRule } from '../../lib/rules/load.ts';

const runnable = (id: string, weight = 1, references = 0) => ({ id, weight, references }) as RunnableRule;

function cacheOf(limits: Partial<ConstructorParameters<typeof CompiledCache>[0]> = {}) {
  let clock = 0;
  const loads: string[] = [];
  const cache = new CompiledCache<RunnableRule>({ maxEntries: 3, maxWeight: 100, referencesTtlMs: 1000, ...limits }, () => clock);
  const get = (key: string, weight = 1, references = 0) =>
    cache.get(key, async () => {
      loads.push(key);
      return runnable(key, weight, references);
    });
  return { cache, get, loads, tick: (ms: number) => (clock += ms) };
}

describe('CompiledCache', () => {
  it('loads a key once while it is kept', async () => {
    const { get, loads } = cacheOf();
    expect((await get('a')).id).toBe('a');
    await get('a');
    expect(loads).toEqual(['a']);
  });

  it('drops the least recently used entry past its entry bound', async () => {
    const { cache, get, loads } = cacheOf();
    for (const key of ['a', 'b', 'c']) await get(key);
    await get('a'); // a is now the most recently used
    await get('d'); // b goes
    expect(cache.size).toBe(3);
    await get('a');
    await get('c');
    await get('b');
    expect(loads).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('drops entries past its weight bound, keeping the one just loaded', async () => {
    const { cache, get, loads } = cacheOf();
    await get('light', 10);
    await get('heavy', 95);
    expect(cache.size).toBe(1);
    await get('heavy', 95);
    expect(loads).toEqual(['light', 'heavy']);
    await get('huge', 500);
    expect(cache.size).toBe(1);
  });

  it('keeps a rule compiled with references only for its time to live', async () => {
    const { get, loads, tick } = cacheOf();
    await get('set', 1, 2);
    await get('table');
    tick(999);
    await get('set', 1, 2);
    tick(2);
    await get('set', 1, 2);
    await get('table');
    expect(loads).toEqual(['set', 'table', 'set']);
  });

  it('keeps nothing that failed to load', async () => {
    const { cache } = cacheOf();
    await expect(cache.get('bad', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(cache.size).toBe(0);
  });
});
