/**
 * The store's paging against a model: for random list queries over a branch
 * whose entities were created, renamed and moved between kinds, every page
 * and total must equal what sorting and filtering the entities in memory gives.
 * This covers the counters at the head of each index partition, deep-page
 * skipping, descending order and the kind index together.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { saveEntity } from '../../lib/entities/service.ts';
import { publishEntity } from '../../lib/publishing/publish.ts';
import type { ListQuery, Store, StoredEntity } from '../../lib/store/index.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const target = { workspaceId: 'paging', branch: 'main' };
const names = ['alpha', 'Alpha', 'beta', 'Beta rules', 'beta', 'gamma', 'delta', 'Delta', 'epsilon', 'zeta', 'eta', 'a', 'ab', 'ab c', 'abc'];
const kinds = ['decisionTable', 'ruleSet', 'simpleRule'] as const;
const definitions: Record<(typeof kinds)[number], unknown> = {
  decisionTable: { hitPolicy: 'first', inputs: [{ id: 'x', expression: 'x', type: 'number' }], outputs: [{ id: 'y', name: 'y', type: 'number' }], rules: [] },
  ruleSet: { strategy: 'firstMatch', rules: [{ id: 'r', priority: 0, when: 'true', then: [{ set: 'y', value: 1 }] }] },
  simpleRule: { when: 'x > 1', then: { y: 1 } },
};
const rule = (i: number, kind: (typeof kinds)[number], name = names[i % names.length]!): EntityInput =>
  ({ id: `r-${String(i).padStart(2, '0')}`, name, description: '', tags: [], type: kind, definition: definitions[kind] }) as EntityInput;

const fixture = useEmbeddedStore('paging');
let store: Store;
let entities: StoredEntity[];

beforeAll(async () => {
  ({ store } = fixture);
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const now = () => new Date((clock += 1000)).toISOString();
  for (let i = 0; i < 40; i++) await saveEntity(store, target, rule(i, kinds[i % 3]!), 'test', now);
  // Moves between kinds, renames and publishes, so counters and indexes must follow changes.
  for (let i = 0; i < 40; i += 7) await saveEntity(store, target, rule(i, kinds[(i + 1) % 3]!), 'test', now);
  for (let i = 3; i < 40; i += 11) await saveEntity(store, target, rule(i, kinds[i % 3]!, `renamed ${i}`), 'test', now);
  for (let i = 0; i < 40; i += 5) await publishEntity(store, { ...target, entityType: 'rule', id: rule(i, 'simpleRule').id }, 'test', now);
  entities = (await Promise.all(
    Array.from({ length: 40 }, (_, i) => store.getEntity({ ...target, entityType: 'rule', id: rule(i, 'simpleRule').id })),
  )) as StoredEntity[];
}, 60_000);

const sortKey = (e: StoredEntity, by: ListQuery['sortBy']) => `${by === 'name' ? e.name.toLowerCase() : e[by]}\u0001${e.id}`;

function model(query: ListQuery) {
  const matching = entities
    .filter(
      (e) =>
        (query.kind === undefined || e.type === query.kind) &&
        (!query.name || e.name.toLowerCase().includes(query.name.toLowerCase())) &&
        (!query.status || e.status === query.status),
    )
    .sort((a, b) => (sortKey(a, query.sortBy) < sortKey(b, query.sortBy) ? -1 : 1));
  if (query.sortDir === 'desc') matching.reverse();
  const offset = (query.pageNo - 1) * query.pageSize;
  return { totalCount: matching.length, ids: matching.slice(offset, offset + query.pageSize).map((e) => e.id) };
}

it('pages and totals match the model for any query', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        pageNo: fc.integer({ min: 1, max: 9 }),
        pageSize: fc.integer({ min: 1, max: 12 }),
        sortBy: fc.constantFrom('name', 'createdAt', 'updatedAt' as const),
        sortDir: fc.constantFrom('asc', 'desc' as const),
        kind: fc.option(fc.constantFrom(...kinds), { nil: undefined }),
        name: fc.option(fc.constantFrom('a', 'BETA', 'ab ', 'renamed', 'zz'), { nil: undefined, freq: 3 }),
        status: fc.option(fc.constantFrom('draft', 'published' as const), { nil: undefined, freq: 3 }),
      }),
      async (params) => {
        const query: ListQuery = { ...target, entityType: 'rule', ...params };
        const page = await store.listEntities(query);
        expect({ totalCount: page.totalCount, ids: page.items.map((i) => i.id) }).toEqual(model(query));
      },
    ),
    { numRuns: 150 },
  );
}, 60_000);

it('keeps counts exact after a bulk write replaces kinds', async () => {
  const scope = { ...target, branch: 'bulk', entityType: 'rule' as const };
  const stored = (i: number, kind: (typeof kinds)[number]) => ({ entity: { ...entities[i]!, type: kind }, kind });
  await store.writeEntities(scope, [stored(0, 'ruleSet'), stored(1, 'ruleSet'), stored(2, 'simpleRule')]);
  await store.writeEntities(scope, [stored(0, 'simpleRule'), stored(1, 'simpleRule')]);
  const total = async (kind?: string) => (await store.listEntities({ ...scope, pageNo: 1, pageSize: 10, sortBy: 'name', sortDir: 'asc', kind })).totalCount;
  expect([await total(), await total('ruleSet'), await total('simpleRule')]).toEqual([3, 0, 3]);
});
