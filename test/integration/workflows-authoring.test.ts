/**
 * Authoring workflows through the local HTTP runtime: a definition with
 * problems is refused whole, every problem named by its path in one 400
 * (graph, references to rules, integrations and credentials, FEEL syntax
 * with its position, names not available at a step); the create, edit with
 * checksum, publish vN and delete round trip; and a publish refused while a
 * rule a step runs has nothing published.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { credentialPath } from '../helpers/credentials.ts';
import { expectFailure, expectSuccess } from '../helpers/envelope.ts';
import { errorsOf } from '../helpers/rules.ts';
import { useRuntime } from '../helpers/runtime.ts';
import {
  createCredential,
  createIntegration,
  expectRun,
  publishRule,
  workflowRecord,
  workflowsClient,
  type Json,
  type WorkflowsClient,
} from '../helpers/workflows.ts';

const t = useRuntime();
let workflows: WorkflowsClient;
let revokedId: string;
let activeId: string;
let integrationId: string;

beforeAll(async () => {
  workflows = workflowsClient(t.api);
  const revoked = await createCredential(t.api, 'authoring revoked', 'sk_authoring_revoked_0001');
  expect((await t.api(credentialPath(revoked.id), { method: 'DELETE' })).status).toBe(200);
  revokedId = revoked.id;
  activeId = (await createCredential(t.api, 'authoring active', 'sk_authoring_active_0002')).id;
  integrationId = (await createIntegration(t.api, 'authoring provider', 'https://api.example.com/v1')).id;
  await publishRule(t.api, { id: 'wf-auth-rule', name: 'Authoring rule', type: 'simpleRule', definition: { when: 'true', then: { ok: true } } });
});

/** Every kind of problem at once; each comment names the problem its step carries. */
const broken = (): Json => ({
  inputs: [{ name: 'order', type: 'context' }],
  start: 'a',
  steps: [
    { id: 'a', kind: 'rule', ruleId: 'no-such-rule', next: 'b' }, // unknown rule
    { id: 'b', kind: 'apiRequest', request: { method: 'GET', integrationId: 'intg_missing', path: '/x' }, next: 'c' }, // unknown integration
    { id: 'c', kind: 'apiRequest', request: { method: 'GET', url: 'https://api.example.com/c' }, credentialId: 'cred_missing', next: 'd' }, // unknown credential
    { id: 'd', kind: 'apiRequest', request: { method: 'GET', url: 'https://api.example.com/d' }, credentialId: revokedId, next: 'e' }, // revoked credential
    {
      id: 'e',
      kind: 'branch',
      cases: [
        { when: 'order.total >', next: 'f' }, // FEEL syntax error
        { when: 'order.total < 0', next: 'a' }, // closes a cycle
        { when: 'true', next: 'h' },
      ],
      otherwise: 'nowhere', // unknown next step
    },
    { id: 'f', kind: 'transform', set: { x: 'order.total' }, next: 'g' },
    { id: 'h', kind: 'transform', set: { x: '0' }, next: 'g' },
    { id: 'g', kind: 'end', output: { y: 'f.x' } }, // "f" is not set on the path through h
    { id: 'orphan', kind: 'end', output: {} }, // unreachable
  ],
});

const expectedProblems = () => [
  { field: 'definition.steps[0].ruleId', message: 'no rule "no-such-rule" on this branch' },
  { field: 'definition.steps[1].request.integrationId', message: 'no integration "intg_missing" in this workspace' },
  { field: 'definition.steps[2].credentialId', message: 'no credential "cred_missing" in this workspace' },
  { field: 'definition.steps[3].credentialId', message: `the credential "${revokedId}" is revoked` },
  { field: 'definition.steps[4].cases[0].when', message: expect.stringMatching(/ at line 1, column \d+$/) },
  { field: 'definition.steps[4].cases[1].next', message: 'closes a cycle: a → b → c → d → e → a' },
  { field: 'definition.steps[4].otherwise', message: 'no step has the id "nowhere"' },
  { field: 'definition.steps[7].output.y', message: 'reads "f", which is not set on every path to this step' },
  { field: 'definition.steps[8]', message: '"orphan" is not reachable from the start step "a"' },
];

const sortByField = <T extends { field: string }>(list: T[]) => [...list].sort((x, y) => (x.field < y.field ? -1 : x.field > y.field ? 1 : 0));

