/**
 * Writes are retry-safe and the branch counters stay exact: the same write
 * twice changes nothing, kind changes move the per-kind totals, and a bad
 * import writes nothing. Counters are checked over HTTP: an unfiltered (or
 * type-only) list takes its totalCount from the counters, while its items come
 * from the index, so with everything on one page the two must agree.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ImportRejected, importEntities } from '../../lib/publishing/import.ts';
import { saveEntity } from '../../lib/entities/service.ts';
import { publishEntity } from '../../lib/publishing/publish.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { seedDemo } from '../../lib/local/seed.ts';
import { demoRules, demoWorkflows } from '../../lib/local/demo-entities.ts';
import type { EntityRef, Store } from '../../lib/store/types.ts';
import { addBranch } from '../../lib/workspaces/admin.ts';
import { ruleSet, simpleRule, sourcesOf, workflow } from '../helpers/entities.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
const actor = 'tester';

/** Totals of a branch's rules (all, and per kind) and workflows, from the counters, each checked against the index. */
async function totals(branch: string) {
  const result: Record<string, number> = {};
  for (const [label, path, type] of [
    ['rule', '/dev/rule', undefined],
    ['decisionTable', '/dev/rule', 'decisionTable'],
    ['ruleSet', '/dev/rule', 'ruleSet'],
    ['simpleRule', '/dev/rule', 'simpleRule'],
    ['workflow', '/dev/workflow', undefined],
  ] as const) {
    const response = await t.api<unknown[]>(path, { branch, query: { pageSize: 100, type } });
    expect(response.status).toBe(200);
    expect(response.body.totalCount, `${label} counter against the index`).toBe(response.body.data.length);
    result[label] = response.body.totalCount;
  }
  return result;
}

/** Everything stored about a branch's entities: working copies with their revisions, and version histories. */
async function snapshot(store: Store, workspaceId: string, branch: string) {
  const entities: Record<string, unknown> = {};
  for (const entityType of ['rule', 'workflow'] as const) {
    const page = await store.listEntities({ workspaceId, branch, entityType, pageNo: 1, pageSize: 100, sortBy: 'name', sortDir: 'asc' });
    for (const { id } of page.items) {
      const ref = { workspaceId, branch, entityType, id };
      entities[`${entityType}/${id}`] = { entity: await store.getEntity(ref), versions: await store.listVersions(ref) };
    }
  }
  return entities;
}

let branchCount = 0;
/** A fresh, empty branch of the demo workspace for one test. */
async function freshBranch() {
  const name = `writes-${++branchCount}`;
  await addBranch(t.runtime.store, 'demo', name);
  return { target: { workspaceId: 'demo', branch: name }, name };
}
const ruleRef = (target: { workspaceId: string; branch: string }, id: string): EntityRef => ({ ...target, entityType: 'rule', id });

describe('seeding', () => {
  it('changes nothing when run again with the same key', async () => {
    const { store, apiKey } = t.runtime;
    const before = {
      main: await snapshot(store, 'demo', 'main'),
      staging: await snapshot(store, 'demo', 'staging'),
      branches: await store.listBranches('demo'),
      keys: await store.listApiKeys('demo'),
      totals: [await totals('main'), await totals('staging')],
    };
    expect(Object.keys(before.main)).toHaveLength(demoRules.length + demoWorkflows.length);
    const again = await seedDemo(store, { apiKey });
    expect(again.apiKey).toBe(apiKey);
    expect({
      main: await snapshot(store, 'demo', 'main'),
      staging: await snapshot(store, 'demo', 'staging'),
      branches: await store.listBranches('demo'),
      keys: await store.listApiKeys('demo'),
      totals: [await totals('main'), await totals('staging')],
    }).toEqual(before);
    expect(before.totals).toEqual([
      { rule: 15, decisionTable: 7, ruleSet: 3, simpleRule: 5, workflow: 4 },
      { rule: 4, decisionTable: 4, ruleSet: 0, simpleRule: 0, workflow: 1 },
    ]);
  });
});

