/** GET /dev/{entityType} and GET /dev/v1/{entityType}: the legacy path and its replacement, paged by pageNo and pageSize. */
import { beforeAll, describe, expect, it } from 'vitest';
import { importEntities } from '../../lib/publishing/import.ts';
import { entitySummarySchema } from '../../lib/vocabulary/records.ts';
import { demoRules, demoWorkflows } from '../../lib/local/demo-entities.ts';
import { addBranch } from '../../lib/workspaces/admin.ts';
import type { ApiResponse, RequestOptions } from '../helpers/api.ts';
import { byNameThenId, codePointCompare, ruleSet, simpleRule, sourcesOf, type Summary } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

const list = (path: string, options?: RequestOptions) => t.api<Summary[]>(path, options);
const ids = (response: ApiResponse<Summary[]>) => response.body.data.map((s) => s.id);
const sortedIds = (entities: { id: string; name: string }[]) => [...entities].sort(byNameThenId).map((e) => e.id);

/** Every page of a list, in order, checking each page's envelope on the way. */
async function walk(path: string, pageSize: number, options: RequestOptions = {}) {
  const first = await list(path, { ...options, query: { ...options.query, pageSize } });
  const { totalCount } = first.body;
  const all: Summary[] = [];
  for (let pageNo = 1; pageNo <= Math.max(1, first.body.totalPages); pageNo++) {
    const page = pageNo === 1 ? first : await list(path, { ...options, query: { ...options.query, pageSize, pageNo } });
    expectSuccess(page, { pageNo, pageSize, totalCount });
    expect(page.body.data.length).toBe(Math.min(pageSize, totalCount - (pageNo - 1) * pageSize));
    all.push(...page.body.data);
  }
  return { totalCount, ids: all.map((s) => s.id), items: all };
}

/** Names chosen to test the order: case, prefixes, punctuation, digits, non-ASCII, equal names. */
const orderingEntities = [
  simpleRule('b-2', 'alpha'),
  ruleSet('a-1', 'Alpha'),
  simpleRule('c-3', 'ALPHA'),
  simpleRule('x1', 'ab'),
  ruleSet('x2', 'ab c'),
  simpleRule('x3', 'abc'),
  simpleRule('x4', 'Ab-c'),
  simpleRule('z1', 'Zeta'),
  ruleSet('z0', 'zeta'),
  simpleRule('e1', 'Éclair'),
  simpleRule('e2', 'eclair'),
  simpleRule('u1', '_under'),
  simpleRule('n1', '10 items'),
  ruleSet('n2', '9 items'),
  simpleRule('beta', 'Beta'),
];
/** By code point of the lower-case name, then id: "é" sorts after "z", "ab" before "ab c" before "ab-c" before "abc". */
const orderingIds = ['n1', 'n2', 'u1', 'x1', 'x2', 'x4', 'x3', 'a-1', 'b-2', 'c-3', 'beta', 'e2', 'z0', 'z1', 'e1'];

beforeAll(async () => {
  await addBranch(t.runtime.store, 'demo', 'ordering');
  await importEntities(t.runtime.store, { workspaceId: 'demo', branch: 'ordering' }, sourcesOf(orderingEntities), { actor: 'test' });
});

