/**
 * Authoring on /dev/v1: create, edit, publish and delete rules and workflows
 * through the local runtime. Writes are safe to retry, an edit or publish
 * with a stale checksum never overwrites, every save is validated whole with
 * each problem by path, and publishing freezes immutable versions once the
 * rule's checks and test cases pass.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { entityInputSchema } from '../../lib/entities/schema.ts';
import { createWorkspaceWithKey } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { errorsOf, fieldsOf, flow, parcelFee, rulesClient, simple, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
let rules: ReturnType<typeof rulesClient>;
let workflows: ReturnType<typeof rulesClient>;

beforeAll(() => {
  rules = rulesClient(t.api);
  workflows = rulesClient(t.api, 'workflow');
});

const checksumOf = (record: Json) => entityChecksum(entityInputSchema.parse(record));

describe('create', () => {
  it('answers 201 with the id, checksum and warnings, then 200 with the same on a retry', async () => {
    const record = parcelFee('create-retry');
    const first = await rules.create(record);
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({ id: 'create-retry', checksum: checksumOf(record), warnings: expect.any(Array) });
    const again = await rules.create(record);
    expectSuccess(again);
    expect(again.body.data).toEqual(first.body.data);
    const stored = await rules.get('create-retry');
    expect(stored.body.data).toMatchObject({
      status: 'draft',
      version: '',
      revision: 1,
      checksum: first.body.data.checksum,
      createdBy: expect.stringMatching(/^key:/),
    });
  });

  it('makes one draft when the same create arrives several times at once', async () => {
    const record = parcelFee('create-race');
    const answers = await Promise.all(Array.from({ length: 5 }, () => rules.create(record)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.data.checksum)).size).toBe(1);
    const listed = await t.api<{ id: string }[]>('/dev/v1/rule', { query: { name: 'create-race', pageSize: 100 } });
    expect(listed.body.data.map((s) => s.id)).toEqual(['create-race']);
  });

  it('refuses the same id with other content with 409 entity_exists, leaving the draft as it was', async () => {
    const record = parcelFee('create-conflict');
    const { body } = await rules.create(record);
    expectFailure(await rules.create({ ...record, name: 'Another name' }), 409, 'entity_exists', {});
    expect((await rules.get('create-conflict')).body.data).toMatchObject({ name: record.name, checksum: body.data.checksum });
  });

  it('counts the new rule in the list and in its kind', async () => {
    const before = await t.api('/dev/v1/rule', { query: { type: 'simpleRule' } });
    await rules.create(simple('create-counted', { when: 'x > 1', then: { y: 1 } }));
    expectSuccess(await t.api('/dev/v1/rule', { query: { type: 'simpleRule' } }), { pageNo: 1, pageSize: 10, totalCount: before.body.totalCount + 1 });
  });

  it('refuses a rule kind on the workflow path and the other way round', async () => {
    const asWorkflow = await workflows.create(simple('wrong-path', { when: 'true', then: { y: 1 } }));
    expectFailure(asWorkflow, 400, 'invalid_request');
    expect(fieldsOf(asWorkflow)).toEqual(['type']);
    expectFailure(await rules.create(flow('wrong-path-flow')), 400, 'invalid_request');
  });

  it('refuses unknown body fields by name, and a definition larger than its bound', async () => {
    const unknown = await rules.create({ ...parcelFee('strict'), status: 'published', colour: 'red' });
    expectFailure(unknown, 400, 'invalid_request');
    expect(errorsOf(unknown)[0]!.message).toBe('unknown fields: status, colour');
    const huge = parcelFee('huge', { rules: Array.from({ length: 4000 }, (_, i) => ({ description: 'x'.repeat(80), when: [`= ${i}`], then: [i] })) });
    const refused = await rules.create(huge);
    expectFailure(refused, 400, 'invalid_request');
    expect(errorsOf(refused)).toEqual([{ in: 'body', field: 'definition', message: expect.stringMatching(/bytes as JSON, more than the 307200 allowed/) }]);
  });
});

describe('validation', () => {
  it('lists every problem by its path: the schema, FEEL syntax with its position, undeclared names and type mismatches', async () => {
    const response = await rules.create({
      ...parcelFee('invalid'),
      name: ' padded ',
      definition: {
        ...(parcelFee('invalid').definition as Json),
        rules: [
          { when: ['<= 2'], then: [4.9] },
          { when: ['< ('], then: [1] },
          { when: ['> "x"'], then: ['"a"'] },
          { when: ['total > 2'], then: [3] },
        ],
      },
    });
    expectFailure(response, 400, 'invalid_request');
    expect(errorsOf(response)).toEqual([
      { in: 'body', field: 'name', message: 'must not start or end with whitespace' },
      { in: 'body', field: 'definition.rules[1].when[0]', message: 'the expression is incomplete at line 1, column 4' },
      { in: 'body', field: 'definition.rules[2].then[0]', message: 'is a string, but the output is declared number' },
      { in: 'body', field: 'definition.rules[3].when[0]', message: '"total" is not a declared input (declared: weightKg)' },
    ]);
    expect(response.body.message).toContain('definition.rules[1].when[0]: the expression is incomplete at line 1, column 4');
    expectFailure(await rules.get('invalid'), 404, 'entity_not_found');
  });

  it('lists the structural problems of a definition with bracketed paths', async () => {
    const response = await rules.create(
      parcelFee('invalid-shape', { rules: [{ when: [], then: [1, 2] }], parameters: [{ name: 'weight.kg', type: 'number' }] }),
    );
    expectFailure(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toEqual(['definition.parameters[0].name', 'definition.rules[0].when', 'definition.rules[0].then']);
    expect(fieldsOf(await rules.create(parcelFee('invalid-policy', { hitPolicy: 'sometimes' })))).toEqual(['definition.hitPolicy']);
  });

  it('validates workflows with their schema', async () => {
    const record = flow('invalid-flow');
    const response = await workflows.create({ ...record, definition: { start: 'nowhere', steps: [{ id: 'done', kind: 'end' }] } });
    expectFailure(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toEqual(['definition.start']);
  });
});

describe('warnings', () => {
  it('are answered with the save and shown by the v1 get, and follow the draft', async () => {
    const record = parcelFee('warned', {
      hitPolicy: 'first',
      rules: [
        { when: ['> 0'], then: [1] },
        { when: ['> 5'], then: [2] },
      ],
      tests: [],
    });
    const created = await rules.create(record);
    expect(created.status).toBe(201);
    expect(created.body.data.warnings).toEqual([
      { path: 'definition.rules[1]', message: 'can never be the answer: every input it matches, row 1 above it matches first' },
      { path: 'definition.rules', message: 'no row covers Weight < 0' },
      { path: 'definition.rules', message: 'no row covers Weight 0' },
    ]);
    expect((await rules.get('warned')).body.data.warnings).toEqual(created.body.data.warnings);
    // The legacy get has no warnings.
    expect(Object.keys((await t.api<Json>('/dev/rule/warned')).body.data)).not.toContain('warnings');

    const fixed = await rules.update('warned', {
      checksum: created.body.data.checksum,
      definition: { ...(record.definition as Json), rules: [{ when: ['-'], then: [1] }] },
    });
    expectSuccess(fixed);
    expect(fixed.body.data.warnings).toEqual([]);
    expect((await rules.get('warned')).body.data.warnings).toEqual([]);
  });
});

describe('edit', () => {
  it('applies the fields given to the draft the checksum names, and answers the new checksum', async () => {
    const record = parcelFee('edited');
    const created = await rules.create(record);
    const edited = await rules.update('edited', { checksum: created.body.data.checksum, description: 'per kilogram', tags: ['pricing'] });
    expectSuccess(edited);
    expect(edited.body.data.checksum).toBe(checksumOf({ ...record, description: 'per kilogram', tags: ['pricing'] }));
    expect((await rules.get('edited')).body.data).toMatchObject({ description: 'per kilogram', tags: ['pricing'], name: record.name, revision: 2 });
  });

  it('refuses a stale checksum with 409 checksum_mismatch, so the second of two editors never overwrites the first', async () => {
    const created = await rules.create(parcelFee('two-editors'));
    const seen = created.body.data.checksum;
    const [first, second] = [
      await rules.update('two-editors', { checksum: seen, name: 'First editor' }),
      await rules.update('two-editors', { checksum: seen, name: 'Second editor' }),
    ];
    expectSuccess(first);
    expectFailure(second, 409, 'checksum_mismatch', {});
    expect((await rules.get('two-editors')).body.data).toMatchObject({ name: 'First editor', checksum: first.body.data.checksum });
  });

  it('lets exactly one of concurrent edits from the same checksum through', async () => {
    const created = await rules.create(parcelFee('racing-editors'));
    const answers = await Promise.all(
      ['A', 'B', 'C', 'D'].map((who) => rules.update('racing-editors', { checksum: created.body.data.checksum, name: `Editor ${who}` })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await rules.get('racing-editors')).body.data.checksum).toBe(winner.body.data.checksum);
  });

  it('validates the edited record whole, refuses unknown fields, and needs the checksum', async () => {
    const created = await rules.create(parcelFee('edit-invalid'));
    const checksum = created.body.data.checksum;
    const invalid = await rules.update('edit-invalid', {
      checksum,
      definition: { ...(parcelFee('x').definition as Json), rules: [{ when: ['> ('], then: [1] }] },
    });
    expectFailure(invalid, 400, 'invalid_request');
    expect(fieldsOf(invalid)).toEqual(['definition.rules[0].when[0]']);
    const unknown = await rules.update('edit-invalid', { checksum, id: 'renamed' });
    expect(errorsOf(unknown)).toEqual([{ in: 'body', field: 'body', message: 'unknown fields: id' }]);
    expect(fieldsOf(await rules.update('edit-invalid', { name: 'no checksum' }))).toEqual(['checksum']);
    expect((await rules.get('edit-invalid')).body.data.checksum).toBe(checksum);
  });

  it('answers 404 for a draft that does not exist', async () => {
    expectFailure(await rules.update('nobody', { checksum: 'abc', name: 'x' }), 404, 'entity_not_found');
  });
});

describe('publish', () => {
  it('freezes the draft as v1 (201), answers v1 again for unchanged content (200), and makes v2 after an edit', async () => {
    const record = parcelFee('versions');
    const created = await rules.create(record);
    const v1 = await rules.publish('versions', { checksum: created.body.data.checksum });
    expect(v1.status).toBe(201);
    expect(v1.body.data).toEqual({ id: 'versions', version: 'v1', checksum: created.body.data.checksum });
    const again = await rules.publish('versions');
    expectSuccess(again);
    expect(again.body.data).toEqual(v1.body.data);

    const edited = await rules.update('versions', { checksum: created.body.data.checksum, description: 'second edition' });
    expect((await rules.get('versions')).body.data).toMatchObject({ status: 'draft', version: 'v1' });
    const v2 = await rules.publish('versions', { checksum: edited.body.data.checksum });
    expect(v2.status).toBe(201);
    expect(v2.body.data.version).toBe('v2');

    // v1 is as it was published.
    const frozen = await rules.get('versions', { query: { version: 'v1' } });
    expect(frozen.body.data).toMatchObject({ version: 'v1', status: 'published', checksum: created.body.data.checksum, description: '' });
    expect(frozen.body.data.versions.map((v) => v.version)).toEqual(['v1', 'v2']);
  });

  it('refuses a stale checksum with 409 checksum_mismatch', async () => {
    const created = await rules.create(parcelFee('publish-stale'));
    await rules.update('publish-stale', { checksum: created.body.data.checksum, description: 'changed' });
    expectFailure(await rules.publish('publish-stale', { checksum: created.body.data.checksum }), 409, 'checksum_mismatch', {});
    expect((await rules.get('publish-stale')).body.data.versions).toEqual([]);
  });

  it('refuses with 409 tests_failed, listing each failing case with what it expected and what came', async () => {
    const record = parcelFee('failing-tests', {
      tests: [
        { name: 'a light parcel', params: { weightKg: 1 }, expected: { fee: 4.9 } },
        { name: 'a heavy parcel', params: { weightKg: 10 }, expected: { fee: 12 } },
        { name: 'a weight that is not a number', params: { weightKg: 'ten' }, expected: { fee: 0 } },
      ],
    });
    await rules.create(record);
    const refused = await rules.publish('failing-tests');
    expectFailure(refused, 409, 'tests_failed', {
      failures: [
        { name: 'a heavy parcel', expected: { fee: 12 }, actual: { fee: 8.9 } },
        { name: 'a weight that is not a number', expected: { fee: 0 }, actual: null, error: expect.stringContaining('params.weightKg') },
      ],
    });
    expect(refused.body.message).toMatch(/2 of its test cases failed/);
    expect((await rules.get('failing-tests')).body.data).toMatchObject({ version: '', versions: [] });
  });

  it('refuses rows that overlap under unique with 409 publish_refused naming them', async () => {
    await rules.create(
      parcelFee('overlapping', {
        rules: [
          { when: ['> 0'], then: [1] },
          { when: ['> 5'], then: [2] },
        ],
        tests: [],
      }),
    );
    expectFailure(await rules.publish('overlapping'), 409, 'publish_refused', {
      problems: [{ path: 'definition.rules[1]', message: 'overlaps row 1: some input matches both, which the hit policy "unique" forbids' }],
    });
  });

  it('publishes workflows whose rules are published', async () => {
    await workflows.create(flow('published-flow'));
    const published = await workflows.publish('published-flow');
    expect(published.status).toBe(201);
    expect(published.body.data.version).toBe('v1');
  });

  it('answers 404 for an entity that does not exist', async () => {
    expectFailure(await rules.publish('nobody'), 404, 'entity_not_found');
  });
});

describe('delete', () => {
  it('deletes the draft and its versions, answering 200 again for a repeat, and counts it out', async () => {
    const before = (await t.api('/dev/v1/rule')).body.totalCount;
    await rules.published(parcelFee('doomed'));
    expect((await t.api('/dev/v1/rule')).body.totalCount).toBe(before + 1);
    const deleted = await rules.remove('doomed');
    expectSuccess(deleted);
    expect(deleted.body.data).toEqual({ id: 'doomed', deleted: true });
    const again = await rules.remove('doomed');
    expectSuccess(again);
    expect(again.body.data).toEqual({ id: 'doomed', deleted: false });
    expectFailure(await rules.get('doomed'), 404, 'entity_not_found');
    expect((await t.api('/dev/v1/rule')).body.totalCount).toBe(before);

    // A new rule of the same id starts again at v1.
    const reborn = await rules.published(parcelFee('doomed', { tests: [] }));
    expect(reborn.version).toBe('v1');
  });

  it('deletes workflows too', async () => {
    await workflows.create(flow('doomed-flow'));
    expect((await workflows.remove('doomed-flow')).body.data).toEqual({ id: 'doomed-flow', deleted: true });
    expectFailure(await workflows.get('doomed-flow'), 404, 'entity_not_found');
  });
});

describe('branches and workspaces', () => {
  it('writes to the branch the Service-Branch header names', async () => {
    await rules.create(parcelFee('on-staging'), { branch: 'staging' });
    expectSuccess(await rules.get('on-staging', { branch: 'staging' }));
    expectFailure(await rules.get('on-staging'), 404, 'entity_not_found');
  });

  it("never touches another workspace's entities: they are not found by its key", async () => {
    const other = await createWorkspaceWithKey(t.runtime.store, { id: 'authoring-other' });
    const key = { key: other.key };
    const demo = await rules.get('shipping-cost');
    expectFailure(await rules.update('shipping-cost', { checksum: demo.body.data.checksum, name: 'Hijacked' }, key), 404, 'entity_not_found');
    expectFailure(await rules.publish('shipping-cost', {}, key), 404, 'entity_not_found');
    expect((await rules.remove('shipping-cost', key)).body.data).toEqual({ id: 'shipping-cost', deleted: false });
    // Its own rule of the same id is its own.
    expect((await rules.create(parcelFee('shipping-cost'), key)).status).toBe(201);
    expect((await rules.get('shipping-cost')).body.data).toMatchObject({ name: 'Shipping cost', checksum: demo.body.data.checksum });
  });
});