describe('saveEntity', () => {
  let target: { workspaceId: string; branch: string };
  let branch: string;
  beforeAll(async () => ({ target, name: branch } = await freshBranch()));

  it('creates, then changes nothing when given the same content again', async () => {
    const input = simpleRule('same', 'Same content');
    const created = await saveEntity(t.runtime.store, target, input, actor);
    expect(created.outcome).toBe('created');
    expect(created.entity).toMatchObject({ revision: 1, status: 'draft', version: '', createdBy: actor, updatedBy: actor });
    const totalsAfterCreate = await totals(branch);
    expect(totalsAfterCreate).toMatchObject({ rule: 1, simpleRule: 1, ruleSet: 0 });

    const again = await saveEntity(t.runtime.store, target, input, 'someone-else');
    expect(again.outcome).toBe('unchanged');
    expect(await t.runtime.store.getEntity(ruleRef(target, 'same'))).toEqual({ ...created.entity, countedAs: 'simpleRule' });
    expect(await totals(branch)).toEqual(totalsAfterCreate);
  });

  it('treats the same content with keys in another order as the same', async () => {
    const input = simpleRule('reordered', 'Reordered', { definition: { when: 'a > 1', then: { x: 1, y: 2 } } } as Partial<EntityInput>);
    const first = await saveEntity(t.runtime.store, target, input, actor);
    const shuffled = {
      definition: { then: { y: 2, x: 1 }, when: 'a > 1' },
      type: input.type,
      tags: input.tags,
      description: input.description,
      name: input.name,
      id: input.id,
    };
    const second = await saveEntity(t.runtime.store, target, shuffled as EntityInput, actor);
    expect(second.outcome).toBe('unchanged');
    expect(second.entity.revision).toBe(first.entity.revision);
  });

  it('updates the working copy when the content changes, counting it once', async () => {
    const input = simpleRule('edited', 'Edited');
    const created = await saveEntity(t.runtime.store, target, input, actor, () => '2030-01-01T00:00:00.000Z');
    const before = await totals(branch);
    const updated = await saveEntity(t.runtime.store, target, { ...input, description: 'new text' }, 'editor', () => '2030-01-02T00:00:00.000Z');
    expect(updated.outcome).toBe('updated');
    expect(updated.entity).toMatchObject({
      revision: created.entity.revision + 1,
      description: 'new text',
      createdAt: '2030-01-01T00:00:00.000Z',
      createdBy: actor,
      updatedAt: '2030-01-02T00:00:00.000Z',
      updatedBy: 'editor',
    });
    expect(updated.entity.checksum).not.toBe(created.entity.checksum);
    expect(await totals(branch)).toEqual(before);
  });

  it('moves the entity between the per-kind totals when its kind changes, and back', async () => {
    await saveEntity(t.runtime.store, target, simpleRule('shifty', 'Shifty'), actor);
    const before = await totals(branch);

    const toRuleSet = await saveEntity(t.runtime.store, target, ruleSet('shifty', 'Shifty'), actor);
    expect(toRuleSet.outcome).toBe('updated');
    expect(await totals(branch)).toEqual({ ...before, simpleRule: before.simpleRule! - 1, ruleSet: before.ruleSet! + 1 });
    const listed = await t.api<{ id: string; type: string }[]>('/dev/rule', { branch, query: { type: 'ruleSet' } });
    expect(listed.body.data).toContainEqual(expect.objectContaining({ id: 'shifty', type: 'ruleSet' }));

    // The same kind change again is a no-op.
    expect((await saveEntity(t.runtime.store, target, ruleSet('shifty', 'Shifty'), actor)).outcome).toBe('unchanged');
    expect(await totals(branch)).toEqual({ ...before, simpleRule: before.simpleRule! - 1, ruleSet: before.ruleSet! + 1 });

    await saveEntity(t.runtime.store, target, simpleRule('shifty', 'Shifty'), actor);
    expect(await totals(branch)).toEqual(before);
  });

  it('keeps the totals exact under concurrent creates of different entities', async () => {
    const before = await totals(branch);
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => saveEntity(t.runtime.store, target, (i % 3 ? simpleRule : ruleSet)(`parallel-${i}`, `Parallel ${i}`), actor)),
    );
    expect(outcomes.every((o) => o.outcome === 'created')).toBe(true);
    expect(await totals(branch)).toEqual({ ...before, rule: before.rule! + 12, simpleRule: before.simpleRule! + 8, ruleSet: before.ruleSet! + 4 });
  });

  it('counts an entity once when the same create runs several times at once (retried requests)', async () => {
    const before = await totals(branch);
    for (let round = 0; round < 5; round++) {
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => saveEntity(t.runtime.store, target, simpleRule(`racing-${round}`, 'Racing'), actor)));
      expect(outcomes.filter((o) => o.outcome === 'created')).toHaveLength(1);
    }
    expect(await totals(branch)).toEqual({ ...before, rule: before.rule! + 5, simpleRule: before.simpleRule! + 5 });
  });
});

