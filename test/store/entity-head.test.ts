/** The narrow read that running a rule's latest version makes: its published label and creation time, as the full read has them. */
import { expect, it } from 'vitest';
import { publishEntity, saveEntity } from '../../lib/entities/service.ts';
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
