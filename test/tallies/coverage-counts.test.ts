/**
 * Counting executions into a version's tallies: which items and counts one
 * execution adds to (its hits, a failure, an answer no part gave), the parts
 * beyond an item's share in further items, nothing for a draft, and a
 * workflow step's evaluation counted as it answers or fails. Against the
 * embedded DynamoDB, a version's items are read back by their prefix.
 */
import { describe, expect, it } from 'vitest';
import { coverageItemName, countExecution, evaluateCounted, unitsPerItem } from '../../lib/tallies/coverage-counts.ts';
import { compileRule, EngineError } from '../../lib/engine/index.ts';
import { prepareRule } from '../../lib/engine/prepare.ts';
import type { TallyKey } from '../../lib/store/types.ts';
import { useEmbeddedStore } from '../helpers/store.ts';
import { flushTallies } from '../../lib/tallies/buffer.ts';

const scope = { workspaceId: 'w', branch: 'main', ruleId: 'fees' };
const checksum = 'abcdef0123456789'.repeat(4);
const version = { version: 'v2', checksum };
const first = coverageItemName('v2', checksum);

/** A store that keeps what each flush adds, summed per item. */
function summingStore() {
  const items = new Map<string, { counts: Record<string, number>; latest: Record<string, string> }>();
  return {
    items,
    addTallies: async (key: TallyKey, counts: Record<string, number>, latest: Record<string, string>) => {
      const item = items.get(key.name) ?? { counts: {}, latest: {} };
      for (const [name, n] of Object.entries(counts)) item.counts[name] = (item.counts[name] ?? 0) + n;
      Object.assign(item.latest, latest);
      items.set(key.name, item);
    },
  };
}

describe('counting an execution', () => {
  it('adds the execution and each part it hit to the version, with the latest time of each', async () => {
    const store = summingStore();
    countExecution(store, scope, version, { output: null, hits: [0, 2] }, new Date('2026-03-01T10:00:00Z'));
    countExecution(store, scope, version, { output: null, hits: [2] }, new Date('2026-03-02T10:00:00Z'));
    countExecution(store, scope, version, { output: null, hits: [] }, new Date('2026-03-03T10:00:00Z'));
    countExecution(store, scope, version, { error: new EngineError('invalid_params', 'no') }, new Date('2026-03-04T10:00:00Z'));
    await flushTallies();
    expect(first).toBe('coverage:v2:abcdef012345');
    expect(Object.fromEntries(store.items)).toEqual({
      [first]: {
        counts: { n: 4, u0: 1, u2: 2, unmatched: 1, failed: 1 },
        latest: { n: '2026-03-04T10:00:00.000Z', u0: '2026-03-01T10:00:00.000Z', u2: '2026-03-02T10:00:00.000Z' },
      },
    });
  });

  it(`keeps ${unitsPerItem} parts an item, so that a large table's items stay small, and one update each`, async () => {
    const store = summingStore();
    countExecution(store, scope, version, { output: null, hits: [unitsPerItem - 1, unitsPerItem, 3 * unitsPerItem + 5] }, new Date('2026-03-01T10:00:00Z'));
    await flushTallies();
    expect([...store.items.keys()].sort()).toEqual([first, `${first}:1`, `${first}:3`]);
    expect(store.items.get(`${first}:1`)!.counts).toEqual({ [`u${unitsPerItem}`]: 1 });
    expect(store.items.get(`${first}:3`)!.counts).toEqual({ [`u${3 * unitsPerItem + 5}`]: 1 });
    expect(store.items.get(first)!.counts).toEqual({ n: 1, [`u${unitsPerItem - 1}`]: 1 });
  });

  it('counts nothing for a draft, which has no version', async () => {
    const store = summingStore();
    countExecution(store, scope, { version: '', checksum }, { output: null, hits: [0] }, new Date());
    await flushTallies();
    expect(store.items.size).toBe(0);
  });

  it("counts a workflow's rule step as it answers, or as it fails, and lets the failure through", async () => {
    const store = summingStore();
    const { prepared } = prepareRule({ kind: 'simpleRule', definition: { when: 'n > 1', then: { big: true }, parameters: [{ name: 'n', type: 'number' }] } });
    const rule = { ...version, rule: compileRule(prepared) };
    expect(evaluateCounted(store, scope, rule, { n: 5 })).toEqual({ big: true });
    expect(evaluateCounted(store, scope, rule, { n: 0 })).toBeNull();
    expect(() => evaluateCounted(store, scope, rule, { n: 'x' })).toThrow(EngineError);
    await flushTallies();
    expect(store.items.get(first)!.counts).toEqual({ n: 3, u0: 1, u1: 1, failed: 1 });
  });
});

describe('tally items in DynamoDB', () => {
  const fixture = useEmbeddedStore('coverage-counting');

  it("are read back as one version's by its first item's name, and no other version's", async () => {
    const at = new Date('2026-03-01T10:00:00Z');
    countExecution(fixture.store, scope, version, { output: null, hits: [1, unitsPerItem + 1] }, at);
    countExecution(fixture.store, scope, { version: 'v20', checksum }, { output: null, hits: [1] }, at);
    countExecution(fixture.store, scope, { version: 'v2', checksum: 'f'.repeat(64) }, { output: null, hits: [1] }, at);
    await flushTallies();
    const items = await fixture.store.listTallies(scope, first);
    expect(items.map((item) => item.name)).toEqual([first, `${first}:1`]);
    expect(items.map((item) => item.counts)).toEqual([{ n: 1, u1: 1 }, { [`u${unitsPerItem + 1}`]: 1 }]);
    expect(items[1]!.latest).toEqual({ [`u${unitsPerItem + 1}`]: '2026-03-01T10:00:00.000Z' });
  });
});