describe('publishEntity', () => {
  it('publishes v1 once, however often it is called, then v2 after an edit', async () => {
    const { target } = await freshBranch();
    const ref = ruleRef(target, 'pub');
    const input = ruleSet('pub', 'Published');
    await saveEntity(t.runtime.store, target, input, actor);
    expect((await publishEntity(t.runtime.store, ref, 'publisher')).version).toBe('v1');
    const afterFirst = await t.runtime.store.getEntity(ref);
    expect(afterFirst).toMatchObject({ status: 'published', version: 'v1', revision: 2 });
    expect((await publishEntity(t.runtime.store, ref, 'publisher')).version).toBe('v1');
    expect(await t.runtime.store.getEntity(ref)).toEqual(afterFirst);
    expect((await t.runtime.store.listVersions(ref)).map((v) => [v.version, v.publishedBy])).toEqual([['v1', 'publisher']]);

    // An edit makes a draft; saving the published content back makes it published again, without a new version.
    await saveEntity(t.runtime.store, target, { ...input, description: 'draft text' }, actor);
    expect(await t.runtime.store.getEntity(ref)).toMatchObject({ status: 'draft', version: 'v1' });
    await saveEntity(t.runtime.store, target, input, actor);
    expect(await t.runtime.store.getEntity(ref)).toMatchObject({ status: 'published', version: 'v1' });
    expect((await publishEntity(t.runtime.store, ref, 'publisher')).version).toBe('v1');

    await saveEntity(t.runtime.store, target, { ...input, description: 'second edition' }, actor);
    expect((await publishEntity(t.runtime.store, ref, 'publisher')).version).toBe('v2');
    expect((await publishEntity(t.runtime.store, ref, 'publisher')).version).toBe('v2');
    expect((await t.runtime.store.listVersions(ref)).map((v) => v.version)).toEqual(['v1', 'v2']);
    const v1 = await t.api<{ description: string }>('/dev/rule/pub', { branch: target.branch, query: { version: 'v1' } });
    expect(v1.body.data.description).toBe(input.description);
  });
});

describe('importEntities', () => {
  const batch = [simpleRule('imp-a', 'Import A'), ruleSet('imp-b', 'Import B'), workflow('imp-flow', 'Import flow')];

  it('changes nothing when the same files are imported again', async () => {
    const { target, name } = await freshBranch();
    const first = await importEntities(t.runtime.store, target, sourcesOf(batch), { actor, publish: true });
    expect(first.map((o) => [o.entityType, o.id, o.outcome, o.version])).toEqual([
      ['rule', 'imp-a', 'created', 'v1'],
      ['rule', 'imp-b', 'created', 'v1'],
      ['workflow', 'imp-flow', 'created', 'v1'],
    ]);
    const stored = await snapshot(t.runtime.store, 'demo', name);
    const counted = await totals(name);
    expect(counted).toEqual({ rule: 2, decisionTable: 0, ruleSet: 1, simpleRule: 1, workflow: 1 });

    const second = await importEntities(t.runtime.store, target, sourcesOf(batch), { actor: 'another', publish: true });
    expect(second.map((o) => [o.id, o.outcome, o.version])).toEqual([
      ['imp-a', 'unchanged', 'v1'],
      ['imp-b', 'unchanged', 'v1'],
      ['imp-flow', 'unchanged', 'v1'],
    ]);
    expect(await snapshot(t.runtime.store, 'demo', name)).toEqual(stored);
    expect(await totals(name)).toEqual(counted);
  });

  it('writes nothing when one record is invalid, and lists every problem', async () => {
    const { target, name } = await freshBranch();
    await importEntities(t.runtime.store, target, sourcesOf(batch), { actor });
    const stored = await snapshot(t.runtime.store, 'demo', name);
    const counted = await totals(name);

    const changed = { ...batch[0]!, description: 'changed by the rejected import' };
    const invalidTable = {
      id: 'bad-table',
      name: 'Bad table',
      type: 'decisionTable',
      definition: {
        inputs: [{ id: 'a', expression: 'x', type: 'number' }],
        outputs: [{ id: 'o', name: 'o', type: 'number' }],
        rules: [{ when: [], then: [1] }],
      },
    };
    const sources = sourcesOf([changed, simpleRule('imp-new', 'New one'), invalidTable, { ...batch[1]!, name: '' }]);
    const rejection = await importEntities(t.runtime.store, target, sources, { actor, publish: true }).catch((e: unknown) => e);
    expect(rejection).toBeInstanceOf(ImportRejected);
    expect((rejection as ImportRejected).problems).toEqual([
      { origin: 'test-2.json', field: 'definition.rules.0.when', message: 'needs 1 entries, one per input' },
      { origin: 'test-3.json', field: 'name', message: expect.any(String) },
    ]);

    expect(await t.runtime.store.getEntity(ruleRef(target, 'imp-new'))).toBeUndefined();
    expect(await snapshot(t.runtime.store, 'demo', name)).toEqual(stored);
    expect(await totals(name)).toEqual(counted);
  });
});
