/** A key reads only its own workspace: nothing of another one, even where branch names and entity ids coincide. */
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceWithKey, demoInput, idsOf, ruleSet, simpleRule, workflow, type Summary } from '../helpers/entities.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

/** Workspace "acme": default branch "trunk" (no "main"), a branch "staging" like the demo's, and ids the demo uses too. */
const acmeEntities = [
  { ...demoInput('shipping-cost'), name: 'Acme shipping', description: 'Acme flat rate' },
  simpleRule('acme-only', 'Acme only rule'),
  ruleSet('fraud-screening', 'Acme fraud rules'),
  workflow('checkout', 'Acme checkout'),
];
let acme: { key: string };

beforeAll(async () => {
  acme = await createWorkspaceWithKey(t.runtime.store, { id: 'acme', defaultBranch: 'trunk', branches: ['staging'], entities: acmeEntities });
});

describe('workspace isolation', () => {
  it("lists only the key's own workspace, on its own default branch", async () => {
    const [acmeRules, demoRules] = await Promise.all([
      t.api<Summary[]>('/dev/v1/rule', { key: acme.key, query: { pageSize: 100 } }),
      t.api<Summary[]>('/dev/v1/rule', { query: { pageSize: 100 } }),
    ]);
    expectSuccess(acmeRules, { pageNo: 1, pageSize: 100, totalCount: 3 });
    expect(acmeRules.body.data.map((s) => [s.id, s.name])).toEqual([
      ['fraud-screening', 'Acme fraud rules'],
      ['acme-only', 'Acme only rule'],
      ['shipping-cost', 'Acme shipping'],
    ]);
    expectSuccess(demoRules, { pageNo: 1, pageSize: 100, totalCount: 15 });
    expect(idsOf(demoRules.body.data)).not.toContain('acme-only');
    expect(demoRules.body.data.find((s) => s.id === 'shipping-cost')?.name).toBe('Shipping cost');

    const acmeWorkflows = await t.api('/dev/workflow', { key: acme.key });
    expectSuccess(acmeWorkflows, { pageNo: 1, pageSize: 10, totalCount: 1 });
    expect(idsOf(acmeWorkflows.body.data)).toEqual(['checkout']);
  });

  it('keeps the filters and counters of each workspace apart', async () => {
    const [acmeShipping, demoShipping, acmeTables] = await Promise.all([
      t.api('/dev/rule', { key: acme.key, query: { name: 'shipping' } }),
      t.api('/dev/rule', { query: { name: 'shipping' } }),
      t.api('/dev/rule', { key: acme.key, query: { type: 'decisionTable' } }),
    ]);
    expect(idsOf(acmeShipping.body.data)).toEqual(['shipping-cost']);
    expect(idsOf(demoShipping.body.data)).toEqual(['free-shipping', 'shipping-cost']);
    expect(acmeTables.body.totalCount).toBe(1);
  });

  it('gets the same id from each workspace as that workspace has it', async () => {
    const [fromAcme, fromDemo] = await Promise.all([
      t.api<{ name: string; description: string; version: string }>('/dev/rule/shipping-cost', { key: acme.key }),
      t.api<{ name: string; description: string; version: string }>('/dev/rule/shipping-cost'),
    ]);
    expect(fromAcme.body.data).toMatchObject({ name: 'Acme shipping', description: 'Acme flat rate', version: '', status: 'draft' });
    expect(fromDemo.body.data).toMatchObject({ name: 'Shipping cost', version: 'v1' });
    const fraud = await t.api<{ type: string; versions: unknown[] }>('/dev/v1/rule/fraud-screening', { key: acme.key });
    expect(fraud.body.data).toMatchObject({ name: 'Acme fraud rules', type: 'ruleSet', versions: [], createdBy: 'test' });
  });

  it("never finds another workspace's entities or versions", async () => {
    expectFailure(await t.api('/dev/rule/acme-only'), 404, 'entity_not_found', {});
    expectFailure(await t.api('/dev/v1/rule/acme-only'), 404, 'entity_not_found', {});
    expectFailure(await t.api('/dev/rule/vip-customer', { key: acme.key }), 404, 'entity_not_found', {});
    expectFailure(await t.api('/dev/workflow/loan-application', { key: acme.key }), 404, 'entity_not_found', {});
    // The demo's shipping-cost has a v1; acme's never was published.
    expectFailure(await t.api('/dev/rule/shipping-cost', { key: acme.key, query: { version: 'v1' } }), 404, 'version_not_found', {});
  });

  it("does not see another workspace's branches, even where the names coincide", async () => {
    expectFailure(await t.api('/dev/rule', { key: acme.key, branch: 'main' }), 400, 'branch_not_found', {});
    expectFailure(await t.api('/dev/rule', { branch: 'trunk' }), 400, 'branch_not_found', {});
    // Both have a "staging": acme's is empty, the demo's is not.
    const [acmeStaging, demoStaging] = await Promise.all([t.api('/dev/rule', { key: acme.key, branch: 'staging' }), t.api('/dev/rule', { branch: 'staging' })]);
    expectSuccess(acmeStaging, { pageNo: 1, pageSize: 10, totalCount: 0 });
    expect(acmeStaging.body.data).toEqual([]);
    expectSuccess(demoStaging, { pageNo: 1, pageSize: 10, totalCount: 4 });
    expect(idsOf(demoStaging.body.data)).toContain('shipping-cost');
  });
});
