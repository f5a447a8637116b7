/**
 * Counters under concurrency and interrupted writers: whatever interleaving
 * of writes to one entity, the counters end equal to what the index holds.
 */
import { expect, it } from 'vitest';
import { saveEntity } from '../../lib/entities/service.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import { RevisionConflict } from '../../lib/store/index.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('counters');

const asKind = (id: string, kind: 'simpleRule' | 'ruleSet'): EntityInput =>
  (kind === 'simpleRule'
    ? { id, name: id, description: '', tags: [], type: kind, definition: { when: 'x', then: { y: 1 } } }
    : { id, name: id, description: '', tags: [], type: kind, definition: { strategy: 'allMatch', rules: [{ id: 'r', priority: 0, when: 'x', then: [{ set: 'y', value: 1 }] }] } }) as EntityInput;

/** Totals as the counters report them and as the index holds them. */
async function totals(branch: string) {
  const list = async (kind?: string, pageSize = 1) =>
    fixture.store.listEntities({ workspaceId: 'w', branch, entityType: 'rule', pageNo: 1, pageSize, sortBy: 'name', sortDir: 'asc', kind });
  const all = (await list(undefined, 100)).items;
  return {
    counted: { all: (await list()).totalCount, simpleRule: (await list('simpleRule')).totalCount, ruleSet: (await list('ruleSet')).totalCount },
    indexed: { all: all.length, simpleRule: all.filter((e) => e.type === 'simpleRule').length, ruleSet: all.filter((e) => e.type === 'ruleSet').length },
  };
}

it('stays exact when concurrent writes move the same entities between kinds', async () => {
  const target = { workspaceId: 'w', branch: 'race' };
  for (let round = 0; round < 25; round++) {
    const writes = Array.from({ length: 8 }, (_, i) => saveEntity(fixture.store, target, asKind(`e${round % 3}`, i % 2 ? 'ruleSet' : 'simpleRule'), 'test'));
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
  await saveEntity(fixture.store, target, asKind('a', 'simpleRule'), 'test');
  // A writer that stopped after its content write and claim, before any counter moved.
  const client = createDocumentClient(fixture.config);
  await client.send(
    new UpdateCommand({
      TableName: 'counters',
      Key: { PK: 'ENT:w:interrupted:rule', SK: 'E:a' },
      UpdateExpression: 'SET #type = :to, countClaim = :claim',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':to': 'ruleSet', ':claim': { id: 'stopped', from: 'simpleRule', to: 'ruleSet' } },
    }),
  );
  client.destroy();
  expect((await totals('interrupted')).counted).toEqual({ all: 1, simpleRule: 1, ruleSet: 0 });
  // The retry of that write takes the claim over.
  await saveEntity(fixture.store, target, asKind('a', 'ruleSet'), 'test');
  await saveEntity(fixture.store, target, asKind('a', 'ruleSet'), 'test');
  const { counted, indexed } = await totals('interrupted');
  expect(counted).toEqual({ all: 1, simpleRule: 0, ruleSet: 1 });
  expect(counted).toEqual(indexed);
});
