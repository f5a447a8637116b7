/**
 * Candidate versions and their rollouts through the local runtime: a
 * candidate is numbered like any version and reached by naming it, while
 * executions keep getting the served version; a shadow compares the
 * candidate on every execution without changing an answer, counts and
 * samples what disagrees; a canary answers its share with the candidate, the
 * same customer always the same version, each execution recording the version
 * that answered; promote and end, each safe to retry; workflows refused with
 * the reason. The comparisons run after the answer, in the function: the
 * tests settle them (and flush the counts) before reading what they counted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RolloutView } from '../../lib/rollout/service.ts';
import type { RequestOptions } from '../helpers/api.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import { errorsOf, flow, parcelFee, rulesClient, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { flushTallies } from '../../lib/tallies/buffer.ts';

const t = useRuntime();
let rules: ReturnType<typeof rulesClient>;

beforeAll(() => {
  rules = rulesClient(t.api);
});

const rolloutPath = (id: string, type = 'rule') => `/dev/v1/${type}/${id}/rollout`;
const rollout = {
  get: (id: string, options: RequestOptions = {}) => t.api<RolloutView>(rolloutPath(id), options),
  start: (id: string, body: Json, options: RequestOptions = {}) =>
    t.api<RolloutView>(rolloutPath(id), { method: 'PUT', body: JSON.stringify(body), ...options }),
  promote: (id: string, candidate: string, options: RequestOptions = {}) =>
    t.api<RolloutView>(`${rolloutPath(id)}/promote`, { method: 'POST', body: JSON.stringify({ candidate }), ...options }),
  end: (id: string, options: RequestOptions = {}) => t.api<RolloutView>(rolloutPath(id), { method: 'DELETE', ...options }),
};

/** A parcel fee whose heavy parcels cost `heavy` (the saved test case, a light parcel at 4.9, passes for any). */
const feeTable = (id: string, heavy: number) =>
  parcelFee(id, {
    rules: [
      { id: 'light', when: ['<= 2'], then: [4.9] },
      { id: 'heavy', when: ['> 2'], then: [heavy] },
    ],
  });

/** Edits the draft to charge `heavy` for heavy parcels and publishes it as a candidate: the publish's answer. */
async function publishCandidate(id: string, heavy: number) {
  const { checksum } = (await rules.get(id)).body.data;
  const edited = await rules.update(id, { checksum, definition: feeTable(id, heavy).definition as Json });
  expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  return rules.publish(id, { checksum: edited.body.data.checksum, candidate: true });
}

/** A rule published as v1 (heavy parcels 8.9) with a candidate v2 (heavy parcels 9.9). */
async function withCandidate(id: string) {
  await rules.published(feeTable(id, 8.9));
  const published = await publishCandidate(id, 9.9);
  expect(published.status, JSON.stringify(published.body)).toBe(201);
  return published.body.data;
}

/** Executes the rule on a parcel of `weightKg`, with more params. */
const fee = (id: string, weightKg: number, more: Json = {}) => rules.execute(id, { params: { weightKg, ...more } });

