/**
 * The store's rollout disagreements: kept per rollout of a rule, read newest
 * first up to a limit (across pages, when large ones fill DynamoDB's 1 MB),
 * expired ones left out before DynamoDB deletes them, numbers kept to every
 * digit; and the working copy's rollout, read with the served version in the
 * narrow read execute makes, and gone once a write leaves it out.
 */
import { expect, it } from 'vitest';
import { parseJson } from '../../lib/decimal/json.ts';
import { saveEntity } from '../../lib/entities/service.ts';
import { publishEntity } from '../../lib/publishing/publish.ts';
import { rolloutSampleRetentionDays, type Rollout, type RolloutSample, type RuleScope } from '../../lib/store/index.ts';
import { ruleOfKind, useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('rollouts');
const scope: RuleScope = { workspaceId: 'w', branch: 'main', ruleId: 'fee' };
const day = 24 * 3600 * 1000;
const now = Date.parse('2027-03-01T12:00:00.000Z');

const sample = (i: number, at: number, input: unknown = { weightKg: i }): RolloutSample => ({
  executionId: `exec_${String(i).padStart(4, '0')}`,
  at: new Date(at).toISOString(),
  servedBy: i % 2 ? 'candidate' : 'baseline',
  input,
  baseline: { version: 'v1', output: { fee: i } },
  candidate: i % 3 ? { version: 'v2', output: { fee: i + 1 } } : { version: 'v2', error: { code: 'evaluation_failed', message: 'two rows' } },
});

it('reads the newest disagreements of one rollout first, up to the limit, leaving out the expired and the other rollouts', async () => {
  const { store } = fixture;
  const kept = Array.from({ length: 30 }, (_, i) => sample(i, now - i * 3600_000));
  const expired = sample(99, now - rolloutSampleRetentionDays * day - 1);
  for (const s of [...kept, expired]) await store.putRolloutSample(scope, 'ro_a', s);
  await store.putRolloutSample(scope, 'ro_b', sample(50, now));
  await store.putRolloutSample({ ...scope, ruleId: 'other' }, 'ro_a', sample(51, now));
  const iso = new Date(now).toISOString();
  expect(await store.listRolloutSamples(scope, 'ro_a', 20, iso)).toEqual(kept.slice(0, 20));
  expect(await store.listRolloutSamples(scope, 'ro_a', 100, iso)).toEqual(kept);
  expect(await store.listRolloutSamples(scope, 'ro_b', 20, iso)).toEqual([sample(50, now)]);
  expect(await store.listRolloutSamples(scope, 'ro_c', 20, iso)).toEqual([]);
  // The same execution again overwrites its sample.
  await store.putRolloutSample(scope, 'ro_a', { ...kept[0]!, servedBy: 'candidate' });
  expect((await store.listRolloutSamples(scope, 'ro_a', 1, iso))[0]).toMatchObject({ executionId: kept[0]!.executionId, servedBy: 'candidate' });
});

it('keeps every digit of the params and outputs, and reads on past a page that 1 MB filled', async () => {
  const { store } = fixture;
  const exact = parseJson('{"price":0.10000000000000000000000000000001,"big":12345678901234567890123}');
  const wide = { ...scope, ruleId: 'wide' };
  // About 100 KB each: the ten newest do not fit in one page of DynamoDB's.
  for (let i = 0; i < 12; i++) await store.putRolloutSample(wide, 'ro_w', sample(i, now - i * 1000, { exact, padding: 'x'.repeat(100_000) }));
  const read = await store.listRolloutSamples(wide, 'ro_w', 11, new Date(now).toISOString());
  expect(read.map((s) => s.executionId)).toEqual(Array.from({ length: 11 }, (_, i) => sample(i, 0).executionId));
  // The numbers as this service writes them: every digit, large ones with an exponent.
  expect(JSON.stringify((read[0]!.input as { exact: unknown }).exact)).toBe('{"price":0.10000000000000000000000000000001,"big":1.2345678901234567890123e+22}');
});

it("reads a rule's rollout with the served version in the narrow read, and drops it when a write leaves it out", async () => {
  const { store } = fixture;
  const target = { workspaceId: 'w', branch: 'main' };
  const ref = { ...target, entityType: 'rule' as const, id: 'rolled' };
  await saveEntity(store, target, ruleOfKind('rolled', 'simpleRule'), 'test');
  await publishEntity(store, ref, 'test');
  const entity = (await store.getEntity(ref))!;
  const rollout: Rollout = {
    id: 'ro_1',
    candidate: 'v2',
    mode: 'canary',
    percent: 5,
    stickyBy: 'customer.id',
    startedAt: entity.createdAt,
    startedBy: 'key:k',
  };
  const candidate = { version: 'v2', checksum: 'c2' };
  await store.putEntity(ref, { ...entity, candidate, rollout, revision: entity.revision + 1 }, entity.revision, 'simpleRule');
  expect(await store.getEntityHead(ref)).toEqual({ version: 'v1', createdAt: entity.createdAt, rollout });
  expect(await store.getEntity(ref)).toMatchObject({ candidate, rollout });
  await store.putEntity(ref, { ...entity, revision: entity.revision + 2 }, entity.revision + 1, 'simpleRule');
  expect(await store.getEntityHead(ref)).toEqual({ version: 'v1', createdAt: entity.createdAt });
  const after = (await store.getEntity(ref))!;
  expect([after.candidate, after.rollout]).toEqual([undefined, undefined]);
});
