/** GET /dev/{entityType}/{entityId} and GET /dev/v1/{entityType}/{entityId}: the legacy path and its replacement. */
import { describe, expect, it } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { entityDetailSchema, entityRecordSchema } from '../../lib/vocabulary/records.ts';
import { editedAfterPublishing } from '../../lib/local/demo-entities.ts';
import { demoInput, simpleRule } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

const recordFields = ['checksum', 'createdAt', 'definition', 'description', 'id', 'name', 'status', 'tags', 'type', 'updatedAt', 'version'];
const detailFields = [...recordFields, 'createdBy', 'revision', 'updatedBy', 'versions', 'warnings'].sort();

type EntityRecord = { [field: string]: unknown; checksum: string; createdAt: string; updatedAt: string; description: string; status: string; version: string };
type Detail = EntityRecord & {
  createdBy: string;
  updatedBy: string;
  revision: number;
  versions: { version: string; checksum: string; publishedAt: string; publishedBy: string; publishedByName: string }[];
  warnings: { path: string; message: string }[];
};

const published = demoInput('shipping-cost');
const edited = editedAfterPublishing.edit(published);

describe('get, legacy', () => {
  it('returns the working copy without a version: the demo rule edited after publishing v1', async () => {
    const response = await t.api<EntityRecord>('/dev/rule/shipping-cost');
    expectSuccess(response);
    const record = response.body.data;
    expect(Object.keys(record).sort()).toEqual(recordFields);
    entityRecordSchema.strict().parse(record);
    expect(record).toEqual({
      id: 'shipping-cost',
      name: 'Shipping cost',
      description: edited.description,
      type: 'decisionTable',
      status: 'draft',
      version: 'v1',
      tags: ['logistics'],
      definition: published.definition,
      checksum: entityChecksum(edited),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(record.description).not.toBe(published.description);
    expect(Date.parse(record.updatedAt)).toBeGreaterThanOrEqual(Date.parse(record.createdAt));
  });

  it('returns the published snapshot with version=v1', async () => {
    const [working, snapshot] = await Promise.all([
      t.api<EntityRecord>('/dev/rule/shipping-cost'),
      t.api<EntityRecord>('/dev/rule/shipping-cost', { query: { version: 'v1' } }),
    ]);
    expectSuccess(snapshot);
    expect(Object.keys(snapshot.body.data).sort()).toEqual(recordFields);
    expect(snapshot.body.data).toMatchObject({
      id: 'shipping-cost',
      description: published.description,
      status: 'published',
      version: 'v1',
      definition: published.definition,
      checksum: entityChecksum(published),
      createdAt: working.body.data.createdAt,
    });
    expect(Date.parse(snapshot.body.data.updatedAt)).toBeLessThanOrEqual(Date.parse(working.body.data.updatedAt));
  });

  it('returns a rule whose working copy is the published one as published', async () => {
    const response = await t.api<EntityRecord>('/dev/rule/fraud-screening');
    expect(response.body.data).toMatchObject({ status: 'published', version: 'v1', checksum: entityChecksum(demoInput('fraud-screening')) });
    const snapshot = await t.api<EntityRecord>('/dev/rule/fraud-screening', { query: { version: 'v1' } });
    expect({ ...snapshot.body.data }).toEqual(response.body.data);
  });

  it('returns workflows', async () => {
    const response = await t.api<EntityRecord>('/dev/workflow/loan-application');
    expectSuccess(response);
    expect(response.body.data).toMatchObject({ id: 'loan-application', type: 'workflow', definition: demoInput('loan-application').definition });
  });
});

describe('get, v1', () => {
  it('adds the audit fields and the version history to the working copy', async () => {
    const [legacy, response] = await Promise.all([t.api<EntityRecord>('/dev/rule/shipping-cost'), t.api<Detail>('/dev/v1/rule/shipping-cost')]);
    expectSuccess(response);
    const detail = response.body.data;
    expect(Object.keys(detail).sort()).toEqual(detailFields);
    const { warnings, ...rest } = detail;
    entityDetailSchema.strict().parse(rest);
    // Seeded by import, which does not analyse rules: nothing stored.
    expect(warnings).toEqual([]);
    const { createdBy, updatedBy, revision, versions, ...record } = rest;
    expect(record).toEqual(legacy.body.data);
    expect({ createdBy, updatedBy }).toEqual({ createdBy: 'seed', updatedBy: 'seed' });
    // Created (1), published (2), edited (3).
    expect(revision).toBe(3);
    expect(versions).toEqual([
      { version: 'v1', checksum: entityChecksum(published), publishedAt: expect.any(String), publishedBy: 'seed', publishedByName: 'seed' },
    ]);
    expect(Date.parse(versions[0]!.publishedAt)).toBeLessThanOrEqual(Date.parse(detail.updatedAt));
  });

  it('returns the snapshot with version=v1, with the same history', async () => {
    const response = await t.api<Detail>('/dev/v1/rule/shipping-cost', { query: { version: 'v1' } });
    expectSuccess(response);
    expect(Object.keys(response.body.data).sort()).toEqual(detailFields);
    expect(response.body.data).toMatchObject({ status: 'published', version: 'v1', description: published.description, checksum: entityChecksum(published) });
    expect(response.body.data.versions.map((v) => v.version)).toEqual(['v1']);
  });

  it('shows an entity never published with an empty version and no history', async () => {
    const response = await t.api<Detail>('/dev/v1/rule/shipping-cost', { branch: 'staging' });
    expect(response.body.data).toMatchObject({ status: 'draft', version: '', versions: [], revision: 1, checksum: entityChecksum(published) });
    expectFailure(await t.api('/dev/v1/rule/shipping-cost', { branch: 'staging', query: { version: 'v1' } }), 404, 'version_not_found', {});
  });
});

describe('who published each version, named for people', () => {
  const keys = (body: unknown, key?: string) => t.api<{ keyId: string; key?: string }>('/dev/v1/keys', { method: 'POST', body: JSON.stringify(body), key });
  const write = (path: string, body: unknown, key?: string, method = 'POST') => t.api(path, { method, body: JSON.stringify(body), key });
  const versionsOf = async (id: string, key?: string) => (await t.api<Detail>(`/dev/v1/rule/${id}`, { key })).body.data.versions;

  it("names a key by its owner, else its label, for a reader who may not list keys too; a key's new owner shows, a revoked key keeps its name", async () => {
    const alice = (await keys({ label: 'alice laptop', owner: 'alice@example.com', role: 'publisher' })).body.data;
    const reader = (await keys({ label: 'dashboard', owner: 'reporting', role: 'reader' })).body.data.key!;
    const rule = simpleRule('named-publishers', 'Named publishers', { definition: { when: 'amount > 1', then: { big: true } } });
    expect((await write('/dev/v1/rule', rule)).status).toBe(201);
    // The demo key has a label and no owner.
    expect((await write('/dev/v1/rule/named-publishers/publish', {})).status).toBe(201);
    const { checksum } = (await t.api<Detail>('/dev/v1/rule/named-publishers')).body.data;
    const edit = { checksum, definition: { when: 'amount > 2', then: { big: true } } };
    expect((await write('/dev/v1/rule/named-publishers', edit, alice.key, 'PATCH')).status).toBe(200);
    expect((await write('/dev/v1/rule/named-publishers/publish', {}, alice.key)).status).toBe(201);

    expectFailure(await t.api('/dev/v1/keys', { key: reader }), 403, 'forbidden');
    const named = await versionsOf('named-publishers', reader);
    expect(named.map(({ version, publishedBy, publishedByName }) => ({ version, publishedBy, publishedByName }))).toEqual([
      { version: 'v1', publishedBy: expect.stringMatching(/^key:key_/), publishedByName: 'demo' },
      { version: 'v2', publishedBy: `key:${alice.keyId}`, publishedByName: 'alice@example.com' },
    ]);

    expect((await write(`/dev/v1/keys/${alice.keyId}`, { owner: 'alice@example.org' }, undefined, 'PATCH')).status).toBe(200);
    expect((await versionsOf('named-publishers'))[1]!.publishedByName).toBe('alice@example.org');
    expect((await t.api(`/dev/v1/keys/${alice.keyId}`, { method: 'DELETE' })).status).toBe(200);
    expect((await versionsOf('named-publishers'))[1]!.publishedByName).toBe('alice@example.org');
  });

  it('shows the key id of a key the workspace no longer has', async () => {
    const me = (await t.api<{ workspace: { id: string } }>('/dev/v1/me')).body.data;
    const rule = simpleRule('gone-publisher', 'Gone publisher', { definition: { when: 'true', then: { ok: true } } });
    expect((await write('/dev/v1/rule', rule)).status).toBe(201);
    const ref = { workspaceId: me.workspace.id, branch: 'main', entityType: 'rule' as const, id: rule.id };
    const draft = (await t.runtime.store.getEntity(ref))!;
    const info = { version: 'v1', checksum: draft.checksum, publishedAt: new Date().toISOString(), publishedBy: 'key:key_00000000000000aa' };
    expect(await t.runtime.store.putVersion(ref, { ...draft, status: 'published', version: 'v1' }, info)).toBe(true);
    expect(await versionsOf('gone-publisher')).toEqual([{ ...info, publishedByName: 'key_00000000000000aa' }]);
  });
});

describe.each(['/dev', '/dev/v1'])('get failures under %s', (prefix) => {
  it('answers an unknown id with 404 entity_not_found', async () => {
    const response = await t.api(`${prefix}/rule/no-such-rule`);
    expectFailure(response, 404, 'entity_not_found', {});
    expect(response.body.message).toContain('no-such-rule');
  });

  it('answers a rule id asked for as a workflow with 404, and the other way round', async () => {
    expectFailure(await t.api(`${prefix}/workflow/shipping-cost`), 404, 'entity_not_found', {});
    expectFailure(await t.api(`${prefix}/rule/checkout`), 404, 'entity_not_found', {});
  });

  it('matches the id exactly', async () => {
    expectFailure(await t.api(`${prefix}/rule/Shipping-Cost`), 404, 'entity_not_found', {});
    expectFailure(await t.api(`${prefix}/rule/shipping-cost%20`), 404, 'entity_not_found', {});
    expectFailure(await t.api(`${prefix}/rule/shipping-cost:x`), 404, 'entity_not_found', {});
  });

  it('decodes the id', async () => {
    expectSuccess(await t.api(`${prefix}/rule/shipping%2Dcost`));
  });

  it.each(['v2', 'v9', 'v123456789'])('answers the unknown version %s with 404 version_not_found', async (version) => {
    const response = await t.api(`${prefix}/rule/shipping-cost`, { query: { version } });
    expectFailure(response, 404, 'version_not_found', {});
    expect(response.body.message).toContain(version);
  });

  it('answers an unknown id with entity_not_found even with a version', async () => {
    expectFailure(await t.api(`${prefix}/rule/no-such-rule`, { query: { version: 'v1' } }), 404, 'entity_not_found', {});
  });

  it.each(['1', 'V1', 'v0', 'v1.0', 'latest', 'v-1', 'v01'])('answers the malformed version %j with 400 invalid_request', async (version) => {
    const response = await t.api(`${prefix}/rule/shipping-cost`, { query: { version } });
    expectFailure(response, 400, 'invalid_request');
    expect(response.body.data).toEqual({ errors: [{ in: 'query', field: 'version', message: expect.stringMatching(/\S/) }] });
  });

  it('answers an unknown entity type with 404 entity_type_not_found', async () => {
    expectFailure(await t.api(`${prefix}/rules/shipping-cost`), 404, 'entity_type_not_found', {});
  });
});