describe('invalid graphs', () => {
  it('refuses a create with every problem listed by path in one 400, and stores nothing', async () => {
    const response = await workflows.create(workflowRecord('broken', broken()));
    expectFailure(response, 400, 'invalid_request');
    const problems = errorsOf(response);
    for (const problem of problems) {
      expect(problem.in).toBe('body');
      expect(response.body.message).toContain(`${problem.field}: ${problem.message}`);
    }
    expect(sortByField(problems.map(({ field, message }) => ({ field, message })))).toEqual(sortByField(expectedProblems()));
    expectFailure(await workflows.get('broken'), 404, 'entity_not_found');
  });

  it("gives the FEEL syntax error's position within the expression", async () => {
    const response = await workflows.create(
      workflowRecord('bad-feel', { start: 'done', steps: [{ id: 'done', kind: 'end', output: { fine: '1 + 1', bad: '1 +* 2' } }] }),
    );
    expectFailure(response, 400, 'invalid_request');
    expect(errorsOf(response)).toEqual([{ in: 'body', field: 'definition.steps[0].output.bad', message: expect.stringMatching(/ at line 1, column [2-5]$/) }]);
  });

  it('names a step read before it runs, a step that gives no value, and a name that is nothing', async () => {
    const response = await workflows.create(
      workflowRecord('unavailable', {
        inputs: [{ name: 'n', type: 'number' }],
        start: 'first',
        steps: [
          { id: 'first', kind: 'transform', set: { early: 'second.v', nothing: 'ghost' }, next: 'pick' },
          { id: 'pick', kind: 'branch', cases: [{ when: 'n > 1', next: 'second' }], otherwise: 'second' },
          { id: 'second', kind: 'transform', set: { v: 'first.early', p: 'pick' }, next: 'done' },
          { id: 'done', kind: 'end', output: { v: 'second.v' } },
        ],
      }),
    );
    expectFailure(response, 400, 'invalid_request');
    expect(sortByField(errorsOf(response))).toEqual(
      sortByField([
        { in: 'body', field: 'definition.steps[0].set.early', message: 'reads "second", which is not set on every path to this step' },
        { in: 'body', field: 'definition.steps[0].set.nothing', message: 'reads "ghost", which is neither a workflow input nor a step id' },
        { in: 'body', field: 'definition.steps[2].set.p', message: 'reads "pick", a branch step, which gives no value' },
      ]),
    );
  });

  it('refuses the same problems on an edit, leaving the draft as it was', async () => {
    const checksum = await workflows.created(workflowRecord('edited-badly', { start: 'done', steps: [{ id: 'done', kind: 'end', output: { ok: 'true' } }] }));
    const response = await workflows.update('edited-badly', { checksum, definition: broken() });
    expectFailure(response, 400, 'invalid_request');
    expect(sortByField(errorsOf(response).map(({ field, message }) => ({ field, message })))).toEqual(sortByField(expectedProblems()));
    const after = await workflows.get('edited-badly');
    expect(after.body.data.checksum).toBe(checksum);
  });

  it('refuses shape problems (an unknown kind, a missing next, url with integrationId) by path too', async () => {
    const response = await workflows.create(
      workflowRecord('misshapen', {
        start: 'a',
        steps: [
          { id: 'a', kind: 'teleport', next: 'b' },
          { id: 'b', kind: 'transform', set: {} },
          { id: 'c', kind: 'apiRequest', request: { method: 'GET', url: 'https://api.example.com', integrationId, path: '/x' }, next: 'b' },
        ],
      }),
    );
    expectFailure(response, 400, 'invalid_request');
    expect(errorsOf(response).map((e) => e.field)).toEqual(['definition.steps[0].kind', 'definition.steps[1].next', 'definition.steps[2].request.url']);
    expect(errorsOf(response)[2]!.message).toBe('give either integrationId and path, or url, not both');
  });
});

