/**
 * Deleting entities: the counters drop exactly once however the deletes
 * interleave with each other and with writes, a delete that stopped half way
 * is finished by its retry, and versions go with their entity.
 */
import { expect, it } from 'vitest';
import { saveEntity } from '../../lib/entities/service.ts';
import { publishEntity } from '../../lib/publishing/publish.ts';
import { RevisionConflict } from '../../lib/store/revision-retry.ts';
import { leaveCountClaim, ruleOfKind, ruleTotals, useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('deletes');

const refOf = (branch: string, id: string) => ({ workspaceId: 'w', branch, entityType: 'rule' as const, id });
const totals = (branch: string) => ruleTotals(fixture.store, branch);

it('takes an entity off its counters once, however many deletes run at once, and says whether it was there', async () => {
  const target = { workspaceId: 'w', branch: 'once' };
  for (const id of ['a', 'b', 'c']) await saveEntity(fixture.store, target, ruleOfKind(id, id === 'c' ? 'ruleSet' : 'simpleRule'), 'test');
  const results = await Promise.all(Array.from({ length: 6 }, () => fixture.store.deleteEntity(refOf('once', 'a'))));
  expect(results).toContain(true);
  expect(await fixture.store.getEntity(refOf('once', 'a'))).toBeUndefined();
  expect(await fixture.store.deleteEntity(refOf('once', 'a'))).toBe(false);
  const { counted, indexed } = await totals('once');
  expect(counted).toEqual({ all: 2, simpleRule: 1, ruleSet: 1 });
  expect(counted).toEqual(indexed);
});

it('stays exact when deletes and writes of the same entities interleave', async () => {
  const target = { workspaceId: 'w', branch: 'interleaved' };
  for (let round = 0; round < 15; round++) {
    const id = `e${round % 3}`;
    const work = [
      saveEntity(fixture.store, target, ruleOfKind(id, round % 2 ? 'ruleSet' : 'simpleRule'), 'test'),
      fixture.store.deleteEntity(refOf('interleaved', id)),
      saveEntity(fixture.store, target, ruleOfKind(id, round % 2 ? 'simpleRule' : 'ruleSet'), 'test'),
      fixture.store.deleteEntity(refOf('interleaved', id)),
    ];
    for (const r of await Promise.allSettled(work)) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RevisionConflict);
  }
  const { counted, indexed } = await totals('interleaved');
  expect(counted).toEqual(indexed);
}, 60_000);

it('finishes a delete that claimed its move but stopped before deleting, when it is retried', async () => {
  const target = { workspaceId: 'w', branch: 'stopped' };
  await saveEntity(fixture.store, target, ruleOfKind('a', 'simpleRule'), 'test');
  await saveEntity(fixture.store, target, ruleOfKind('b', 'simpleRule'), 'test');
  // A delete that stopped after its claim, before any counter moved.
  await leaveCountClaim(fixture, 'stopped', 'a', { id: 'stopped', from: 'simpleRule', to: 'simpleRule', delete: true });
  expect((await totals('stopped')).counted).toEqual({ all: 2, simpleRule: 2, ruleSet: 0 });
  expect(await fixture.store.deleteEntity(refOf('stopped', 'a'))).toBe(true);
  expect(await fixture.store.getEntity(refOf('stopped', 'a'))).toBeUndefined();
  const { counted, indexed } = await totals('stopped');
  expect(counted).toEqual({ all: 1, simpleRule: 1, ruleSet: 0 });
  expect(counted).toEqual(indexed);
});

it('deletes every version of an entity, and only its', async () => {
  const target = { workspaceId: 'w', branch: 'versions' };
  for (const id of ['kept', 'gone']) {
    await saveEntity(fixture.store, target, ruleOfKind(id, 'simpleRule'), 'test');
    await publishEntity(fixture.store, refOf('versions', id), 'test');
    await saveEntity(fixture.store, target, { ...ruleOfKind(id, 'simpleRule'), description: 'v2' }, 'test');
    await publishEntity(fixture.store, refOf('versions', id), 'test');
  }
  await fixture.store.deleteVersions(refOf('versions', 'gone'));
  expect(await fixture.store.listVersions(refOf('versions', 'gone'))).toEqual([]);
  expect((await fixture.store.listVersions(refOf('versions', 'kept'))).map((v) => v.version)).toEqual(['v1', 'v2']);
  await fixture.store.deleteVersions(refOf('versions', 'gone'));
});

it('keeps the warnings a save stores, and drops them when a later save brings none', async () => {
  const target = { workspaceId: 'w', branch: 'warnings' };
  const ref = refOf('warnings', 'a');
  const warnings = [{ path: 'definition.rules[1]', message: 'can never be the answer' }];
  await saveEntity(fixture.store, target, ruleOfKind('a', 'simpleRule'), 'test', undefined, { warnings });
  expect((await fixture.store.getEntity(ref))?.warnings).toEqual(warnings);
  await publishEntity(fixture.store, ref, 'test');
  expect((await fixture.store.getVersion(ref, 'v1'))?.warnings).toEqual(warnings);
  // Other content without an analysis (an import): the old warnings no longer apply.
  await saveEntity(fixture.store, target, { ...ruleOfKind('a', 'simpleRule'), description: 'changed' }, 'test');
  expect((await fixture.store.getEntity(ref))?.warnings).toBeUndefined();
});