describe.each(['/dev', '/dev/v1'])('list under %s', (prefix) => {
  it('returns the first 10 rules by default, with the true totals', async () => {
    const response = await list(`${prefix}/rule`);
    expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: 15 });
    expect(response.body.totalPages).toBe(2);
    expect(ids(response)).toEqual(sortedIds(demoRules).slice(0, 10));
  });

  it('lists summaries with exactly the summary fields', async () => {
    const response = await list(`${prefix}/rule`, { query: { pageSize: 100 } });
    for (const summary of response.body.data) {
      expect(Object.keys(summary).sort()).toEqual(['createdAt', 'description', 'id', 'name', 'status', 'tags', 'type', 'updatedAt', 'version']);
      entitySummarySchema.strict().parse(summary);
    }
    const byId = Object.fromEntries(response.body.data.map((s) => [s.id, s]));
    expect(byId['fraud-screening']).toEqual({
      id: 'fraud-screening',
      name: 'Fraud screening',
      description: 'Scores a payment for fraud signals',
      type: 'ruleSet',
      status: 'published',
      version: 'v1',
      tags: ['payments', 'risk'],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Published as v1 and edited since: the list shows the working copy.
    expect(byId['shipping-cost']).toMatchObject({ status: 'draft', version: 'v1', description: expect.stringContaining('not yet published') });
  });

  it('lists workflows', async () => {
    const response = await list(`${prefix}/workflow`);
    expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: 4 });
    expect(ids(response)).toEqual(sortedIds(demoWorkflows));
    expect(response.body.data.every((s) => s.type === 'workflow')).toBe(true);
  });

  it.each([1, 2, 3, 4, 7, 13, 14, 100])('walks all pages of %i and meets each rule once, in order', async (pageSize) => {
    const { totalCount, ids: walked } = await walk(`${prefix}/rule`, pageSize);
    expect(totalCount).toBe(15);
    expect(walked).toEqual(sortedIds(demoRules));
  });

  it('orders by case-insensitive name, then id', async () => {
    const { ids: walked } = await walk(`${prefix}/rule`, 4, { branch: 'ordering' });
    expect(walked).toEqual(orderingIds);
    expect(walked).toEqual(sortedIds(orderingEntities));
  });

  it('answers a page past the end with an empty list and the true totals', async () => {
    const response = await list(`${prefix}/rule`, { query: { pageNo: 3 } });
    expectSuccess(response, { pageNo: 3, pageSize: 10, totalCount: 15 });
    expect(response.body.data).toEqual([]);
    const farUnfiltered = await list(`${prefix}/rule`, { query: { pageNo: 1_000_000, pageSize: 100 } });
    expectSuccess(farUnfiltered, { pageNo: 1_000_000, pageSize: 100, totalCount: 15 });
    expect(farUnfiltered.body.data).toEqual([]);
    const far = await list(`${prefix}/rule`, { query: { pageNo: 1_000_000, pageSize: 100, name: 'e' } });
    expect(far.body).toMatchObject({ data: [], pageNo: 1_000_000, totalCount: sortedIds(demoRules.filter((r) => r.name.toLowerCase().includes('e'))).length });
  });

  it.each(['cost', 'COST', 'ing', 'CrEeN', 'e', ' ', 'Credit l'])('filters by the name containing %j, ignoring case', async (name) => {
    const expected = sortedIds(demoRules.filter((r) => r.name.toLowerCase().includes(name.toLowerCase())));
    expect(expected.length).toBeGreaterThan(0);
    const { totalCount, ids: walked } = await walk(`${prefix}/rule`, 2, { query: { name } });
    expect(totalCount).toBe(expected.length);
    expect(walked).toEqual(expected);
  });

  it('matches the name only, not the description or id', async () => {
    for (const name of ['zone', 'shipping-cost', 'xyz']) {
      const response = await list(`${prefix}/rule`, { query: { name } });
      expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: 0 });
      expect(response.body.totalPages).toBe(0);
      expect(response.body.data).toEqual([]);
    }
  });

  it.each([
    ['decisionTable', 7],
    ['ruleSet', 3],
    ['simpleRule', 5],
  ])('filters by the exact type %s', async (type, count) => {
    const { totalCount, items } = await walk(`${prefix}/rule`, 2, { query: { type } });
    expect(totalCount).toBe(count);
    expect(items.map((s) => s.id)).toEqual(sortedIds(demoRules.filter((r) => r.type === type)));
  });

  it.each(['decisiontable', 'DecisionTable', 'decision', 'workflow'])('matches no rule of type %j (exact match)', async (type) => {
    const response = await list(`${prefix}/rule`, { query: { type } });
    expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: 0 });
    expect(response.body.data).toEqual([]);
  });

  it('combines the name and type filters', async () => {
    const expected = sortedIds(demoRules.filter((r) => r.type === 'simpleRule' && r.name.toLowerCase().includes('e')));
    const { totalCount, ids: walked } = await walk(`${prefix}/rule`, 2, { query: { name: 'E', type: 'simpleRule' } });
    expect(totalCount).toBe(expected.length);
    expect(walked).toEqual(expected);
  });

  it('treats empty filters as none', async () => {
    const response = await list(`${prefix}/rule`, { query: { name: '', type: '' } });
    expectSuccess(response, { pageNo: 1, pageSize: 10, totalCount: 15 });
  });

  it.each([
    [{ pageNo: '0' }, ['pageNo']],
    [{ pageNo: '-2' }, ['pageNo']],
    [{ pageNo: 'two' }, ['pageNo']],
    [{ pageNo: '1.5' }, ['pageNo']],
    [{ pageSize: '0' }, ['pageSize']],
    [{ pageSize: '101' }, ['pageSize']],
    [{ pageNo: 'x', pageSize: '1000' }, ['pageNo', 'pageSize']],
    [{ name: 'n'.repeat(201) }, ['name']],
  ])('rejects the query %j with 400 invalid_request naming each field', async (query, fields) => {
    const response = await list(`${prefix}/rule`, { query });
    expectFailure(response, 400, 'invalid_request');
    const { errors } = response.body.data as unknown as { errors: { in: string; field: string; message: string }[] };
    expect(errors.map((e) => e.field)).toEqual(fields);
    for (const error of errors) expect(error).toEqual({ in: 'query', field: error.field, message: expect.stringMatching(/\S/) });
  });

  it('accepts the largest page size, 100', async () => {
    expectSuccess(await list(`${prefix}/rule`, { query: { pageSize: 100 } }), { pageNo: 1, pageSize: 100, totalCount: 15 });
  });

  it.each(['rules', 'Rule', 'RULE', 'workflows', 'schedule', 'x'])('answers the entity type %j with 404 entity_type_not_found', async (type) => {
    const response = await list(`${prefix}/${type}`);
    expectFailure(response, 404, 'entity_type_not_found', {});
    expect(response.body.message).toContain(type);
  });
});