describe('the authoring round trip', () => {
  const flow = (label: string) =>
    workflowRecord('round-trip', {
      inputs: [{ name: 'n', type: 'number' }],
      start: 'check',
      steps: [
        { id: 'check', kind: 'rule', ruleId: 'wf-auth-rule', inputs: {}, next: 'call-ish' },
        { id: 'call-ish', kind: 'apiRequest', request: { method: 'GET', url: 'https://api.example.com/never-called' }, credentialId: activeId, next: 'done' },
        { id: 'done', kind: 'end', output: { label: `"${label}"`, n: 'n', ok: 'check.ok' } },
      ],
    }).definition as Json;

  it('creates, edits with the checksum (stale: 409), publishes v1 and v2, and deletes', async () => {
    const record = { ...workflowRecord('round-trip', flow('one')), description: 'a round trip' };
    const created = await workflows.create(record);
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: 'round-trip', checksum: expect.any(String), warnings: [] });
    // The same create again is a retry: the same answer, 200.
    const again = await workflows.create(record);
    expect({ status: again.status, data: again.body.data }).toEqual({ status: 200, data: created.body.data });
    expectFailure(await workflows.create({ ...record, name: 'Other' }), 409, 'entity_exists');

    const read = await workflows.get('round-trip');
    expectSuccess(read);
    expect(read.body.data).toMatchObject({ id: 'round-trip', type: 'workflow', description: 'a round trip', checksum: created.body.data.checksum });
    // Saved through the schema: defaults filled in.
    expect(read.body.data.definition).toMatchObject({
      timeoutMs: 60000,
      steps: [expect.anything(), { timeoutMs: 10000, retries: 2, acceptStatuses: [], request: { query: {}, headers: {} } }, expect.anything()],
    });

    const edited = await workflows.update('round-trip', { checksum: created.body.data.checksum, definition: flow('two') });
    expectSuccess(edited);
    expect(edited.body.data.checksum).not.toBe(created.body.data.checksum);
    expectFailure(await workflows.update('round-trip', { checksum: created.body.data.checksum, name: 'stale' }), 409, 'checksum_mismatch');
    expectFailure(await workflows.publish('round-trip', { checksum: created.body.data.checksum }), 409, 'checksum_mismatch');

    const v1 = await workflows.publish('round-trip', { checksum: edited.body.data.checksum });
    expect(v1.status).toBe(201);
    expect(v1.body.data).toMatchObject({ id: 'round-trip', version: 'v1' });
    const republished = await workflows.publish('round-trip');
    expect({ status: republished.status, version: republished.body.data.version }).toEqual({ status: 200, version: 'v1' });

    const third = await workflows.update('round-trip', { checksum: edited.body.data.checksum, definition: flow('three') });
    expectSuccess(third);
    const v2 = await workflows.publish('round-trip', { checksum: third.body.data.checksum });
    expect({ status: v2.status, version: v2.body.data.version }).toEqual({ status: 201, version: 'v2' });
    const listed = await workflows.get('round-trip');
    expect(listed.body.data).toMatchObject({ version: 'v2' });

    // The step test runs without calling anything: the end step of v1 and of the draft.
    const ends = await Promise.all([
      workflows.testStep('round-trip', 'done', { context: { n: 1, check: { ok: true } }, version: 'v1' }),
      workflows.testStep('round-trip', 'done', { context: { n: 1, check: { ok: true } } }),
    ]);
    expect(ends.map((e) => (e.body.data.output as Json).label)).toEqual(['two', 'three']);

    const removed = await workflows.remove('round-trip');
    expect(removed.body.data).toEqual({ id: 'round-trip', deleted: true });
    expect((await workflows.remove('round-trip')).body.data).toEqual({ id: 'round-trip', deleted: false });
    expectFailure(await workflows.get('round-trip'), 404, 'entity_not_found');
    expectFailure(await workflows.execute('round-trip', { params: { n: 1 } }), 404, 'entity_not_found');
    expectFailure(await workflows.test('round-trip', { params: { n: 1 } }), 404, 'entity_not_found');
  });
});

describe('publishing', () => {
  it("refuses (409 publish_refused) while a rule step's rule has no published version, and publishes once it has", async () => {
    await t.api('/dev/v1/rule', {
      method: 'POST',
      body: JSON.stringify({ id: 'wf-draft-only', name: 'Draft only', type: 'simpleRule', definition: { when: 'true', then: { ok: true } } }),
    });
    const checksum = await workflows.created(
      workflowRecord('needs-published', {
        start: 'run',
        steps: [
          { id: 'run', kind: 'rule', ruleId: 'wf-draft-only', next: 'pinned' },
          { id: 'pinned', kind: 'rule', ruleId: 'wf-auth-rule', version: 'v7', next: 'done' },
          { id: 'done', kind: 'end', output: { ok: 'run.ok' } },
        ],
      }),
    );
    // The draft can be tested: a test runs rule drafts (and the pinned version is missing, which fails that step).
    const tested = expectRun(await workflows.test('needs-published', { params: {} }));
    expect(tested.error).toMatchObject({ stepId: 'pinned' });

    const refused = await workflows.publish('needs-published', { checksum });
    expectFailure(refused, 409, 'publish_refused');
    expect((refused.body.data as unknown as { problems: unknown[] }).problems).toEqual([
      { path: 'definition.steps[0].ruleId', message: 'the rule "wf-draft-only" has no published version: publish it first, or pin a version' },
      { path: 'definition.steps[1].ruleId', message: 'the rule "wf-auth-rule" has no published version v7' },
    ]);
    expect(refused.body.message).toContain('wf-draft-only');
    expectFailure(await workflows.execute('needs-published', { params: {} }), 409, 'workflow_not_published');

    // Publish the rule, pin a version that exists: the workflow publishes.
    const rule = await t.api<{ checksum: string }>('/dev/v1/rule/wf-draft-only');
    expect((await t.api('/dev/v1/rule/wf-draft-only/publish', { method: 'POST', body: JSON.stringify({ checksum: rule.body.data.checksum }) })).status).toBe(
      201,
    );
    const current = await workflows.get('needs-published');
    const definition = current.body.data.definition as { steps: Json[] };
    definition.steps[1] = { ...definition.steps[1], version: 'v1' };
    const fixed = await workflows.update('needs-published', { checksum: current.body.data.checksum, definition });
    expectSuccess(fixed);
    const published = await workflows.publish('needs-published', { checksum: fixed.body.data.checksum });
    expect({ status: published.status, version: published.body.data.version }).toEqual({ status: 201, version: 'v1' });
    expect(expectRun(await workflows.execute('needs-published', { params: {} })).output).toEqual({ ok: true });
  });
});
