/** Service-Branch on list and get: optional, the default branch when absent, 400 when invalid or unknown. */
import { describe, expect, it } from 'vitest';
import { idsOf } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

describe('Service-Branch', () => {
  it.each(['/dev/rule', '/dev/v1/rule', '/dev/workflow', '/dev/v1/workflow'])('defaults to main on %s', async (path) => {
    const [absent, main, empty] = await Promise.all([
      t.api(path, { query: { pageSize: 100 } }),
      t.api(path, { query: { pageSize: 100 }, branch: 'main' }),
      t.api(path, { query: { pageSize: 100 }, branch: '' }),
    ]);
    expectSuccess(absent, { pageNo: 1, pageSize: 100, totalCount: path.endsWith('rule') ? 15 : 4 });
    expect(absent.body.data).toEqual(main.body.data);
    expect(empty.body.data).toEqual(main.body.data);
  });

  it('selects another branch of the workspace', async () => {
    const rules = await t.api('/dev/rule', { branch: 'staging' });
    expectSuccess(rules, { pageNo: 1, pageSize: 10, totalCount: 4 });
    expect(idsOf(rules.body.data)).toEqual(['discount-tier', 'insurance-premium', 'loan-eligibility', 'shipping-cost']);
    // Staging has the rules as imported, never published.
    expect((rules.body.data as { status: string; version: string }[]).map((r) => [r.status, r.version])).toEqual(Array(4).fill(['draft', '']));
    const workflows = await t.api('/dev/v1/workflow', { branch: 'staging' });
    expect(idsOf(workflows.body.data)).toEqual(['loan-application']);
  });

  it('reads one entity on the given branch, and not one that only the default branch has', async () => {
    const staging = await t.api<{ description: string; version: string }>('/dev/rule/shipping-cost', { branch: 'staging' });
    expectSuccess(staging);
    expect(staging.body.data).toMatchObject({ description: 'Shipping fee by destination zone and parcel weight', version: '', status: 'draft' });
    expectFailure(await t.api('/dev/v1/rule/fraud-screening', { branch: 'staging' }), 404, 'entity_not_found', {});
    expectSuccess(await t.api('/dev/v1/rule/fraud-screening', { branch: 'main' }));
  });

  it.each(['a..b', 'with space', 'HEAD', '-dash', 'feature/', 'x.lock', 'a~1', 'what?', 'a:b', 'a@{1}', '.hidden', 'a//b', 'a*'])(
    'rejects the invalid name %j with 400 invalid_branch on list and get',
    async (branch) => {
      for (const path of ['/dev/rule', '/dev/v1/workflow', '/dev/rule/shipping-cost', '/dev/v1/rule/shipping-cost']) {
        const response = await t.api(path, { branch });
        expectFailure(response, 400, 'invalid_branch', {});
        expect(response.body.message).toContain(branch);
      }
    },
  );

  it.each(['develop', 'feature/x', 'Main', 'staging/next', '@'])('answers the valid but absent branch %j with 400 branch_not_found', async (branch) => {
    for (const path of ['/dev/v1/rule', '/dev/workflow', '/dev/v1/rule/shipping-cost', '/dev/workflow/checkout']) {
      const response = await t.api(path, { branch });
      expectFailure(response, 400, 'branch_not_found', {});
      expect(response.body.message).toContain(branch);
    }
  });
});

describe('GET /dev/v1/branches', () => {
  it("lists the key's workspace's branches, the default first, and only those", async () => {
    const listed = await t.api<{ name: string; default: boolean; createdAt: string }[]>('/dev/v1/branches');
    expectSuccess(listed);
    expect(listed.body.data.map(({ name, default: isDefault }) => [name, isDefault])).toEqual([
      ['main', true],
      ['staging', false],
    ]);
    expect(Number.isNaN(Date.parse(listed.body.data[0]!.createdAt))).toBe(false);
  });

  it('needs a key', async () => {
    expectFailure(await t.api('/dev/v1/branches', { key: null }), 401, 'service_api_key_empty', null);
  });
});