describe('candidate versions', () => {
  it('are numbered like any version and reached by naming them, while executions keep getting the served version', async () => {
    expect(await withCandidate('cand-basic')).toEqual({ id: 'cand-basic', version: 'v2', checksum: expect.any(String), candidate: true });
    const entity = (await rules.get('cand-basic')).body.data;
    expect(entity).toMatchObject({ version: 'v1', status: 'draft', candidate: { version: 'v2', checksum: entity.checksum } });
    expect(entity.versions.map((v) => v.version)).toEqual(['v1', 'v2']);
    expect((await fee('cand-basic', 3)).body.data).toMatchObject({ output: { fee: 8.9 }, version: 'v1' });
    expect((await rules.execute('cand-basic', { params: { weightKg: 3 }, version: 'v2' })).body.data).toMatchObject({ output: { fee: 9.9 }, version: 'v2' });
    // The same candidate publish again is answered with it (200), nothing new made.
    const again = await rules.publish('cand-basic', { candidate: true });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ version: 'v2', candidate: true });
  });

  it('continue the numbering after the candidate: a new candidate supersedes it, a publish of its content promotes it', async () => {
    await withCandidate('cand-numbering');
    expect((await publishCandidate('cand-numbering', 10.9)).body.data).toMatchObject({ version: 'v3', candidate: true });
    expect((await rules.get('cand-numbering')).body.data).toMatchObject({ version: 'v1', candidate: { version: 'v3' } });
    // Publishing the candidate's content to be served promotes it: no v4.
    const promoted = await rules.publish('cand-numbering');
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toEqual({ id: 'cand-numbering', version: 'v3', checksum: expect.any(String) });
    const entity = (await rules.get('cand-numbering')).body.data;
    expect(entity).toMatchObject({ version: 'v3', status: 'published' });
    expect(entity.candidate).toBeUndefined();
    expect((await fee('cand-numbering', 3)).body.data).toMatchObject({ output: { fee: 10.9 }, version: 'v3' });
  });

  it('are superseded by a plain publish of other content, which is served as the next number', async () => {
    await withCandidate('cand-superseded');
    expect((await rollout.start('cand-superseded', { candidate: 'v2', mode: 'shadow' })).status).toBe(200);
    const { checksum } = (await rules.get('cand-superseded')).body.data;
    const edited = await rules.update('cand-superseded', { checksum, description: 'changed again' });
    const published = await rules.publish('cand-superseded', { checksum: edited.body.data.checksum });
    expect(published.status).toBe(201);
    expect(published.body.data.version).toBe('v3');
    const view = expectUnpaged(await rollout.get('cand-superseded'));
    expect(view).toMatchObject({ version: 'v3', candidate: null, rollout: { candidate: 'v2', state: 'superseded', ending: 'superseded' } });
  });

  it('are for rules only: a workflow published as a candidate is refused with the reason', async () => {
    const workflows = rulesClient(t.api, 'workflow');
    const created = await workflows.create(flow('cand-flow'));
    expect(created.status).toBe(201);
    const refused = await workflows.publish('cand-flow', { candidate: true });
    expectFailure(refused, 400, 'rollout_not_supported');
    expect(errorsOf(refused)).toEqual([{ in: 'body', field: 'candidate', message: expect.stringMatching(/only rules/) }]);
    expect((await workflows.get('cand-flow')).body.data).toMatchObject({ version: '', versions: [] });
  });
});

