/**
 * Coverage per row through the local runtime. Test coverage: the save and the
 * publish warn of the rows no saved test case reaches (a rule set's
 * references loaded for it), and GET .../coverage names the cases reaching
 * each row, of the draft when nothing is published. Production coverage:
 * executions (the execute operation, failed ones too, a scheduled run once
 * however often delivered, a workflow's rule step) count per row once the
 * functions flush; a new version starts its counts anew; several functions'
 * buffers flushing at once add up in one table. Flushes are made at once
 * here (`flushTallies`, what a function calls before it ends), never
 * waited for.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { countExecution } from '../../lib/tallies/coverage-counts.ts';
import { runScheduledRule } from '../../lib/schedules/scheduled-run.ts';
import { createStore } from '../../lib/store/index.ts';
import type { Api } from '../helpers/api.ts';
import { expectFailure, expectUnpaged } from '../helpers/envelope.ts';
import { fieldsOf, ruleSetOf, rulesClient, simple, type Json } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { workflowRecord, workflowsClient } from '../helpers/workflows.ts';
import { flushTallies } from '../../lib/tallies/buffer.ts';

const t = useRuntime();
let rules: ReturnType<typeof rulesClient>;

beforeAll(() => {
  rules = rulesClient(t.api);
});

interface Unit {
  index: number;
  kind: string;
  name: string;
  id?: string;
  path: string;
  testCases: number[];
  testCaseCount: number;
  matched?: number;
  lastMatchedAt?: string;
}
interface Coverage {
  version: string | null;
  checksum: string;
  publishedAt?: string;
  tests: { cases: { name: string; failed?: boolean }[]; problem?: string };
  units: Unit[];
  production?: {
    executions: number;
    failed: number;
    unmatched: number;
    lastExecutedAt?: string;
    neverMatched: number[];
    notMatchedSince: { days: number; since: string; units: number[] };
  };
}

const coverageOf = (api: Api, entityType: string, id: string, query: Record<string, string> = {}) =>
  api<Coverage>(`/dev/v1/${entityType}/${id}/coverage`, { query });
const coverage = async (id: string, query: Record<string, string> = {}) => expectUnpaged(await coverageOf(t.api, 'rule', id, query));

/** A shipping fee by weight in four bands, under first; two test cases reach the first two bands. */
const bands = (id: string, overrides: Json = {}): Json => ({
  id,
  name: `Bands ${id}`,
  type: 'decisionTable',
  definition: {
    hitPolicy: 'first',
    parameters: [{ name: 'weightKg', type: 'number' }],
    inputs: [{ id: 'weight', label: 'Weight', expression: 'weightKg', type: 'number' }],
    outputs: [{ id: 'fee', name: 'fee', type: 'number', default: 99 }],
    rules: [
      { id: 'light', when: ['<= 1'], then: [3] },
      { id: 'medium', when: ['<= 5'], then: [6] },
      { id: 'heavy', when: ['<= 20'], then: [12] },
      { id: 'freight', when: ['<= 100'], then: [40] },
    ],
    tests: [
      { name: 'a letter', params: { weightKg: 0.2 }, expected: { fee: 3 } },
      { name: 'a parcel', params: { weightKg: 3 }, expected: { fee: 6 } },
    ],
    ...overrides,
  },
});

const execute = async (id: string, params: Json, version?: string) => (await rules.execute(id, { params, ...(version && { version }) })).status;