describe('v1 extras', () => {
  it('filters by status', async () => {
    const drafts = await list('/dev/v1/rule', { query: { status: 'draft' } });
    expectSuccess(drafts, { pageNo: 1, pageSize: 10, totalCount: 1 });
    expect(ids(drafts)).toEqual(['shipping-cost']);
    const published = await walk('/dev/v1/rule', 5, { query: { status: 'published' } });
    expect(published.totalCount).toBe(demoRules.length - 1);
    expect(published.ids).toEqual(sortedIds(demoRules.filter((r) => r.id !== 'shipping-cost')));
    const stagingPublished = await list('/dev/v1/rule', { branch: 'staging', query: { status: 'published' } });
    expectSuccess(stagingPublished, { pageNo: 1, pageSize: 10, totalCount: 0 });
  });

  it('combines status with the other filters', async () => {
    const response = await list('/dev/v1/rule', { query: { status: 'draft', type: 'decisionTable', name: 'SHIP' } });
    expect(ids(response)).toEqual(['shipping-cost']);
    expect(response.body.totalCount).toBe(1);
    const none = await list('/dev/v1/rule', { query: { status: 'draft', type: 'ruleSet' } });
    expect(none.body).toMatchObject({ data: [], totalCount: 0 });
  });

  it('sorts by name descending as the exact reverse', async () => {
    const { ids: walked } = await walk('/dev/v1/rule', 4, { branch: 'ordering', query: { sortDir: 'desc' } });
    expect(walked).toEqual([...orderingIds].reverse());
  });

  it.each([
    ['createdAt', 'asc'],
    ['createdAt', 'desc'],
    ['updatedAt', 'asc'],
    ['updatedAt', 'desc'],
  ] as const)('sorts by %s %s, ties broken by id', async (sortBy, sortDir) => {
    const everything = (await list('/dev/v1/rule', { query: { pageSize: 100 } })).body.data;
    const ascending = [...everything].sort((a, b) => codePointCompare(a[sortBy], b[sortBy]) || codePointCompare(a.id, b.id)).map((s) => s.id);
    const { ids: walked } = await walk('/dev/v1/rule', 3, { query: { sortBy, sortDir } });
    expect(walked).toEqual(sortDir === 'asc' ? ascending : ascending.reverse());
  });

  it('sorts a filtered list too', async () => {
    const { items } = await walk('/dev/v1/rule', 2, { query: { type: 'simpleRule', sortBy: 'createdAt', sortDir: 'desc' } });
    expect(items).toHaveLength(5);
    expect(items.every((s) => s.type === 'simpleRule')).toBe(true);
    const keys = items.map((s) => `${s.createdAt} ${s.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it.each([
    [{ status: 'archived' }, 'status'],
    [{ status: 'Draft' }, 'status'],
    [{ sortBy: 'id' }, 'sortBy'],
    [{ sortDir: 'down' }, 'sortDir'],
  ])('rejects %j with 400 invalid_request', async (query, field) => {
    const response = await list('/dev/v1/rule', { query });
    expectFailure(response, 400, 'invalid_request');
    expect(response.body.data).toEqual({ errors: [{ in: 'query', field, message: expect.stringMatching(/\S/) }] });
  });
});

describe('legacy list', () => {
  it('ignores the v1 parameters, valid or not', async () => {
    const plain = await list('/dev/rule', { query: { pageSize: 100 } });
    for (const query of [{ status: 'draft' }, { status: 'bogus' }, { sortBy: 'createdAt', sortDir: 'desc' }, { sortBy: 'nope' }]) {
      const response = await list('/dev/rule', { query: { pageSize: 100, ...query } });
      expectSuccess(response, { pageNo: 1, pageSize: 100, totalCount: 15 });
      expect(response.body.data).toEqual(plain.body.data);
    }
  });

  it.each([{}, { pageNo: 2, pageSize: 5 }, { name: 'ing' }, { type: 'ruleSet' }, { name: 'e', type: 'simpleRule', pageSize: 2, pageNo: 2 }, { pageNo: 9 }])(
    'answers %j exactly as v1 does',
    async (query) => {
      for (const type of ['rule', 'workflow']) {
        const [legacy, v1] = await Promise.all([list(`/dev/${type}`, { query }), list(`/dev/v1/${type}`, { query })]);
        expect(legacy.status).toBe(200);
        expect(legacy.body).toEqual(v1.body);
      }
    },
  );
});