describe('a shadow rollout', () => {
  it('runs the candidate beside every execution without changing an answer, counting agreement and sampling disagreements', async () => {
    await withCandidate('shadow-fee');
    const started = expectUnpaged(await rollout.start('shadow-fee', { candidate: 'v2', mode: 'shadow' }));
    expect(started).toMatchObject({
      version: 'v1',
      candidate: { version: 'v2' },
      rollout: { candidate: 'v2', mode: 'shadow', state: 'running', startedBy: expect.stringMatching(/^key:/) },
      counts: { compared: 0, agree: 0, disagree: 0 },
      agreementRate: null,
      disagreements: [],
    });
    const answers = [];
    for (const weightKg of [1, 3, 1, 2, 5]) answers.push((await fee('shadow-fee', weightKg)).body.data);
    expect(answers.map((a) => [a.version, a.output])).toEqual([
      ['v1', { fee: 4.9 }],
      ['v1', { fee: 8.9 }],
      ['v1', { fee: 4.9 }],
      ['v1', { fee: 4.9 }],
      ['v1', { fee: 8.9 }],
    ]);
    await flushTallies();
    const view = expectUnpaged(await rollout.get('shadow-fee'));
    expect(view.counts).toEqual({
      compared: 5,
      agree: 3,
      disagree: 2,
      candidateFailed: 0,
      baselineFailed: 0,
      servedByCandidate: 0,
      servedByBaseline: 0,
      notSticky: 0,
    });
    expect(view.agreementRate).toBe(0.6);
    // At most one sample a second per function: the first disagreement at least, with its params and both answers.
    expect(view.disagreements.length).toBeGreaterThanOrEqual(1);
    expect(view.disagreements.at(-1)).toEqual({
      executionId: answers[1]!.executionId,
      at: expect.any(String),
      servedBy: 'baseline',
      input: { weightKg: 3 },
      baseline: { version: 'v1', output: { fee: 8.9 } },
      candidate: { version: 'v2', output: { fee: 9.9 } },
    });
    // The executions record the version that answered.
    const recorded = (await rules.executions('shadow-fee')).body.data;
    expect(new Set(recorded.map((e) => e.version))).toEqual(new Set(['v1']));
  });

  it('never fails an execution when the candidate fails: it counts as candidateFailed', async () => {
    await rules.published(feeTable('shadow-failing', 8.9));
    // The candidate sums its rows' fees, and a parcel of no weight has a fee that is not a number: it fails there, and only there.
    const { checksum } = (await rules.get('shadow-failing')).body.data;
    const failing = feeTable('shadow-failing', 8.9);
    Object.assign(failing.definition as Json, {
      hitPolicy: 'collect',
      aggregation: 'sum',
      rules: [
        { id: 'light', when: ['<= 2'], then: ['if weightKg = 0 then "none" else 4.9'] },
        { id: 'heavy', when: ['> 2'], then: [8.9] },
      ],
    });
    const edited = await rules.update('shadow-failing', { checksum, definition: failing.definition as Json });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await rules.publish('shadow-failing', { candidate: true })).status).toBe(201);
    expect((await rollout.start('shadow-failing', { candidate: 'v2', mode: 'shadow' })).status).toBe(200);
    const answer = await fee('shadow-failing', 0);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ output: { fee: 4.9 }, version: 'v1' });
    await flushTallies();
    const view = expectUnpaged(await rollout.get('shadow-failing'));
    expect(view.counts).toMatchObject({ compared: 1, agree: 0, candidateFailed: 1 });
    expect(view.disagreements[0]).toMatchObject({ baseline: { output: { fee: 4.9 } }, candidate: { version: 'v2', error: { code: 'evaluation_failed' } } });
  });

  it('leaves alone executions that name a version', async () => {
    await withCandidate('shadow-named');
    await rollout.start('shadow-named', { candidate: 'v2', mode: 'shadow' });
    expect((await rules.execute('shadow-named', { params: { weightKg: 3 }, version: 'v1' })).body.data).toMatchObject({ version: 'v1' });
    await flushTallies();
    expect(expectUnpaged(await rollout.get('shadow-named')).counts).toMatchObject({ compared: 0 });
  });
});