describe('test coverage', () => {
  it('is warned of on save, kept with the version at publish, and answered per row', async () => {
    const created = await rules.create(bands('cov-save'));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const untested = [
      { path: 'definition.rules[2]', message: 'row 3 is not reached by any test case' },
      { path: 'definition.rules[3]', message: 'row 4 is not reached by any test case' },
    ];
    expect(created.body.data.warnings).toEqual(expect.arrayContaining(untested));

    // Never published: the draft's test coverage, and no production counts.
    const draft = await coverage('cov-save');
    expect(draft).toMatchObject({ version: null, checksum: created.body.data.checksum, tests: { cases: [{ name: 'a letter' }, { name: 'a parcel' }] } });
    expect(draft.production).toBeUndefined();
    expect(draft.units.map((u) => [u.name, u.id, u.path, u.testCases, u.testCaseCount])).toEqual([
      ['row 1', 'light', 'definition.rules[0]', [0], 1],
      ['row 2', 'medium', 'definition.rules[1]', [1], 1],
      ['row 3', 'heavy', 'definition.rules[2]', [], 0],
      ['row 4', 'freight', 'definition.rules[3]', [], 0],
    ]);

    await rules.publish('cov-save', { checksum: created.body.data.checksum });
    expect((await rules.get('cov-save', { query: { version: 'v1' } })).body.data.warnings).toEqual(expect.arrayContaining(untested));
    const published = await coverage('cov-save');
    expect(published).toMatchObject({ version: 'v1', publishedAt: expect.any(String), tests: { cases: [{ failed: false }, { failed: false }] } });
    expect(published.units.map((u) => u.testCaseCount)).toEqual([1, 1, 0, 0]);
  });

  it('of a rule without test cases makes no warning', async () => {
    const created = await rules.create(bands('cov-none', { tests: [] }));
    expect(created.body.data.warnings.filter((w) => w.message.includes('test case'))).toEqual([]);
    expect((await coverage('cov-none')).units.every((u) => u.testCaseCount === 0)).toBe(true);
  });

  it('of a rule set counts the entries that run other rules, loaded at save; a reference not yet published leaves it unknown, said once', async () => {
    await rules.published(simple('cov-inner', { when: 'weightKg > 10', then: { heavy: true } }));
    const set = (id: string, ruleId: string) =>
      ruleSetOf(
        id,
        [
          { id: 'inner', ruleId },
          { id: 'never', when: 'false', then: [{ set: 'never', value: true }] },
        ],
        {
          tests: [{ name: 'heavy', params: { weightKg: 12 }, expected: { heavy: true } }],
        },
      );
    const saved = await rules.create(set('cov-set', 'cov-inner'));
    expect(saved.body.data.warnings).toEqual([{ path: 'definition.rules[1]', message: 'entry never is not reached by any test case' }]);
    const dangling = await rules.create(set('cov-set-dangling', 'cov-not-yet'));
    expect(dangling.body.data.warnings).toEqual([
      { path: 'definition.rules', message: expect.stringMatching(/^which entries the test cases reach is not known until the rules it refers to resolve: /) },
    ]);
  });
});

