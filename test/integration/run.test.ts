/**
 * Running rules on /dev/v1: test a draft or a version with a trace, execute
 * the published rule, rule sets that refer to other rules, and the recorded
 * executions. Engine failures answer as the contract says: bad params 400
 * naming each, a rule that cannot answer 422, references that do not resolve
 * 409; never a 5xx.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { errorsOf, fieldsOf, overlappingByDate, parcelFee, ruleSetOf, rulesClient, simple, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
let rules: ReturnType<typeof rulesClient>;

beforeAll(() => {
  rules = rulesClient(t.api);
});

describe('test', () => {
  it('evaluates the draft with a trace of every row, recording nothing', async () => {
    const created = await rules.create(parcelFee('traced'));
    const response = await rules.test('traced', { params: { weightKg: 3 }, checksum: created.body.data.checksum });
    expectSuccess(response);
    expect(response.body.data).toEqual({
      output: { fee: 8.9 },
      trace: {
        kind: 'decisionTable',
        inputs: [{ label: 'Weight', value: 3 }],
        rows: [
          { row: 1, id: 'light', matched: false, failed: { input: 'Weight', cell: '<= 2', value: 3 } },
          { row: 2, id: 'heavy', matched: true },
        ],
      },
      durationMs: expect.any(Number),
    });
    expectSuccess(await rules.executions('traced'), { pageNo: 1, pageSize: 10, totalCount: 0 });
  });

  it("refuses a checksum that is not the draft's with 409 checksum_mismatch", async () => {
    const created = await rules.create(parcelFee('test-stale'));
    await rules.update('test-stale', { checksum: created.body.data.checksum, description: 'changed' });
    expectFailure(await rules.test('test-stale', { params: { weightKg: 1 }, checksum: created.body.data.checksum }), 409, 'checksum_mismatch', {});
  });

  it('tests a named version instead of the draft', async () => {
    const v1 = await rules.published(parcelFee('test-version'));
    const draft = await rules.update('test-version', {
      checksum: v1.checksum,
      definition: parcelFee('x', { rules: [{ when: ['-'], then: [1] }], tests: [] }).definition as Json,
    });
    expect((await rules.test('test-version', { params: { weightKg: 3 } })).body.data.output).toEqual({ fee: 1 });
    const named = await rules.test('test-version', { params: { weightKg: 3 }, version: 'v1', checksum: v1.checksum });
    expectSuccess(named);
    expect(named.body.data.output).toEqual({ fee: 8.9 });
    expectFailure(await rules.test('test-version', { params: {}, version: 'v1', checksum: draft.body.data.checksum }), 409, 'checksum_mismatch');
    expectFailure(await rules.test('test-version', { params: {}, version: 'v7' }), 404, 'version_not_found');
  });

  it('traces simple rules and rule sets', async () => {
    await rules.create(simple('traced-simple', { when: 'total >= 50', then: { fee: 0 }, otherwise: { fee: 5 } }));
    expect((await rules.test('traced-simple', { params: { total: 20 } })).body.data).toMatchObject({
      output: { fee: 5 },
      trace: { kind: 'simpleRule', condition: 'total >= 50', result: false },
    });
  });

  it('tests the draft as typed (definition) in place of the stored one, checked as a save checks it, never stored', async () => {
    const created = await rules.create(parcelFee('typed-draft'));
    const typed = parcelFee('x', { rules: [{ id: 'any', when: ['-'], then: [2.5] }], tests: [] }).definition as Json;
    const tested = await rules.test('typed-draft', { params: { weightKg: 3 }, definition: typed });
    expectSuccess(tested);
    expect(tested.body.data).toMatchObject({ output: { fee: 2.5 }, trace: { kind: 'decisionTable', rows: [{ row: 1, id: 'any', matched: true }] } });
    // A batch of the typed draft too; the stored draft is as it was.
    const batch = await t.api<{ outputs: { output: unknown }[] }>('/dev/v1/rule/typed-draft/test', {
      method: 'POST',
      body: JSON.stringify({ paramsList: [{ weightKg: 1 }, { weightKg: 9 }], definition: typed }),
    });
    expect(batch.body.data.outputs.map((slot) => slot.output)).toEqual([{ fee: 2.5 }, { fee: 2.5 }]);
    const stored = await rules.get('typed-draft');
    expect(stored.body.data.checksum).toBe(created.body.data.checksum);
    expect((await rules.test('typed-draft', { params: { weightKg: 3 } })).body.data.output).toEqual({ fee: 8.9 });

    // What a save would refuse, the test refuses, by the same paths; a kind's own shape is checked as the stored type's.
    const rows = (third: Json) => parcelFee('x', { rules: [{ when: ['<= 2'], then: [1] }, { when: ['> 2'], then: [2] }, third], tests: [] }).definition as Json;
    const refused = await rules.test('typed-draft', { params: { weightKg: 3 }, definition: rows({ when: ['<< 3'], then: [3] }) });
    expectFailure(refused, 400, 'invalid_request');
    expect(fieldsOf(refused)).toEqual(['definition.rules[2].when[0]']);
    expect(fieldsOf(await rules.test('typed-draft', { params: {}, definition: rows({ when: ['-'], then: [] }) }))).toEqual(['definition.rules[2].then']);
    expectFailure(await rules.test('typed-draft', { params: {}, definition: { when: 'true', then: { fee: 1 } } }), 400, 'invalid_request');
    expect(fieldsOf(await rules.test('typed-draft', { params: {}, definition: typed, version: 'v1' }))).toEqual(['version']);
    expect(fieldsOf(await rules.test('typed-draft', { params: {}, definition: typed, checksum: created.body.data.checksum }))).toEqual(['checksum']);
    // As large as a save takes, no larger.
    const huge = { ...typed, rules: [{ id: 'big', description: 'x'.repeat(1000), when: ['-'], then: [1] }], padding: 'y'.repeat(310 * 1024) };
    expect(fieldsOf(await rules.test('typed-draft', { params: {}, definition: huge }))).toEqual(['definition']);
    expectFailure(await t.api('/dev/v1/rule/nobody/test', { method: 'POST', body: JSON.stringify({ definition: typed }) }), 404, 'entity_not_found');
  });

  it('resolves the references of a rule set typed as they would resolve once saved, and refuses a typed definition for a workflow', async () => {
    await rules.published(simple('typed-vip', { when: 'spent > 100', then: { vip: true }, otherwise: { vip: false } }));
    await rules.create(ruleSetOf('typed-set', [{ id: 'base', when: 'true', then: [{ set: 'vip', value: false }] }]));
    const typed = ruleSetOf('x', [{ id: 'customer', ruleId: 'typed-vip' }]).definition as Json;
    expect((await rules.test('typed-set', { params: { spent: 500 }, definition: typed })).body.data.output).toEqual({ vip: true });
    const missing = ruleSetOf('x', [{ id: 'ghost', ruleId: 'typed-nobody' }]).definition as Json;
    expectFailure(await rules.test('typed-set', { params: {}, definition: missing }), 409, 'rule_reference_not_found');
    const workflow = await t.api('/dev/v1/workflow/checkout/test', {
      method: 'POST',
      body: JSON.stringify({ params: {}, definition: { start: 'x', steps: [] } }),
    });
    expectFailure(workflow, 400, 'invalid_request');
    expect(fieldsOf(workflow)).toEqual(['definition']);
  });

  it('serves rules and workflows, and no other type', async () => {
    expectFailure(await t.api('/dev/v1/flows/checkout/test', { method: 'POST', body: '{}' }), 404, 'entity_type_not_found');
    expectFailure(await t.api('/dev/v1/workflow/nobody/test', { method: 'POST', body: '{}' }), 404, 'entity_not_found');
  });
});

describe('execute', () => {
  it('runs the latest published version, not the draft, and says which', async () => {
    const v1 = await rules.published(parcelFee('executed'));
    await rules.update('executed', {
      checksum: v1.checksum,
      definition: parcelFee('x', { rules: [{ when: ['-'], then: [7] }], tests: [] }).definition as Json,
    });
    const first = await rules.execute('executed', { params: { weightKg: 1 } });
    expectSuccess(first);
    expect(first.body.data).toEqual({
      output: { fee: 4.9 },
      version: 'v1',
      executionId: expect.stringMatching(/^exec_[0-9a-f]{20}$/),
      durationMs: expect.any(Number),
    });
    await rules.publish('executed');
    expect((await rules.execute('executed', { params: { weightKg: 1 } })).body.data).toMatchObject({ output: { fee: 7 }, version: 'v2' });
  });

  it('runs a pinned version', async () => {
    const v1 = await rules.published(parcelFee('pinned'));
    await rules.update('pinned', { checksum: v1.checksum, definition: parcelFee('x', { rules: [{ when: ['-'], then: [7] }], tests: [] }).definition as Json });
    await rules.publish('pinned');
    expect((await rules.execute('pinned', { params: { weightKg: 1 }, version: 'v1' })).body.data).toMatchObject({ output: { fee: 4.9 }, version: 'v1' });
    expectFailure(await rules.execute('pinned', { params: {}, version: 'v9' }), 404, 'version_not_found');
  });

  it('refuses a rule never published with 409 rule_not_published, and an unknown rule with 404', async () => {
    await rules.create(parcelFee('unpublished'));
    expectFailure(await rules.execute('unpublished', { params: { weightKg: 1 } }), 409, 'rule_not_published', {});
    expectFailure(await rules.execute('nobody', { params: {} }), 404, 'entity_not_found');
  });

  it('answers a param of the wrong type with 400 naming it', async () => {
    await rules.published(parcelFee('typed'));
    const response = await rules.execute('typed', { params: { weightKg: 'heavy' } });
    expectFailure(response, 400, 'invalid_request', {
      errors: [{ in: 'body', field: 'params.weightKg', message: 'expected a number, got the string "heavy"' }],
    });
    expect(response.body.message).toContain('params.weightKg');
  });

  it('answers 422 evaluation_failed naming the rows when two match under unique', async () => {
    // Date cells are beyond the publish-time overlap check, so the overlap shows at run time.
    await rules.published(overlappingByDate('by-date'));
    expect((await rules.execute('by-date', { params: { day: '2025-02-01' } })).body.data.output).toEqual({ fee: 1 });
    const response = await rules.execute('by-date', { params: { day: '2025-07-01' } });
    expectFailure(response, 422, 'evaluation_failed', {});
    expect(response.body.message).toMatch(/row 1 \(winter\) and row 2 \(summer\)/);
  });

  it('refuses params that are not an object, too large or too deep before running, and unknown fields', async () => {
    await rules.published(parcelFee('bounded'));
    const notObject = await rules.execute('bounded', { params: [1] });
    expect(fieldsOf(notObject)).toEqual(['params']);
    const large = await rules.execute('bounded', { params: { weightKg: 1, note: 'x'.repeat(17_000) } });
    expectFailure(large, 400, 'invalid_request');
    expect(errorsOf(large)[0]).toMatchObject({ field: 'params', message: expect.stringMatching(/more than the 16384 allowed/) });
    let deep: Json = {};
    for (let i = 0; i < 40; i++) deep = { deep };
    expect((await rules.execute('bounded', { params: deep })).body.data).toEqual({
      errors: [{ in: 'body', field: 'params', message: 'nests deeper than 32 levels' }],
    });
    expect(fieldsOf(await rules.execute('bounded', { params: {}, trace: true }))).toEqual(['body']);
    expectFailure(await rules.execute('bounded', { params: {}, version: 'latest' }), 400, 'invalid_request');
  });

  it('refuses a rule whose stored definition has problems, never a 5xx: execute 409 rule_not_prepared (no parser there), test 409 rule_invalid with the problems', async () => {
    const { importEntities } = await import('../../lib/publishing/import.ts');
    // An import checks the record schema only: FEEL problems reach the store.
    await importEntities(
      t.runtime.store,
      { workspaceId: 'demo', branch: 'main' },
      [{ origin: 'test', content: simple('imported-broken', { when: 'total >', then: { fee: 0 } }) }],
      {
        actor: 'test',
        publish: true,
      },
    );
    expectFailure(await rules.execute('imported-broken', { params: {} }), 409, 'rule_not_prepared');
    expectFailure(await rules.test('imported-broken', { params: {} }), 409, 'rule_invalid', {
      problems: [{ path: 'definition.when', message: expect.stringMatching(/line 1, column/) }],
    });
  });
});

describe('rule sets that refer to other rules', () => {
  it('run the referenced rules, latest published or pinned, and show them in the trace', async () => {
    await rules.published(simple('ref-vip', { when: 'spent > 1000', then: { vip: true }, otherwise: { vip: false } }));
    const set = ruleSetOf('ref-set', [
      { id: 'customer', ruleId: 'ref-vip' },
      { id: 'discount', when: 'vip', then: [{ set: 'discount', value: 0.1 }] },
    ]);
    await rules.published(set);
    expect((await rules.execute('ref-set', { params: { spent: 5000 } })).body.data.output).toEqual({ vip: true, discount: 0.1 });

    const tested = await rules.test('ref-set', { params: { spent: 5 } });
    expect(tested.body.data.output).toEqual({ vip: false });
    expect(tested.body.data.trace).toMatchObject({
      kind: 'ruleSet',
      entries: [
        { id: 'customer', ruleId: 'ref-vip', matched: true, trace: { kind: 'simpleRule', result: false } },
        { id: 'discount', matched: false },
      ],
    });

    // ref-vip v2 changes the threshold; a pinned reference keeps v1.
    const vip = await rules.get('ref-vip');
    await rules.update('ref-vip', { checksum: vip.body.data.checksum, definition: { when: 'spent > 10', then: { vip: true }, otherwise: { vip: false } } });
    await rules.publish('ref-vip');
    expect((await rules.test('ref-set', { params: { spent: 50 } })).body.data.output).toEqual({ vip: true, discount: 0.1 });
    const pinned = ruleSetOf('ref-pinned', [{ id: 'customer', ruleId: 'ref-vip', version: 'v1' }]);
    await rules.published(pinned);
    expect((await rules.execute('ref-pinned', { params: { spent: 50 } })).body.data.output).toEqual({ vip: false });
  });

  it('refuse a reference the branch cannot resolve with 409 rule_reference_not_found', async () => {
    await rules.create(ruleSetOf('ref-missing', [{ id: 'ghost', ruleId: 'no-such-rule' }]));
    const tested = await rules.test('ref-missing', { params: {} });
    expectFailure(tested, 409, 'rule_reference_not_found', {});
    expect(tested.body.message).toMatch(/"no-such-rule", which the branch does not have/);
    expectFailure(await rules.publish('ref-missing'), 409, 'rule_reference_not_found');
    await rules.create(simple('ref-draft-only', { when: 'true', then: { y: 1 } }));
    await rules.create(ruleSetOf('ref-unpublished', [{ id: 'draft', ruleId: 'ref-draft-only' }]));
    expect((await rules.test('ref-unpublished', { params: {} })).body.message).toMatch(/has no published version/);
  });

  it('refuse a cycle with 409 rule_reference_cycle naming the rules on it', async () => {
    await rules.published(ruleSetOf('cycle-a', [{ id: 'base', when: 'true', then: [{ set: 'a', value: 1 }] }]));
    await rules.published(ruleSetOf('cycle-b', [{ id: 'to-a', ruleId: 'cycle-a' }]));
    // a now refers to b, which refers to a.
    const a = await rules.get('cycle-a');
    await rules.update('cycle-a', { checksum: a.body.data.checksum, definition: ruleSetOf('x', [{ id: 'to-b', ruleId: 'cycle-b' }]).definition as Json });
    const tested = await rules.test('cycle-a', { params: {} });
    expectFailure(tested, 409, 'rule_reference_cycle', {});
    expect(tested.body.message).toContain('cycle-a → cycle-b → cycle-a');
    expectFailure(await rules.publish('cycle-a'), 409, 'rule_reference_cycle');
    expect((await rules.get('cycle-a')).body.data.versions.map((v) => v.version)).toEqual(['v1']);
    // A rule set that refers to itself.
    await rules.create(ruleSetOf('self', [{ id: 'me', ruleId: 'self' }]));
    expectFailure(await rules.test('self', { params: {} }), 409, 'rule_reference_cycle');
  });
});

describe('executions', () => {
  it('are recorded when the rule asks, failed ones too, and listed newest first with paging', async () => {
    await rules.published(parcelFee('recorded'));
    const ids: string[] = [];
    for (let weightKg = 1; weightKg <= 11; weightKg++) ids.push((await rules.execute('recorded', { params: { weightKg } })).body.data.executionId);
    const failed = await rules.execute('recorded', { params: { weightKg: 'heavy' } });
    expect(failed.status).toBe(400);

    const first = await rules.executions('recorded', { pageSize: 5 });
    expectSuccess(first, { pageNo: 1, pageSize: 5, totalCount: 12 });
    const [newest, ...rest] = first.body.data;
    expect(newest).toEqual({
      executionId: expect.stringMatching(/^exec_/),
      ruleId: 'recorded',
      version: 'v1',
      trigger: 'api',
      outcome: 'failed',
      input: { weightKg: 'heavy' },
      error: { code: 'invalid_params', message: expect.stringContaining('params.weightKg') },
      durationMs: expect.any(Number),
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(newest!.expiresAt) - Date.parse(newest!.startedAt)).toBe(30 * 24 * 3600 * 1000);
    expect(rest[0]).toMatchObject({ executionId: ids[10], outcome: 'succeeded', input: { weightKg: 11 }, output: { fee: 8.9 } });

    const pages = [first, await rules.executions('recorded', { pageSize: 5, pageNo: 2 }), await rules.executions('recorded', { pageSize: 5, pageNo: 3 })];
    expectSuccess(pages[2]!, { pageNo: 3, pageSize: 5, totalCount: 12 });
    const listed = pages.flatMap((page) => page.body.data);
    expect(listed.slice(1).map((e) => e.executionId)).toEqual([...ids].reverse());
    const times = listed.map((e) => e.startedAt);
    expect(times).toEqual([...times].sort().reverse());
    expectSuccess(await rules.executions('recorded', { pageSize: 5, pageNo: 4 }), { pageNo: 4, pageSize: 5, totalCount: 12 });
    expect((await rules.executions('recorded', { pageSize: 5, pageNo: 4 })).body.data).toEqual([]);
  });

  it('are not recorded when the rule does not ask, though each run has an id', async () => {
    await rules.published(parcelFee('unrecorded', { settings: { recordExecutions: false } }));
    const run = await rules.execute('unrecorded', { params: { weightKg: 1 } });
    expect(run.body.data.executionId).toMatch(/^exec_/);
    expectSuccess(await rules.executions('unrecorded'), { pageNo: 1, pageSize: 10, totalCount: 0 });
  });

  it('record a run that cannot answer, with the error', async () => {
    await rules.published(
      parcelFee('recorded-conflict', {
        parameters: [{ name: 'day', type: 'date' }],
        inputs: [{ id: 'day', expression: 'day', type: 'date' }],
        rules: [
          { when: ['>= date("2025-01-01")'], then: [1] },
          { when: ['>= date("2025-06-01")'], then: [2] },
        ],
        tests: [],
      }),
    );
    expect((await rules.execute('recorded-conflict', { params: { day: '2025-07-01' } })).status).toBe(422);
    const [execution] = (await rules.executions('recorded-conflict')).body.data;
    expect(execution).toMatchObject({ outcome: 'failed', error: { code: 'evaluation_failed', message: expect.stringMatching(/row 1 and row 2/) } });
  });

  it('answer 404 for a rule that does not exist', async () => {
    expectFailure(await rules.executions('nobody'), 404, 'entity_not_found');
  });
});

describe('another workspace', () => {
  it("gets 404 for this workspace's rules: no test, execution or list of executions", async () => {
    await rules.published(parcelFee('private'));
    await rules.execute('private', { params: { weightKg: 1 } });
    const other = await createWorkspaceWithKey(t.runtime.store, { id: 'run-other' });
    const key = { key: other.key };
    expectFailure(await rules.test('private', { params: {} }, key), 404, 'entity_not_found');
    expectFailure(await rules.execute('private', { params: {} }, key), 404, 'entity_not_found');
    expectFailure(await rules.executions('private', {}, key), 404, 'entity_not_found');
    // The demo workspace's own rule of a shared id is another rule.
    expectFailure(await rules.execute('shipping-cost', { params: {} }, key), 404, 'entity_not_found');
    expectSuccess(await rules.executions('private'), { pageNo: 1, pageSize: 10, totalCount: 1 });
  });
});
