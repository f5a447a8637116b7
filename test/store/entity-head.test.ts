/** The narrow read that running a rule's latest version makes: its published label and creation time, as the full read has them. */
import { expect, it } from 'vitest';
import { saveEntity } from '../../lib/entities/service.ts';
import { publishEntity } from '../../lib/publishing/publish.ts';
import { ruleOfKind, useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('entity-head');

it('gives the latest published label (empty before any publish) and the creation time, or undefined for no entity', async () => {
  const target = { workspaceId: 'w', branch: 'main' };
  const ref = { ...target, entityType: 'rule' as const, id: 'head' };
  expect(await fixture.store.getEntityHead(ref)).toBeUndefined();
  await saveEntity(fixture.store, target, ruleOfKind('head', 'simpleRule'), 'test');
  const draft = await fixture.store.getEntity(ref);
  expect(await fixture.store.getEntityHead(ref)).toEqual({ version: '', createdAt: draft!.createdAt });
  await publishEntity(fixture.store, ref, 'test');
  expect(await fixture.store.getEntityHead(ref)).toEqual({ version: 'v1', createdAt: draft!.createdAt });
});

it('reads many heads in one request, in the order asked, rules and workflows alike, undefined for those not there', async () => {
  const target = { workspaceId: 'w', branch: 'heads' };
  await saveEntity(fixture.store, target, ruleOfKind('first', 'simpleRule'), 'test');
  await saveEntity(fixture.store, target, ruleOfKind('second', 'ruleSet'), 'test');
  await publishEntity(fixture.store, { ...target, entityType: 'rule', id: 'second' }, 'test');
  const ref = (id: string, entityType: 'rule' | 'workflow' = 'rule') => ({ ...target, entityType, id });
  const heads = await fixture.store.getEntityHeads([ref('second'), ref('nobody'), ref('first'), ref('first', 'workflow')]);
  expect(heads.map((head) => head?.version)).toEqual(['v1', undefined, '', undefined]);
  expect(heads[0]).toEqual(await fixture.store.getEntityHead(ref('second')));
  await expect(fixture.store.getEntityHeads(Array.from({ length: 101 }, (_, i) => ref(`r${i}`)))).rejects.toThrow(/at most 100/);
});