describe('production coverage', () => {
  it('counts every execution per row once flushed: matched rows, failures, answers no row gave, and the rows never or not lately matched', async () => {
    await rules.published(bands('cov-prod'));
    // A flush now, so that the buffers' own period (10 s from the last flush) does not come round while this test runs.
    await flushTallies();
    for (const weightKg of [0.5, 0.5, 0.9, 3, 300]) expect(await execute('cov-prod', { weightKg })).toBe(200);
    expect(await execute('cov-prod', { weightKg: 'heavy' })).toBe(400);
    // Nothing is written until the functions flush (at most every 10 s, or here at once).
    expect((await coverage('cov-prod')).production!.executions).toBe(0);
    await flushTallies();

    const counted = await coverage('cov-prod');
    expect(counted.production).toMatchObject({ executions: 6, failed: 1, unmatched: 1, lastExecutedAt: expect.any(String), neverMatched: [2, 3] });
    expect(counted.units.map((u) => u.matched)).toEqual([3, 1, 0, 0]);
    expect(counted.units[0]!.lastMatchedAt! >= counted.publishedAt!).toBe(true);
    expect(counted.units[2]!.lastMatchedAt).toBeUndefined();
    expect(counted.production!.notMatchedSince).toMatchObject({ days: 30, units: [2, 3] });
    expect((await coverage('cov-prod', { days: '1' })).production!.notMatchedSince).toMatchObject({ days: 1, units: [2, 3] });
  });

  it('counts per version: a new version starts anew, and an earlier one stays readable', async () => {
    const v1 = await rules.published(bands('cov-versions'));
    expect(await execute('cov-versions', { weightKg: 10 })).toBe(200);
    const definition = bands('x', { rules: [{ id: 'any', when: ['-'], then: [1] }], tests: [] }).definition as Json;
    const edited = await rules.update('cov-versions', { checksum: v1.checksum, definition });
    await rules.publish('cov-versions', { checksum: edited.body.data.checksum });
    expect(await execute('cov-versions', { weightKg: 10 })).toBe(200);
    expect(await execute('cov-versions', { weightKg: 10 }, 'v1')).toBe(200);
    await flushTallies();
    const latest = await coverage('cov-versions');
    expect(latest).toMatchObject({ version: 'v2', production: { executions: 1, neverMatched: [] } });
    expect(latest.units.map((u) => u.matched)).toEqual([1]);
    const first = await coverage('cov-versions', { version: 'v1' });
    expect(first.production).toMatchObject({ executions: 2, neverMatched: [0, 1, 3] });
    expect(first.units.map((u) => u.matched)).toEqual([0, 0, 2, 0]);
  });

  it('counts a scheduled run once, however often it is delivered, and a workflow rule step (not a workflow test)', async () => {
    await rules.published(bands('cov-runs'));
    const run = {
      workspaceId: 'demo',
      branch: 'main',
      ruleId: 'cov-runs',
      scheduledTime: new Date(Date.now() - 60_000).toISOString(),
      inputParam: { weightKg: 3 },
    };
    expect(await runScheduledRule(t.runtime.store, run)).toMatchObject({ outcome: 'succeeded', recorded: true });
    expect(await runScheduledRule(t.runtime.store, run)).toMatchObject({ recorded: false });

    const flows = workflowsClient(t.api);
    await flows.published(
      workflowRecord('cov-flow', {
        inputs: [{ name: 'weightKg', type: 'number' }],
        start: 'fee',
        steps: [
          { id: 'fee', kind: 'rule', ruleId: 'cov-runs', inputs: { weightKg: 'weightKg' }, next: 'done' },
          { id: 'done', kind: 'end', output: { fee: 'fee.fee' } },
        ],
      }),
    );
    expect((await flows.execute('cov-flow', { params: { weightKg: 50 } })).status).toBe(200);
    expect((await flows.test('cov-flow', { params: { weightKg: 50 } })).status).toBe(200);
    await flushTallies();
    const counted = await coverage('cov-runs');
    expect(counted.production!.executions).toBe(2);
    expect(counted.units.map((u) => u.matched)).toEqual([0, 1, 0, 1]);
  });

  it("adds up the counts of several functions' buffers flushing at once against one table", async () => {
    await rules.published(bands('cov-concurrent'));
    const { checksum } = (await rules.get('cov-concurrent')).body.data;
    const scope = { workspaceId: 'demo', branch: 'main', ruleId: 'cov-concurrent' };
    // Each function has its own store, and so its own buffer.
    const functions = Array.from({ length: 4 }, () => createStore({ tableName: t.runtime.tableName, endpoint: t.runtime.dynamoEndpoint }));
    const perFunction = 25;
    functions.forEach((store, f) => {
      for (let i = 0; i < perFunction; i++) countExecution(store, scope, { version: 'v1', checksum }, { output: null, hits: [i % 2, 2 + (f % 2)] }, new Date());
    });
    for (let i = 0; i < 3; i++) expect(await execute('cov-concurrent', { weightKg: 0.1 })).toBe(200);
    await flushTallies();
    const counted = await coverage('cov-concurrent');
    expect(counted.production).toMatchObject({ executions: 4 * perFunction + 3, failed: 0, unmatched: 0 });
    // Row 1 by every even call of each function and the three executions, row 2 by the odd ones; rows 3 and 4 by two functions each.
    expect(counted.units.map((u) => u.matched)).toEqual([4 * 13 + 3, 4 * 12, 2 * perFunction, 2 * perFunction]);
  });
});

describe('the coverage operation', () => {
  it('refuses a workflow with the reason, a version the rule does not have, and days beyond the executions kept', async () => {
    const flow = await coverageOf(t.api, 'workflow', 'loan-application');
    expectFailure(flow, 400, 'coverage_not_supported');
    expect(flow.body.message).toMatch(/rules only/);
    await rules.published(bands('cov-bad'));
    expectFailure(await coverageOf(t.api, 'rule', 'cov-bad', { version: 'v9' }), 404, 'version_not_found');
    expectFailure(await coverageOf(t.api, 'rule', 'no-such-rule'), 404, 'entity_not_found');
    for (const days of ['0', '31', 'x']) expect(fieldsOf(await coverageOf(t.api, 'rule', 'cov-bad', { days }))).toEqual(['days']);
    expect(fieldsOf(await coverageOf(t.api, 'rule', 'cov-bad', { version: 'latest' }))).toEqual(['version']);
  });
});
