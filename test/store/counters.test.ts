/**
 * Counters under concurrency and interrupted writers: whatever interleaving
 * of writes to one entity, the counters end equal to what the index holds.
 */
import { expect, it } from 'vitest';
import { saveEntity } from '../../lib/entities/service.ts';
import { RevisionConflict } from '../../lib/store/revision-retry.ts';
import { leaveCountClaim, ruleOfKind, ruleTotals, useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('counters');

const totals = (branch: string) => ruleTotals(fixture.store, branch);

it('stays exact when concurrent writes move the same entities between kinds', async () => {
  const target = { workspaceId: 'w', branch: 'race' };
  for (let round = 0; round < 25; round++) {
    const writes = Array.from({ length: 8 }, (_, i) =>
      saveEntity(fixture.store, target, ruleOfKind(`e${round % 3}`, i % 2 ? 'ruleSet' : 'simpleRule'), 'test'),
    );
    const results = await Promise.allSettled(writes);
    // Losing every retry to other writers is allowed; failing any other way is not.
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RevisionConflict);
  }
  const { counted, indexed } = await totals('race');
  expect(counted).toEqual(indexed);
  expect(indexed.all).toBe(3);
}, 60_000);

it('finishes a move that a writer claimed but never completed, without counting it twice', async () => {
  const target = { workspaceId: 'w', branch: 'interrupted' };
  await saveEntity(fixture.store, target, ruleOfKind('a', 'simpleRule'), 'test');
  // A writer that stopped after its content write and claim, before any counter moved.
  await leaveCountClaim(fixture, 'interrupted', 'a', { id: 'stopped', from: 'simpleRule', to: 'ruleSet' }, { type: 'ruleSet' });
  expect((await totals('interrupted')).counted).toEqual({ all: 1, simpleRule: 1, ruleSet: 0 });
  // The retry of that write takes the claim over.
  await saveEntity(fixture.store, target, ruleOfKind('a', 'ruleSet'), 'test');
  await saveEntity(fixture.store, target, ruleOfKind('a', 'ruleSet'), 'test');
  const { counted, indexed } = await totals('interrupted');
  expect(counted).toEqual({ all: 1, simpleRule: 0, ruleSet: 1 });
  expect(counted).toEqual(indexed);
});