describe('a canary rollout', () => {
  it('answers its share with the candidate, the same customer always with the same version, each execution recording it', async () => {
    await withCandidate('canary-fee');
    const started = expectUnpaged(await rollout.start('canary-fee', { candidate: 'v2', mode: 'canary', percent: 50, stickyBy: 'customer.id' }));
    expect(started.rollout).toMatchObject({ mode: 'canary', percent: 50, stickyBy: 'customer.id' });
    const customers = Array.from({ length: 12 }, (_, i) => `cust-${i}`);
    const versionOf = new Map<string, string>();
    for (let round = 0; round < 3; round++)
      for (const id of customers) {
        const { version, output } = (await fee('canary-fee', 3, { customer: { id } })).body.data;
        expect(output).toEqual({ fee: version === 'v2' ? 9.9 : 8.9 });
        expect(versionOf.get(id) ?? version, id).toBe(version);
        versionOf.set(id, version);
      }
    const served = [...versionOf.values()];
    expect(served).toContain('v1');
    expect(served).toContain('v2');
    // Each execution's record holds the version that answered it.
    const recorded = (await rules.executions('canary-fee', { pageSize: 100 })).body.data;
    for (const execution of recorded) expect(execution.version).toBe(versionOf.get((execution.input as { customer: { id: string } }).customer.id));
    await flushTallies();
    const { counts } = expectUnpaged(await rollout.get('canary-fee'));
    const byCandidate = served.filter((v) => v === 'v2').length * 3;
    expect(counts).toMatchObject({ compared: 36, disagree: 36, servedByCandidate: byCandidate, servedByBaseline: 36 - byCandidate, notSticky: 0 });
  });

  it('picks params without the stickyBy value at random, and counts them', async () => {
    await withCandidate('canary-unsticky');
    await rollout.start('canary-unsticky', { candidate: 'v2', mode: 'canary', percent: 50, stickyBy: 'customer.id' });
    for (let i = 0; i < 4; i++) await fee('canary-unsticky', 1);
    await flushTallies();
    expect(expectUnpaged(await rollout.get('canary-unsticky')).counts).toMatchObject({ compared: 4, agree: 4, notSticky: 4 });
  });

  it('keeps its counts when its percent changes, and starts afresh for another mode', async () => {
    await withCandidate('canary-widen');
    const first = expectUnpaged(await rollout.start('canary-widen', { candidate: 'v2', mode: 'canary', percent: 5 }));
    await fee('canary-widen', 1);
    const same = expectUnpaged(await rollout.start('canary-widen', { candidate: 'v2', mode: 'canary', percent: 5 }));
    expect(same.rollout).toEqual(first.rollout);
    const widened = expectUnpaged(await rollout.start('canary-widen', { candidate: 'v2', mode: 'canary', percent: 20 }));
    expect(widened.rollout).toMatchObject({ id: first.rollout!.id, percent: 20, startedAt: first.rollout!.startedAt, updatedAt: expect.any(String) });
    await flushTallies();
    expect(expectUnpaged(await rollout.get('canary-widen')).counts).toMatchObject({ compared: 1 });
    const shadow = expectUnpaged(await rollout.start('canary-widen', { candidate: 'v2', mode: 'shadow' }));
    expect(shadow.rollout!.id).not.toBe(first.rollout!.id);
    expect(shadow.rollout).not.toHaveProperty('percent');
    expect(shadow.counts).toMatchObject({ compared: 0 });
  });
});

describe('promote and end', () => {
  it('promotes the candidate: executions get it by default, the rollout ends, and the same promote again is answered as done', async () => {
    await withCandidate('promote-fee');
    await rollout.start('promote-fee', { candidate: 'v2', mode: 'shadow' });
    const promoted = expectUnpaged(await rollout.promote('promote-fee', 'v2'));
    expect(promoted).toMatchObject({ version: 'v2', candidate: null, rollout: { state: 'promoted', endedBy: expect.stringMatching(/^key:/) } });
    expect(expectUnpaged(await rollout.promote('promote-fee', 'v2'))).toEqual(promoted);
    expect((await fee('promote-fee', 3)).body.data).toMatchObject({ output: { fee: 9.9 }, version: 'v2' });
    expect((await rules.get('promote-fee')).body.data).toMatchObject({ version: 'v2', status: 'published' });
    await flushTallies();
    expect(expectUnpaged(await rollout.get('promote-fee')).counts).toMatchObject({ compared: 0 });
    // Audited: the start and the promotion, once each (the retry wrote nothing).
    const records = (await t.runtime.store.readAudit('demo', { limit: 50 })).filter((record) => record.target.id === 'promote-fee');
    expect(records.map((record) => [record.operation, record.detail])).toEqual([
      ['promoteCandidate', { version: 'v2', replaced: 'v1' }],
      ['startRollout', { candidate: 'v2', mode: 'shadow' }],
      ['publishEntity', { version: 'v2', candidate: 'true' }],
      ['updateEntity', undefined],
      ['publishEntity', { version: 'v1' }],
      ['createEntity', undefined],
    ]);
  });

  it('refuses to promote what is not the candidate', async () => {
    await withCandidate('promote-other');
    expectFailure(await rollout.promote('promote-other', 'v3'), 409, 'promote_refused');
    await rules.published(feeTable('promote-none', 8.9));
    expectFailure(await rollout.promote('promote-none', 'v2'), 409, 'promote_refused');
    expect((await rules.get('promote-other')).body.data).toMatchObject({ version: 'v1', candidate: { version: 'v2' } });
  });

  it('ends the rollout, keeping its results and the candidate; ending again changes nothing', async () => {
    await withCandidate('end-fee');
    await rollout.start('end-fee', { candidate: 'v2', mode: 'shadow' });
    await fee('end-fee', 3);
    const ended = expectUnpaged(await rollout.end('end-fee'));
    expect(ended).toMatchObject({ version: 'v1', candidate: { version: 'v2' }, rollout: { state: 'ended', ending: 'ended' } });
    expect(expectUnpaged(await rollout.end('end-fee'))).toEqual(ended);
    await fee('end-fee', 3);
    await flushTallies();
    expect(expectUnpaged(await rollout.get('end-fee')).counts).toMatchObject({ compared: 1, disagree: 1 });
  });
});

describe('refusals', () => {
  it('refuses a candidate that is not the rule’s, and a rule with none', async () => {
    await withCandidate('refuse-fee');
    expectFailure(await rollout.start('refuse-fee', { candidate: 'v1', mode: 'shadow' }), 409, 'rollout_refused');
    await rules.published(feeTable('refuse-plain', 8.9));
    expectFailure(await rollout.start('refuse-plain', { candidate: 'v2', mode: 'shadow' }), 409, 'rollout_refused');
    expectFailure(await rollout.start('refuse-missing', { candidate: 'v2', mode: 'shadow' }), 404, 'entity_not_found');
    expect(expectUnpaged(await rollout.get('refuse-plain'))).toEqual({
      version: 'v1',
      candidate: null,
      rollout: null,
      counts: null,
      agreementRate: null,
      disagreements: [],
    });
  });

  it('names the field at fault: a canary without its percent, a shadow with one, a percent out of bounds', async () => {
    await withCandidate('refuse-body');
    for (const [body, field] of [
      [{ candidate: 'v2', mode: 'canary' }, 'percent'],
      [{ candidate: 'v2', mode: 'shadow', percent: 10 }, 'percent'],
      [{ candidate: 'v2', mode: 'shadow', stickyBy: 'customer.id' }, 'stickyBy'],
      [{ candidate: 'v2', mode: 'canary', percent: 51 }, 'percent'],
      [{ candidate: 'v2', mode: 'canary', percent: 0.5 }, 'percent'],
      [{ candidate: 'v2', mode: 'canary', percent: 10, stickyBy: 'customer..id' }, 'stickyBy'],
      [{ candidate: 'latest', mode: 'shadow' }, 'candidate'],
      [{ candidate: 'v2', mode: 'blue-green' }, 'mode'],
    ] as const) {
      const refused = await rollout.start('refuse-body', body);
      expectFailure(refused, 400, 'invalid_request');
      expect(errorsOf(refused).map((e) => e.field)).toEqual([field]);
    }
    expect(expectUnpaged(await rollout.get('refuse-body')).rollout).toBeNull();
  });

  it('refuses workflows with the reason on every rollout operation', async () => {
    for (const [method, path, body] of [
      ['GET', rolloutPath('loan-application', 'workflow'), undefined],
      ['PUT', rolloutPath('loan-application', 'workflow'), { candidate: 'v2', mode: 'shadow' }],
      ['POST', `${rolloutPath('loan-application', 'workflow')}/promote`, { candidate: 'v2' }],
      ['DELETE', rolloutPath('loan-application', 'workflow'), undefined],
    ] as const)
      expectFailure(await t.api(path, { method, ...(body && { body: JSON.stringify(body) }) }), 400, 'rollout_not_supported');
  });

  it('asks the publish permission to change a rollout, and read to see it', async () => {
    await withCandidate('refuse-reader');
    const { createApiKey } = await import('../../lib/workspaces/admin.ts');
    const reader = await createApiKey(t.runtime.store, 'demo', { label: 'reader', role: 'reader' });
    expect((await rollout.get('refuse-reader', { key: reader.key })).status).toBe(200);
    expectFailure(await rollout.start('refuse-reader', { candidate: 'v2', mode: 'shadow' }, { key: reader.key }), 403, 'forbidden');
    expectFailure(await rollout.promote('refuse-reader', 'v2', { key: reader.key }), 403, 'forbidden');
    expectFailure(await rollout.end('refuse-reader', { key: reader.key }), 403, 'forbidden');
  });
});
