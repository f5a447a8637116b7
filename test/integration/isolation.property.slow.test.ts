/**
 * Hostile tenants, as a property over the whole route table: workspace B
 * holds data of every kind (rules of each kind, a workflow, a schedule,
 * credentials, an integration, recorded executions and their coverage
 * counts, a workflow task, a pull
 * task from a private remote, a branch of its own), and workspace A's key
 * calls every operation of `routeList` with B's real ids, the demo
 * workspace's ids and guessed ones in paths, bodies and the branch header.
 *
 * Each call is made twice: with the real foreign ids, and with "ghost" ids of
 * the same shape that exist nowhere. A key that cannot see B must not be able
 * to tell the two apart, so the pair must answer the same status, code and
 * message (ids aside): any difference is an existence oracle. A's own state
 * moves the same way under both (what A creates under a foreign id it creates
 * under the ghost id too), so the comparison stays fair as A writes.
 *
 * After every pair: no answer holds anything of B (names, descriptions,
 * outputs, secrets in any encoding, execution ids, the pulled commit; B's ids
 * only where the request itself named them or A made its own under them),
 * every table item of B is as it was (a raw scan), B's schedule in the
 * scheduler is as it was, and neither B's provider nor its Git host got a
 * call with B's credential.
 *
 * Then the same operations with B's revoked and expired keys: refused (401)
 * everywhere, once the stated bound has passed: the functions keep looked-up
 * keys for DIRECTORY_CACHE_TTL_MS (lib/store/cached-directory.ts), set short
 * here and waited out.
 *
 * Every loop is bounded in count and time; every server is on loopback.
 * About 15–35 s, so `npm run test:slow` runs it.
 */
import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeList, routes } from '../../lib/api/routes.ts';
import type { HttpMethod } from '../../lib/http/route.ts';
import { demoRules, demoWorkflows } from '../../lib/local/demo-entities.ts';
import { demoProviderKey } from '../../lib/local/demo-provider.ts';
import { createRouter } from '../../lib/local/router.ts';
import { scheduleGroupName } from '../../lib/schedules/scheduler.ts';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import { createApiKey, expireApiKey, revokeApiKey } from '../../lib/workspaces/admin.ts';
import type { Api, ApiResponse, RequestOptions } from '../helpers/api.ts';
import { credentialBody, credentialsPath, json } from '../helpers/credentials.ts';
import { createWorkspaceWithKey, simpleRule } from '../helpers/entities.ts';
import { expectFailure } from '../helpers/envelope.ts';
import { integrationBody, integrationsPath } from '../helpers/integrations.ts';
import { entityFiles, pullClient, startRepositories, type Repositories } from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { describeLeaks, secretScanner } from '../helpers/secret-forms.ts';
import { createCredential, createIntegration, waitForTask, workflowRecord, workflowsClient, type TaskAnswer } from '../helpers/workflows.ts';
import { startProvider, type Provider } from '../outbound/servers.ts';
import { flushTallies } from '../../lib/tallies/buffer.ts';

/** The stated bound on a warm function's memory of keys, short so that it can be waited out. */
const keyCacheTtlMs = 400;
process.env.DIRECTORY_CACHE_TTL_MS = String(keyCacheTtlMs);

const t = useRuntime();

/** Bounds of the whole file: well under 60 s. */
const limits = { pairs: 160, pairTimeMs: 14_000, deadKeyCalls: 80, deadKeyTimeMs: 6_000, queueIdleMs: 10_000 } as const;

/** What marks B's content: in every name, description, output and header value of B, and never in anything A sends. */
const mark = `Qz${randomBytes(4).toString('hex')}BMARK`;
const A = 'tenant-a';
const B = 'tenant-b';
const C = 'tenant-c';
const bBranch = 'b-release-7k2';

/** B's ids that A may guess and send (each has a ghost: see ghostOf). */
const bIds = {
  table: 'b-fee-table-4q8',
  simple: 'b-simple-6w1',
  set: 'b-set-2r5',
  flow: 'b-flow-8t3',
  pulled: 'b-pulled-5y9',
  stepRule: 'bsteprule3k',
  stepCall: 'bstepcall7m',
};

/** B's secrets: never in any answer, in any form (the core alone is a partial leak). */
const bSecrets = {
  header: `bsk-HDR-${randomBytes(8).toString('hex')}-%+/=`,
  query: `bsk-QRY-${randomBytes(8).toString('hex')}-€ /"`,
  git: `bsk-GIT-${randomBytes(8).toString('hex')}+/=`,
};
const coreOf = (value: string) => /[0-9a-f]{16}/.exec(value)![0];

/** What the setup learns: ids the server makes, B's keys, the servers. */
interface World {
  keys: { a: string; b: string; c: string; bRevoked: string; bExpired: string };
  deadKeyIds: { revoked: string; expired: string };
  /** B's own key's id: A's key operations must not find it. */
  bKeyId: string;
  creds: { header: string; query: string; git: string };
  integration: string;
  checksums: string[];
  executionIds: string[];
  taskIds: { pull: string; flow: string; replay: string };
  commit: string;
  bRepoUrl: string;
  aRepoUrl: string;
  bProvider: Provider;
  aProvider: Provider;
  aRepos: Repositories;
  bRepos: Repositories;
}
const w = {} as World;

/** Every request this file sends, by phase. */
const sent = { setup: 0, pairs: 0, deadKeys: 0, checks: 0 };
const call = <D = unknown>(phase: keyof typeof sent, path: string, options: RequestOptions): Promise<ApiResponse<D>> => {
  sent[phase]++;
  return t.api<D>(path, options);
};
/** An Api that counts into `phase`, with `key` unless told otherwise. */
const apiAs =
  (phase: keyof typeof sent, key: () => string): Api =>
  <D>(path: string, options?: RequestOptions) =>
    call<D>(phase, path, { key: key(), ...options });
const setupApi = apiAs('setup', () => w.keys.b);

// ---------------------------------------------------------------------------------------------------------------------
// The setup: B with data of every kind, A with a little of its own, C empty.

beforeAll(async () => {
  const started = Date.now();
  w.bProvider = await startProvider((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ score: 7, note: `${mark} provider` }));
  });
  w.aProvider = await startProvider((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  [w.aRepos, w.bRepos] = await Promise.all([startRepositories(), startRepositories({ requireHeader: { name: 'PRIVATE-TOKEN', value: bSecrets.git } })]);
  await w.aRepos.create('a.git', { main: entityFiles([simpleRule('a-rule', 'A rule')]), staging: entityFiles([]) });
  await w.bRepos.create('b-private.git', { [bBranch]: entityFiles([simpleRule(bIds.pulled, `B pulled ${mark}`)]) });
  w.aRepoUrl = w.aRepos.repoUrl('a.git');
  w.bRepoUrl = w.bRepos.repoUrl('b-private.git');

  const { store } = t.runtime;
  const a = await createWorkspaceWithKey(store, { id: A, branches: ['staging'], entities: [simpleRule('a-rule', 'A rule')] });
  const b = await createWorkspaceWithKey(store, { id: B, branches: ['staging', bBranch] });
  const c = await createWorkspaceWithKey(store, { id: C, branches: ['staging'] });
  const bRevoked = await createApiKey(store, B, { label: 'to revoke' });
  const bExpired = await createApiKey(store, B, { label: 'to expire' });
  w.keys = { a: a.key, b: b.key, c: c.key, bRevoked: bRevoked.key, bExpired: bExpired.key };
  w.deadKeyIds = { revoked: bRevoked.record.keyId, expired: bExpired.record.keyId };
  w.bKeyId = b.keyId;

  // B's credentials and integration, through the API as B would make them.
  w.creds = {
    header: (await createCredential(setupApi, `B header ${mark}`, bSecrets.header, { description: `B ${mark}` })).id,
    query: (await createCredential(setupApi, `B query ${mark}`, bSecrets.query, { key: 'api_key', placement: 'query' })).id,
    git: (await createCredential(setupApi, `B git ${mark}`, bSecrets.git, { key: 'PRIVATE-TOKEN' })).id,
  };
  w.integration = (
    await createIntegration(setupApi, `B integration ${mark}`, `${w.bProvider.origin}/bbase-${mark}`, {
      credentialId: w.creds.header,
      headers: { 'X-Tenant-Mark': mark },
      description: `B ${mark}`,
    })
  ).id;

  // B's rules of each kind and a workflow, published; the table and the workflow record their executions.
  const bTable = {
    id: bIds.table,
    name: `B fee table ${mark}`,
    description: `B private table ${mark}`,
    type: 'decisionTable',
    definition: {
      hitPolicy: 'unique',
      parameters: [{ name: 'weightKg', type: 'number' }],
      inputs: [{ id: 'weight', label: 'Weight', expression: 'weightKg', type: 'number' }],
      outputs: [
        { id: 'fee', name: 'fee', type: 'number' },
        { id: 'note', name: 'note', type: 'string' },
      ],
      rules: [
        { id: 'light', when: ['<= 2'], then: [4.9, `"${mark} light"`] },
        { id: 'heavy', when: ['> 2'], then: [8.9, `"${mark} heavy"`] },
      ],
      settings: { recordExecutions: true },
    },
  };
  const bSimple = {
    id: bIds.simple,
    name: `B simple ${mark}`,
    description: `B ${mark}`,
    type: 'simpleRule',
    definition: { when: 'weightKg > 1', then: { simpleNote: `"${mark} simple"` } },
  };
  const bSet = {
    id: bIds.set,
    name: `B set ${mark}`,
    description: `B ${mark}`,
    type: 'ruleSet',
    definition: {
      strategy: 'allMatch',
      rules: [
        { id: 'own', priority: 1, when: 'true', then: [{ set: 'setNote', value: `"${mark} set"` }] },
        { id: 'ref', priority: 0, ruleId: bIds.simple },
      ],
    },
  };
  const bFlow = workflowRecord(
    bIds.flow,
    {
      inputs: [{ name: 'weightKg', type: 'number' }],
      start: bIds.stepRule,
      steps: [
        { id: bIds.stepRule, kind: 'rule', ruleId: bIds.table, inputs: { weightKg: 'weightKg' }, next: bIds.stepCall },
        {
          id: bIds.stepCall,
          kind: 'apiRequest',
          request: { method: 'POST', integrationId: w.integration, path: '/score', body: '{w: weightKg}' },
          next: 'done',
        },
        { id: 'done', kind: 'end', output: { fee: `${bIds.stepRule}.fee`, score: `${bIds.stepCall}.body.score` } },
      ],
      settings: { recordExecutions: true },
    },
    { name: `B flow ${mark}`, description: `B ${mark}` },
  );
  const flows = workflowsClient(setupApi, {});
  w.checksums = [];
  for (const record of [bTable, bSimple, bSet]) {
    const created = await setupApi<{ checksum: string }>('/dev/v1/rule', json('POST', record));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    w.checksums.push(created.body.data.checksum);
    const published = await setupApi(`/dev/v1/rule/${record.id}/publish`, json('POST', { checksum: created.body.data.checksum }));
    expect(published.status, JSON.stringify(published.body)).toBe(201);
  }
  // The table's candidate, v2 (heavy parcels cost more), in a shadow rollout: its counts and sampled disagreements are B's too.
  const candidate = await setupApi<{ checksum: string }>(
    `/dev/v1/rule/${bIds.table}`,
    json('PATCH', {
      checksum: w.checksums[0],
      definition: { ...bTable.definition, rules: [bTable.definition.rules[0], { id: 'heavy', when: ['> 2'], then: [9.9, `"${mark} heavier"`] }] },
    }),
  );
  expect(candidate.status, JSON.stringify(candidate.body)).toBe(200);
  w.checksums.push(candidate.body.data.checksum);
  expect((await setupApi(`/dev/v1/rule/${bIds.table}/publish`, json('POST', { candidate: true }))).status).toBe(201);
  expect((await setupApi(`/dev/v1/rule/${bIds.table}/rollout`, json('PUT', { candidate: 'v2', mode: 'shadow' }))).status).toBe(200);
  const flowChecksum = await flows.created(bFlow);
  w.checksums.push(flowChecksum);
  expect((await flows.publish(bIds.flow, { checksum: flowChecksum })).status).toBe(201);

  // A schedule that will not fire while the file runs (its first run is a year away).
  const startAt = new Date(Date.now() + 365 * 24 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const scheduled = await setupApi(`/dev/v1/rule/${bIds.table}/schedule`, json('POST', { unit: 'day', inputParam: { weightKg: 1 }, startAt }));
  expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
  expect((await outsideStateOfB()).schedule).toMatchObject({ enabled: true });

  // Executions: the table, the workflow synchronously and asynchronously (a task).
  w.executionIds = [];
  const executed = await setupApi<{ executionId: string }>(`/dev/v1/rule/${bIds.table}/execute`, json('POST', { params: { weightKg: 3 } }));
  expect(executed.status, JSON.stringify(executed.body)).toBe(200);
  w.executionIds.push(executed.body.data.executionId);
  // Its rollout compared the candidate after the answer: counted and sampled now, so that B's items stay as they are from here.
  await flushTallies();
  const ran = await flows.execute(bIds.flow, { params: { weightKg: 1 } });
  expect(ran.body.data, JSON.stringify(ran.body)).toMatchObject({ status: 'succeeded' });
  w.executionIds.push(ran.body.data.executionId);
  const queued = await flows.execute(bIds.flow, { params: { weightKg: 2 }, async: true });
  expect(queued.status, JSON.stringify(queued.body)).toBe(202);
  const flowTask = queued.body.data as TaskAnswer;
  w.executionIds.push(flowTask.executionId);
  expect((await waitForTask(setupApi, flowTask.taskId, {}, limits.queueIdleMs)).taskState).toBe('completed');

  // B's remote: a private repository, read with B's Git credential; a pull of B's own branch.
  const bPull = pullClient(setupApi, w.keys.b);
  expect((await bPull.setRemote(w.bRepoUrl, w.creds.git)).status).toBe(200);
  const pullTask = await bPull.start(bBranch);
  const pulled = await bPull.wait(pullTask.taskId, limits.queueIdleMs);
  expect(pulled, JSON.stringify(pulled)).toMatchObject({ taskState: 'completed' });
  w.commit = pulled.commit!;
  // A replay of B's table.
  const replay = await setupApi<{ taskId: string }>(`/dev/v1/rule/${bIds.table}/replay`, json('POST', { candidate: 'v1', source: { executions: {} } }));
  expect(replay.status, JSON.stringify(replay.body)).toBe(202);
  expect((await waitForTask(setupApi, replay.body.data.taskId, {}, limits.queueIdleMs)).taskState).toBe('completed');
  w.taskIds = { pull: pullTask.taskId, flow: flowTask.taskId, replay: replay.body.data.taskId };

  // A's own: a remote it can pull, and the dead keys used once, so that the functions hold them.
  expect(
    (
      await pullClient(
        apiAs('setup', () => w.keys.a),
        w.keys.a,
      ).setRemote(w.aRepoUrl)
    ).status,
  ).toBe(200);
  for (const key of [w.keys.bRevoked, w.keys.bExpired]) expect((await call('setup', `/dev/v1/rule/${bIds.table}`, { key })).status).toBe(200);
  await t.runtime.queue.idle();
  // B's executions counted for coverage are written now, not in the middle of the pairs, where B's state must stand still.
  await flushTallies();
  console.log(`isolation setup: ${sent.setup} requests, ${Date.now() - started} ms`);
}, 30_000);

afterAll(async () => {
  await Promise.all([w.bProvider?.close(), w.aProvider?.close(), w.aRepos?.close(), w.bRepos?.close()]);
  console.log(`isolation: ${Object.values(sent).reduce((a, b) => a + b, 0)} requests in all (${JSON.stringify(sent)})`);
});

// ---------------------------------------------------------------------------------------------------------------------
// What B has, as A must never see it or change it.

/** Every item of the table that names B, as text, sorted: B's state as stored. */
async function itemsOfB(): Promise<string[]> {
  const client = createDocumentClient({ tableName: t.runtime.tableName, endpoint: t.runtime.dynamoEndpoint });
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  for (let page = 0; page < 1_000; page++) {
    const answer = await client.send(new ScanCommand({ TableName: t.runtime.tableName, ExclusiveStartKey: start }));
    for (const item of answer.Items ?? []) if (JSON.stringify(item).includes(B)) items.push(`${String(item.PK)} ${String(item.SK)} ${JSON.stringify(item)}`);
    start = answer.LastEvaluatedKey;
    if (!start) break;
  }
  client.destroy();
  return items.sort();
}

/** B's state outside the table: its schedule in the scheduler, what B's provider and Git host received. */
async function outsideStateOfB() {
  const group = scheduleGroupName(B);
  return {
    schedule: await t.runtime.scheduler.local.getSchedule({ workspaceId: B, branch: 'main', ruleId: bIds.table }),
    schedulerCalls: t.runtime.scheduler.endpoint.requests.filter((request) => JSON.stringify(request).includes(group)).length,
    providerCalls: w.bProvider.requests.length,
    gitSecretSent: w.bRepos.seenHeaders.filter((header) => header.includes(bSecrets.git)).length,
  };
}

/** Where B's state changed: the items that went and came. */
function stateChange(before: string[], after: string[]): string {
  const [was, is] = [new Set(before), new Set(after)];
  return [...before.filter((item) => !is.has(item)).map((item) => `- ${item}`), ...after.filter((item) => !was.has(item)).map((item) => `+ ${item}`)].join(
    '\n',
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// Probes: one operation with foreign ids in slots, rendered with the real ids or with their ghosts.

type RouteName = keyof typeof routes;
type SlotKind = 'entity' | 'step' | 'branch' | 'credential' | 'integration' | 'task' | 'checksum' | 'repo' | 'key';

/** A value a probe sends that may belong to someone else: B, the demo workspace, or nobody (a guess). */
interface Slot {
  kind: SlotKind;
  value: string;
}

interface Request {
  method: HttpMethod;
  path: string;
  branch?: string;
  query?: Record<string, string>;
  body?: unknown;
}

interface Probe {
  operationId: RouteName;
  slots: Slot[];
  /** The request, with each slot's value as `value` gives it and names made unique by `nonce`. */
  render(value: (slot: Slot) => string, nonce: string): Request;
}

const rotLetters = (text: string) =>
  text
    .replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 13) % 26) + 97))
    .replace(/[A-Z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 65 + 13) % 26) + 65))
    .replace(/[0-9]/g, (d) => String((Number(d) + 5) % 10));
const rotHex = (text: string) => text.replace(/[0-9a-f]/g, (d) => ((parseInt(d, 16) + 8) % 16).toString(16));

/**
 * A value of the same shape as `slot`'s that nobody has: letters and digits
 * rotated (hex digits among hex), so each value has one ghost and a ghost
 * is never a real id (the first test checks).
 */
function ghostOf(slot: Slot): string {
  switch (slot.kind) {
    case 'credential':
    case 'integration':
    case 'key': {
      const [, prefix = '', rest = slot.value] = /^(cred_|intg_|key_)?(.*)$/.exec(slot.value) ?? [];
      return `${prefix}${rotHex(rest)}`;
    }
    case 'task':
    case 'checksum':
      return rotHex(slot.value);
    case 'repo': {
      const at = slot.value.lastIndexOf('/');
      return `${slot.value.slice(0, at + 1)}${rotLetters(slot.value.slice(at + 1, -'.git'.length))}.git`;
    }
    default:
      return rotLetters(slot.value);
  }
}

const jsonHeaders = { 'content-type': 'application/json' };

/** Sends a rendered request with `key`. */
function send(phase: keyof typeof sent, request: Request, key: string) {
  const options: RequestOptions = {
    key,
    method: request.method,
    ...(request.branch !== undefined && { branch: request.branch }),
    ...(request.query && { query: request.query }),
  };
  if (request.body !== undefined) Object.assign(options, { headers: jsonHeaders, body: JSON.stringify(request.body) });
  return call(phase, request.path, options);
}

const at = (...segments: string[]) => segments.map((segment, i) => (i === 0 ? segment : encodeURIComponent(segment))).join('/');

/** The slots each operation fills, and where: one generator per operation of the route table. */
function probeArbitraries(): Record<RouteName, fc.Arbitrary<Probe>> {
  const slot =
    (kind: SlotKind) =>
    (value: string): Slot => ({ kind, value });
  const demoEntityIds = [...demoRules, ...demoWorkflows].map((entity) => entity.id);
  const bEntityIds = [bIds.table, bIds.simple, bIds.set, bIds.flow, bIds.pulled];
  const entity = fc
    .oneof(
      { weight: 5, arbitrary: fc.constantFrom(...bEntityIds) },
      { weight: 1, arbitrary: fc.constantFrom(...demoEntityIds) },
      { weight: 1, arbitrary: fc.constantFrom(...bEntityIds.map((id) => id.toUpperCase()), ...bEntityIds.map((id) => `${id}.`), `..%2F${bIds.table}`) },
      { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,20}$/) },
    )
    .map(slot('entity'));
  const entityType = fc.constantFrom('rule', 'workflow');
  const step = fc.oneof(fc.constantFrom(bIds.stepRule, bIds.stepCall, 'done'), fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/)).map(slot('step'));
  /** The branch header: none, A's own names (which B has too), B's own branch. */
  const branch = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom('main', 'staging') },
    { weight: 1, arbitrary: fc.constant(bBranch).map(slot('branch')) },
  );
  const credential = fc
    .oneof(
      { weight: 4, arbitrary: fc.constantFrom(w.creds.header, w.creds.query, w.creds.git) },
      { weight: 1, arbitrary: fc.constantFrom('cred_demo_header', 'cred_demo_query') },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 10, maxLength: 10 }).map((bytes) => `cred_${Buffer.from(bytes).toString('hex')}`) },
    )
    .map(slot('credential'));
  const integration = fc
    .oneof(
      { weight: 4, arbitrary: fc.constant(w.integration) },
      { weight: 1, arbitrary: fc.constantFrom('intg_demo_risk', 'intg_demo_fx') },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 10, maxLength: 10 }).map((bytes) => `intg_${Buffer.from(bytes).toString('hex')}`) },
    )
    .map(slot('integration'));
  const task = fc
    .oneof({ weight: 4, arbitrary: fc.constantFrom(w.taskIds.pull, w.taskIds.flow, w.taskIds.replay) }, { weight: 1, arbitrary: fc.uuid() })
    .map(slot('task'));
  const key = fc
    .oneof(
      { weight: 4, arbitrary: fc.constantFrom(w.bKeyId, w.deadKeyIds.revoked, w.deadKeyIds.expired) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 8, maxLength: 8 }).map((bytes) => `key_${Buffer.from(bytes).toString('hex')}`) },
    )
    .map(slot('key'));
  const checksum = fc
    .oneof(
      fc.constantFrom(...w.checksums),
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('hex')),
    )
    .map(slot('checksum'));
  const version = fc.constantFrom(undefined, 'v1', 'v2');

  /** A slot value, or a literal (A's own branch names) that both renders send as is. */
  type Part = Slot | string | undefined;
  const partValue = (part: Part, value: (slot: Slot) => string) => (typeof part === 'object' ? value(part) : part);
  const isSlot = (part: unknown): part is Slot => typeof part === 'object' && part !== null && 'kind' in part;
  const slotsOf = (...parts: Part[]) => parts.filter(isSlot);

  /** An operation on one entity: its type, id and branch header, and `more` (whose slots `slotsIn` lists). */
  const onEntity = <M>(
    operationId: RouteName,
    more: fc.Arbitrary<M>,
    render: (parts: { type: string; id: string; branch: string | undefined; more: M; v: (slot: Slot) => string; nonce: string }) => Request,
    slotsIn: (more: M) => Slot[] = () => [],
  ): fc.Arbitrary<Probe> =>
    fc.tuple(entityType, entity, branch, more).map(([type, id, picked, extra]) => ({
      operationId,
      slots: [id, ...slotsOf(picked), ...slotsIn(extra)],
      render: (v, nonce) => render({ type, id: v(id), branch: partValue(picked, v), more: extra, v, nonce }),
    }));

  /** Rule bodies A may create under a foreign id: A's own definitions, some naming foreign rules, integrations and credentials. */
  const createBody = fc.record({
    shape: fc.constantFrom('table', 'simple', 'set', 'flowRule', 'flowIntegration', 'flowCredential'),
    ref: entity,
    integration,
    credential,
  });
  const createRecord = (shape: string, id: string, ref: string, integrationId: string, credentialId: string, nonce: string) => {
    const name = `A ${nonce}`;
    switch (shape) {
      case 'table':
        return {
          id,
          name,
          type: 'decisionTable',
          definition: {
            hitPolicy: 'unique',
            parameters: [{ name: 'weightKg', type: 'number' }],
            inputs: [{ id: 'weight', expression: 'weightKg', type: 'number' }],
            outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
            rules: [{ id: 'any', when: ['-'], then: [1] }],
            settings: { recordExecutions: true },
          },
        };
      case 'simple':
        return { id, name, type: 'simpleRule', definition: { when: 'true', then: { aOwn: 1 } } };
      case 'set':
        return { id, name, type: 'ruleSet', definition: { strategy: 'allMatch', rules: [{ id: 'ref', priority: 0, ruleId: ref }] } };
      case 'flowRule':
        return workflowRecord(
          id,
          {
            start: 's',
            steps: [
              { id: 's', kind: 'rule', ruleId: ref, next: 'done' },
              { id: 'done', kind: 'end' },
            ],
          },
          { name },
        );
      case 'flowIntegration':
        return workflowRecord(
          id,
          {
            start: 's',
            steps: [
              { id: 's', kind: 'apiRequest', request: { method: 'GET', integrationId, path: '/score' }, next: 'done' },
              { id: 'done', kind: 'end' },
            ],
          },
          { name },
        );
      default:
        return workflowRecord(
          id,
          {
            start: 's',
            steps: [
              { id: 's', kind: 'apiRequest', request: { method: 'GET', url: `${w.aProvider.origin}/x` }, credentialId, next: 'done' },
              { id: 'done', kind: 'end' },
            ],
          },
          { name },
        );
    }
  };

  const probe = (operationId: RouteName, slots: Slot[], render: Probe['render']): Probe => ({ operationId, slots, render });
  const onItem = (operationId: RouteName, item: fc.Arbitrary<Slot>, render: (id: string) => Request) =>
    item.map((picked) => probe(operationId, [picked], (v) => render(v(picked))));

  const scheduleBody = fc.constantFrom({ unit: 'day', isEnabled: false, inputParam: { weightKg: 1 } }, { isDelete: true }, { unit: 'month', isEnabled: false });
  const rolloutBody = fc.constantFrom(
    { candidate: 'v2', mode: 'shadow' },
    { candidate: 'v2', mode: 'canary', percent: 20, stickyBy: 'weightKg' },
    { candidate: 'v1', mode: 'canary', percent: 50 },
  );

  return {
    listEntities: fc.record({ type: entityType, branch, name: fc.constantFrom(undefined, 'b', 'fee', 'a') }).map((picked) =>
      probe('listEntities', slotsOf(picked.branch), (v) => ({
        method: 'GET',
        path: `/dev/v1/${picked.type}`,
        branch: partValue(picked.branch, v),
        query: { pageSize: '100', ...(picked.name && { name: picked.name }) },
      })),
    ),
    listEntitiesLegacy: fc.record({ type: entityType, branch }).map((picked) =>
      probe('listEntitiesLegacy', slotsOf(picked.branch), (v) => ({
        method: 'GET',
        path: `/dev/${picked.type}`,
        branch: partValue(picked.branch, v),
        query: { pageSize: '100' },
      })),
    ),
    getEntity: onEntity('getEntity', version, ({ type, id, branch, more: label }) => ({
      method: 'GET',
      path: at(`/dev/v1/${type}`, id),
      branch,
      ...(label && { query: { version: label } }),
    })),
    getEntityLegacy: onEntity('getEntityLegacy', version, ({ type, id, branch, more: label }) => ({
      method: 'GET',
      path: at(`/dev/${type}`, id),
      branch,
      ...(label && { query: { version: label } }),
    })),
    createEntity: fc.record({ id: entity, branch, body: createBody }).map((picked) =>
      probe('createEntity', [picked.id, ...slotsOf(picked.branch), picked.body.ref, picked.body.integration, picked.body.credential], (v, nonce) => {
        const record = createRecord(picked.body.shape, v(picked.id), v(picked.body.ref), v(picked.body.integration), v(picked.body.credential), nonce);
        return {
          method: 'POST',
          path: `/dev/v1/${picked.body.shape.startsWith('flow') ? 'workflow' : 'rule'}`,
          branch: partValue(picked.branch, v),
          body: record,
        };
      }),
    ),
    importRules: fc.record({ id: entity, branch, body: createBody, dryRun: fc.boolean() }).map((picked) =>
      probe('importRules', [picked.id, ...slotsOf(picked.branch), picked.body.ref, picked.body.integration, picked.body.credential], (v, nonce) => ({
        method: 'POST',
        path: '/dev/v1/rule/import',
        branch: partValue(picked.branch, v),
        // This service's own JSON record, as a file: the import of a foreign id, naming foreign rules, must not reach B.
        body: createRecord(picked.body.shape.startsWith('flow') ? 'table' : picked.body.shape, v(picked.id), v(picked.body.ref), '', '', nonce),
        ...(picked.dryRun && { query: { dryRun: 'true' } }),
      })),
    ),
    exportRule: onEntity('exportRule', fc.tuple(fc.constantFrom('dmn', 'xlsx', 'csv', 'jdm'), version), ({ type, id, branch, more: [format, label] }) => ({
      method: 'GET',
      path: at(`/dev/v1/${type}`, id, 'export'),
      branch,
      query: { format, ...(label && { version: label }) },
    })),
    updateEntity: onEntity(
      'updateEntity',
      checksum,
      ({ type, id, branch, more: sum, v, nonce }) => ({
        method: 'PATCH',
        path: at(`/dev/v1/${type}`, id),
        branch,
        body: { checksum: v(sum), description: `A edit ${nonce}` },
      }),
      (sum) => [sum],
    ),
    publishEntity: onEntity(
      'publishEntity',
      fc.tuple(fc.option(checksum, { nil: undefined }), fc.option(task, { nil: undefined })),
      ({ type, id, branch, more: [sum, acknowledged], v }) => ({
        method: 'POST',
        path: at(`/dev/v1/${type}`, id, 'publish'),
        branch,
        body: { ...(sum && { checksum: v(sum) }), ...(acknowledged && { acknowledgeReplay: v(acknowledged) }) },
      }),
      ([sum, acknowledged]) => slotsOf(sum, acknowledged),
    ),
    replayRule: onEntity('replayRule', fc.tuple(fc.constantFrom('draft', 'v1', 'v2'), fc.boolean()), ({ type, id, branch, more: [candidate, listed] }) => ({
      method: 'POST',
      path: at(`/dev/v1/${type}`, id, 'replay'),
      branch,
      body: { candidate, source: listed ? { paramsList: [{ weightKg: 3 }] } : { executions: { limit: 20 } } },
    })),
    deleteEntity: onEntity('deleteEntity', fc.constant(undefined), ({ type, id, branch }) => ({ method: 'DELETE', path: at(`/dev/v1/${type}`, id), branch })),
    testEntity: onEntity('testEntity', version, ({ type, id, branch, more: label }) => ({
      method: 'POST',
      path: at(`/dev/v1/${type}`, id, 'test'),
      branch,
      body: { params: { weightKg: 3 }, ...(label && { version: label }) },
    })),
    executeEntity: onEntity('executeEntity', fc.tuple(version, fc.boolean()), ({ type, id, branch, more: [label, async] }) => ({
      method: 'POST',
      path: at(`/dev/v1/${type}`, id, 'execute'),
      branch,
      body: { params: { weightKg: 3 }, ...(label && { version: label }), ...(async && type === 'workflow' && { async: true }) },
    })),
    listExecutions: onEntity('listExecutions', fc.constant(undefined), ({ type, id, branch }) => ({
      method: 'GET',
      path: at(`/dev/v1/${type}`, id, 'executions'),
      branch,
      query: { pageSize: '100' },
    })),
    testWorkflowStep: onEntity(
      'testWorkflowStep',
      fc.tuple(step, version),
      ({ id, branch, more: [stepSlot, label], v }) => ({
        method: 'POST',
        path: at('/dev/v1/workflow', id, 'steps', v(stepSlot), 'test'),
        branch,
        body: { context: { weightKg: 1 }, ...(label && { version: label }) },
      }),
      ([stepSlot]) => [stepSlot],
    ),
    saveSchedule: onEntity('saveSchedule', scheduleBody, ({ type, id, branch, more: body }) => ({
      method: 'POST',
      path: at(`/dev/v1/${type}`, id, 'schedule'),
      branch,
      body,
    })),
    saveScheduleLegacy: onEntity('saveScheduleLegacy', scheduleBody, ({ type, id, branch, more: body }) => ({
      method: 'POST',
      path: at(`/dev/${type}`, id, 'schedule'),
      branch,
      body,
    })),
    getSchedule: onEntity('getSchedule', fc.constant(undefined), ({ type, id, branch }) => ({
      method: 'GET',
      path: at(`/dev/v1/${type}`, id, 'schedule'),
      branch,
    })),
    getCoverage: onEntity('getCoverage', fc.tuple(version, fc.constantFrom(undefined, '1', '30')), ({ type, id, branch, more: [label, days] }) => ({
      method: 'GET',
      path: at(`/dev/v1/${type}`, id, 'coverage'),
      branch,
      query: { ...(label && { version: label }), ...(days && { days }) },
    })),
    getRollout: onEntity('getRollout', fc.constant(undefined), ({ type, id, branch }) => ({
      method: 'GET',
      path: at(`/dev/v1/${type}`, id, 'rollout'),
      branch,
    })),
    startRollout: onEntity('startRollout', rolloutBody, ({ type, id, branch, more: body }) => ({
      method: 'PUT',
      path: at(`/dev/v1/${type}`, id, 'rollout'),
      branch,
      body,
    })),
    promoteCandidate: onEntity('promoteCandidate', fc.constantFrom('v1', 'v2', 'v3'), ({ type, id, branch, more: candidate }) => ({
      method: 'POST',
      path: at(`/dev/v1/${type}`, id, 'rollout', 'promote'),
      branch,
      body: { candidate },
    })),
    endRollout: onEntity('endRollout', fc.constant(undefined), ({ type, id, branch }) => ({
      method: 'DELETE',
      path: at(`/dev/v1/${type}`, id, 'rollout'),
      branch,
    })),
    createCredential: fc.constant(
      probe('createCredential', [], (_v, nonce) => ({ method: 'POST', path: credentialsPath, body: credentialBody(`A ${nonce}`, `a-value-${nonce}`) })),
    ),
    listCredentials: fc.constant(probe('listCredentials', [], () => ({ method: 'GET', path: credentialsPath, query: { pageSize: '100' } }))),
    getCredential: onItem('getCredential', credential, (id) => ({ method: 'GET', path: at(credentialsPath, id) })),
    updateCredential: fc
      .tuple(credential, fc.constantFrom('value', 'description'))
      .map(([id, field]) =>
        probe('updateCredential', [id], (v, nonce) => ({ method: 'PATCH', path: at(credentialsPath, v(id)), body: { [field]: `a-${nonce}` } })),
      ),
    revokeCredential: onItem('revokeCredential', credential, (id) => ({ method: 'DELETE', path: at(credentialsPath, id) })),
    testCredential: onItem('testCredential', credential, (id) => ({
      method: 'POST',
      path: at(credentialsPath, id, 'test'),
      body: { url: `${w.aProvider.origin}/probe` },
    })),
    createIntegration: fc.option(credential, { nil: undefined }).map((cred) =>
      probe('createIntegration', slotsOf(cred), (v, nonce) => ({
        method: 'POST',
        path: integrationsPath,
        body: integrationBody(`A ${nonce}`, w.aProvider.origin, cred ? { credentialId: v(cred) } : {}),
      })),
    ),
    listIntegrations: fc.constant(probe('listIntegrations', [], () => ({ method: 'GET', path: integrationsPath, query: { pageSize: '100' } }))),
    getIntegration: onItem('getIntegration', integration, (id) => ({ method: 'GET', path: at(integrationsPath, id) })),
    updateIntegration: fc.tuple(integration, fc.option(credential, { nil: undefined })).map(([id, cred]) =>
      probe('updateIntegration', slotsOf(id, cred), (v, nonce) => ({
        method: 'PATCH',
        path: at(integrationsPath, v(id)),
        body: cred ? { credentialId: v(cred) } : { description: `A ${nonce}` },
      })),
    ),
    deleteIntegration: onItem('deleteIntegration', integration, (id) => ({ method: 'DELETE', path: at(integrationsPath, id) })),
    testIntegration: onItem('testIntegration', integration, (id) => ({ method: 'POST', path: at(integrationsPath, id, 'test'), body: { path: '/score' } })),
    pullRemote: branch.map((picked) =>
      probe('pullRemote', slotsOf(picked), (v) => ({ method: 'POST', path: '/dev/remote/pull', branch: partValue(picked, v) })),
    ),
    pullRemoteV1: branch.map((picked) =>
      probe('pullRemoteV1', slotsOf(picked), (v) => ({ method: 'POST', path: '/dev/v1/remote/pull', branch: partValue(picked, v), body: {} })),
    ),
    pushRemote: branch.map((picked) =>
      probe('pushRemote', slotsOf(picked), (v) => ({ method: 'POST', path: '/dev/v1/remote/push', branch: partValue(picked, v), body: {} })),
    ),
    getPullTask: onItem('getPullTask', task, (id) => ({ method: 'GET', path: at('/dev/remote/pull', id) })),
    getTask: onItem('getTask', task, (id) => ({ method: 'GET', path: at('/dev/v1/tasks', id) })),
    getRemote: fc.constant(probe('getRemote', [], () => ({ method: 'GET', path: '/dev/v1/remote' }))),
    listBranches: fc.constant(probe('listBranches', [], () => ({ method: 'GET', path: '/dev/v1/branches' }))),
    putRemote: fc.record({ foreignUrl: fc.boolean(), cred: fc.option(credential, { nil: undefined }) }).map(({ foreignUrl, cred }) => {
      const url = foreignUrl ? slot('repo')(w.bRepoUrl) : undefined;
      return probe('putRemote', slotsOf(url, cred), (v) => ({
        method: 'PUT',
        path: '/dev/v1/remote',
        body: { url: url ? v(url) : w.aRepoUrl, ...(cred && { credentialId: v(cred) }) },
      }));
    }),
    getOpenApi: fc.constant(probe('getOpenApi', [], () => ({ method: 'GET', path: '/openapi.json' }))),
    getSignIn: fc.constant(probe('getSignIn', [], () => ({ method: 'GET', path: '/dev/v1/sign-in' }))),
    createKey: fc.constant(
      probe('createKey', [], (_v, nonce) => ({ method: 'POST', path: '/dev/v1/keys', body: { label: `A ${nonce}`, owner: 'isolation', role: 'reader' } })),
    ),
    listKeys: fc.constant(probe('listKeys', [], () => ({ method: 'GET', path: '/dev/v1/keys' }))),
    getCaller: fc.constant(probe('getCaller', [], () => ({ method: 'GET', path: '/dev/v1/me' }))),
    getKey: onItem('getKey', key, (id) => ({ method: 'GET', path: at('/dev/v1/keys', id) })),
    updateKey: fc.tuple(key, fc.constantFrom('label', 'role')).map(([id, field]) =>
      probe('updateKey', [id], (v, nonce) => ({
        method: 'PATCH',
        path: at('/dev/v1/keys', v(id)),
        body: field === 'label' ? { label: `A ${nonce}` } : { role: 'reader' },
      })),
    ),
    revokeKey: onItem('revokeKey', key, (id) => ({ method: 'DELETE', path: at('/dev/v1/keys', id) })),
    createPersonalKey: fc.constant(
      probe('createPersonalKey', [], (_v, nonce) => ({ method: 'POST', path: '/dev/v1/me/keys', body: { label: `A ${nonce}`, role: 'reader' } })),
    ),
    getAccess: fc.constant(probe('getAccess', [], () => ({ method: 'GET', path: '/dev/v1/access' }))),
    putAccess: fc.constant(
      probe('putAccess', [], (_v, nonce) => ({
        method: 'PUT',
        path: '/dev/v1/access',
        body: { groups: [{ group: `A ${nonce}`, role: 'reader' }], people: [] },
      })),
    ),
    listAudit: onItem('listAudit', key, (id) => ({ method: 'GET', path: '/dev/v1/audit', query: { keyId: id } })),
    protectBranch: branch.map((picked) =>
      probe('protectBranch', slotsOf(picked), (v) => ({
        method: 'PUT',
        path: at('/dev/v1/branches', partValue(picked, v) ?? 'main', 'protection'),
        body: { requiredApprovals: 1 },
      })),
    ),
    unprotectBranch: branch.map((picked) =>
      probe('unprotectBranch', slotsOf(picked), (v) => ({ method: 'DELETE', path: at('/dev/v1/branches', partValue(picked, v) ?? 'main', 'protection') })),
    ),
    proposeChange: onEntity('proposeChange', fc.constant(undefined), ({ type, id, branch }) => ({
      method: 'POST',
      path: at(`/dev/v1/${type}`, id, 'change-requests'),
      branch,
      body: { checksum: 'a'.repeat(64), description: 'A proposal' },
    })),
    listChangeRequests: onEntity('listChangeRequests', fc.constant(undefined), ({ type, id, branch }) => ({
      method: 'GET',
      path: at(`/dev/v1/${type}`, id, 'change-requests'),
      branch,
    })),
    getChangeRequest: onEntity('getChangeRequest', fc.constant(undefined), ({ type, id, branch }) => ({
      method: 'GET',
      path: at(`/dev/v1/${type}`, id, 'change-requests', 'cr_0123456789abcdef0123'),
      branch,
    })),
    approveChange: onEntity('approveChange', fc.constant(undefined), ({ type, id, branch }) => ({
      method: 'POST',
      path: at(`/dev/v1/${type}`, id, 'change-requests', 'cr_0123456789abcdef0123', 'approve'),
      branch,
      body: { comment: 'ok' },
    })),
    rejectChange: onEntity('rejectChange', fc.constant(undefined), ({ type, id, branch }) => ({
      method: 'POST',
      path: at(`/dev/v1/${type}`, id, 'change-requests', 'cr_0123456789abcdef0123', 'reject'),
      branch,
      body: { comment: 'no' },
    })),
    verifyAudit: fc.constant(probe('verifyAudit', [], () => ({ method: 'GET', path: '/dev/v1/audit/verify' }))),
    exportAudit: fc.constant(probe('exportAudit', [], () => ({ method: 'GET', path: '/dev/v1/audit/export' }))),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// The checks of one answer.

/** What of B (and of the demo workspace) an answer must never hold; `guessable` only where the request did not name it. */
function foreignTokens() {
  const unconditional = [
    mark,
    B,
    w.keys.b,
    w.keys.bRevoked,
    w.keys.bExpired,
    w.commit,
    ...w.executionIds,
    `/bbase-`,
    demoProviderKey,
    ...[...demoRules, ...demoWorkflows].flatMap((entity) => [entity.name, entity.description ?? '']).filter((text) => text.length >= 8),
  ];
  const guessable = [
    ...Object.values(bIds),
    bBranch,
    w.creds.header,
    w.creds.query,
    w.creds.git,
    w.integration,
    w.taskIds.pull,
    w.taskIds.flow,
    w.taskIds.replay,
    ...w.checksums,
    w.bRepoUrl,
    'b-private',
  ];
  return { unconditional, guessable };
}

const volatile = /\d+(\.\d+)?/g;

/** An answer as compared across a pair: the slot values it holds named by their slot, numbers (times, ports) dropped. */
function comparable(response: ApiResponse, values: string[]): string {
  let text = JSON.stringify({
    status: response.status,
    code: response.body.code,
    message: response.body.message,
    data: response.status >= 400 ? response.body.data : undefined,
  });
  const longestFirst = values.map((value, i) => ({ value, i })).sort((x, y) => y.value.length - x.value.length);
  for (const { value, i } of longestFirst)
    if (value) text = text.replace(new RegExp(`(?<![\\w.-])${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\w-])`, 'g'), `<slot ${i}>`);
  return text.replace(volatile, 'N');
}

const answerText = (response: ApiResponse) =>
  `${response.status} ${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${JSON.stringify(response.body)}`;

// ---------------------------------------------------------------------------------------------------------------------

/**
 * Runs probes as pairs (real ids, then ghosts) with A's key and checks each
 * pair: no foreign data in either answer, the same answer for both, nothing
 * of B changed. Its state spans the tests of the describe below.
 */
async function pairRunner() {
  const { unconditional, guessable } = foreignTokens();
  const scanner = secretScanner(Object.entries(bSecrets).map(([label, value]) => ({ label: `B's ${label} credential`, value, core: coreOf(value) })));
  /** B's ids A made its own (created under them): from then on, A's answers may hold them. */
  const adopted = new Set<string>();
  const tried = new Map<string, number>();
  /** What each operation answered A: the statuses and codes seen, so that a run shows what it reached. */
  const answered = new Map<string, Set<string>>();
  const failures: string[] = [];
  const [itemsBefore, outsideBefore] = [await itemsOfB(), await outsideStateOfB()];
  let itemsNow = itemsBefore;
  let nonce = 0;
  let pairsRun = 0;
  /** Operations whose work goes on after the answer, on the task queue. */
  const queueing = new Set<RouteName>(['pullRemote', 'pullRemoteV1', 'pushRemote', 'executeEntity']);

  const leaksOf = (response: ApiResponse, request: Request) => {
    const text = answerText(response);
    const named = JSON.stringify(request);
    return [
      ...unconditional.filter((token) => token && text.includes(token)).map((token) => `B's ${JSON.stringify(token)}`),
      ...guessable
        .filter((token) => text.includes(token) && !named.includes(token) && !adopted.has(token))
        .map((token) => `B's id ${JSON.stringify(token)}, which the request did not name`),
      ...scanner.scan(text, 'the answer').map((leak) => describeLeaks([leak])),
    ];
  };

  /** Sends the pair and checks it; `expected` is the status the real request must get, when the caller knows it. Whether it passed. */
  async function run(probe: Probe, expected?: number): Promise<boolean> {
    nonce++;
    const real = probe.render((slot) => slot.value, `r${nonce}`);
    const ghost = probe.render(ghostOf, `g${nonce}`);
    const realAnswer = await send('pairs', real, w.keys.a);
    if (realAnswer.status < 300 && real.method !== 'GET') for (const token of guessable) if (JSON.stringify(real).includes(token)) adopted.add(token);
    // What the real request queued (a pull, a workflow run) ends before the ghost's, so that both meet the same state.
    const queues = queueing.has(probe.operationId);
    if (queues) await idleQueue();
    const ghostAnswer = await send('pairs', ghost, w.keys.a);
    if (queues) await idleQueue();
    pairsRun++;
    tried.set(probe.operationId, (tried.get(probe.operationId) ?? 0) + 1);
    answered.set(
      probe.operationId,
      (answered.get(probe.operationId) ?? new Set()).add(`${realAnswer.status}${realAnswer.body.code ? ` ${realAnswer.body.code}` : ''}`),
    );
    const where = `${probe.operationId}: ${real.method} ${real.path}${real.branch === undefined ? '' : ` [Service-Branch: ${real.branch}]`} ${real.body === undefined ? '' : JSON.stringify(real.body)}`;
    const problems = [...leaksOf(realAnswer, real), ...leaksOf(ghostAnswer, ghost)];
    if (expected !== undefined && realAnswer.status !== expected) problems.push(`expected ${expected}`);
    const [realShape, ghostShape] = [
      comparable(
        realAnswer,
        probe.slots.map((slot) => slot.value),
      ),
      comparable(ghostAnswer, probe.slots.map(ghostOf)),
    ];
    if (realShape !== ghostShape) problems.push(`an existence oracle: B's ids answer ${realShape}, ids nobody has ${ghostShape}`);
    // A scan costs as much as the pair: after every write, and every few reads (a read has no write access on AWS).
    if (real.method !== 'GET' || pairsRun % 8 === 0) {
      const items = await itemsOfB();
      if (items.join('\n') !== itemsNow.join('\n')) problems.push(`B's stored items changed (since the last scan):\n${stateChange(itemsNow, items)}`);
      itemsNow = items;
    }
    const outside = await outsideStateOfB();
    if (JSON.stringify(outside) !== JSON.stringify(outsideBefore))
      problems.push(`B's schedule, provider or Git host saw something: ${JSON.stringify(outsideBefore)} → ${JSON.stringify(outside)}`);
    if (problems.length) failures.push(`${where}\n  real answer: ${answerText(realAnswer).slice(0, 800)}\n  ${problems.join('\n  ')}`);
    return problems.length === 0;
  }

  const summary = () =>
    `${[...tried.values()].reduce((a, b) => a + b, 0)} pairs over ${tried.size} operations; A made its own under ${adopted.size} of B's ids\n` +
    [...answered].map(([operationId, seen]) => `  ${operationId} ×${tried.get(operationId)}: ${[...seen].sort().join(', ')}`).join('\n');
  return { run, failures, tried, summary, itemsBefore };
}

/**
 * A makes its own rules and workflow under B's ids (and step ids), then
 * publishes, runs, tests, schedules and reads them: every answer must be A's
 * (a cache keyed without the workspace would hand A B's compiled rule, whose
 * outputs carry B's mark). Each probe's status is the one A's own gets.
 */
function ownUnderForeignIds(): [Probe, number][] {
  const slot = (kind: SlotKind, value: string): Slot => ({ kind, value });
  const [table, simple, set, flow] = [bIds.table, bIds.simple, bIds.set, bIds.flow].map((id) => slot('entity', id)) as [Slot, Slot, Slot, Slot];
  // 'done' too: random probes ask for it as a step slot, so A's workflow under its ghost id must have the ghost of 'done'.
  const [stepRule, stepCall, done] = [slot('step', bIds.stepRule), slot('step', bIds.stepCall), slot('step', 'done')];
  const repo = slot('repo', w.bRepoUrl);
  const p = (operationId: RouteName, slots: Slot[], render: Probe['render'], status: number): [Probe, number] => [{ operationId, slots, render }, status];
  const post = (path: string, body: unknown = {}): Request => ({ method: 'POST', path, body });
  const ruleAt = (v: (s: Slot) => string, s: Slot, ...rest: string[]) => at('/dev/v1/rule', v(s), ...rest);
  const flowAt = (v: (s: Slot) => string, ...rest: string[]) => at('/dev/v1/workflow', v(flow), ...rest);
  return [
    p('pullRemoteV1', [], () => ({ ...post('/dev/v1/remote/pull'), branch: 'main' }), 200),
    p(
      'createEntity',
      [table],
      (v, nonce) => post('/dev/v1/rule', { id: v(table), name: `A ${nonce}`, type: 'simpleRule', definition: { when: 'true', then: { aOwn: 1 } } }),
      201,
    ),
    p(
      'createEntity',
      [simple],
      (v, nonce) => post('/dev/v1/rule', { id: v(simple), name: `A ${nonce}`, type: 'simpleRule', definition: { when: 'true', then: { aSimple: 2 } } }),
      201,
    ),
    p(
      'createEntity',
      [set, simple],
      (v, nonce) =>
        post('/dev/v1/rule', {
          id: v(set),
          name: `A ${nonce}`,
          type: 'ruleSet',
          definition: { strategy: 'allMatch', rules: [{ id: 'ref', priority: 0, ruleId: v(simple) }] },
        }),
      201,
    ),
    ...[table, simple, set].map((rule) => p('publishEntity', [rule], (v) => post(ruleAt(v, rule, 'publish')), 201)),
    p(
      'createEntity',
      [flow, stepRule, stepCall, done, table],
      (v, nonce) =>
        post(
          '/dev/v1/workflow',
          workflowRecord(
            v(flow),
            {
              start: v(stepRule),
              steps: [
                { id: v(stepRule), kind: 'rule', ruleId: v(table), next: v(stepCall) },
                { id: v(stepCall), kind: 'apiRequest', request: { method: 'GET', url: `${w.aProvider.origin}/a-flow` }, next: v(done) },
                { id: v(done), kind: 'end', output: { own: `${v(stepRule)}.aOwn`, ok: `${v(stepCall)}.body.ok` } },
              ],
              settings: { recordExecutions: true },
            },
            { name: `A ${nonce}` },
          ),
        ),
      201,
    ),
    p('publishEntity', [flow], (v) => post(flowAt(v, 'publish')), 201),
    p('executeEntity', [table], (v) => post(ruleAt(v, table, 'execute'), { params: {} }), 200),
    p('testEntity', [table], (v) => post(ruleAt(v, table, 'test'), { params: {}, version: 'v1' }), 200),
    p('executeEntity', [set], (v) => post(ruleAt(v, set, 'execute'), { params: {} }), 200),
    // A's own replay of A's table under B's id: A's executions, never B's.
    p('replayRule', [table], (v) => post(ruleAt(v, table, 'replay'), { candidate: 'v1', source: { executions: {} } }), 202),
    p('testEntity', [set], (v) => post(ruleAt(v, set, 'test'), { params: {} }), 200),
    p('executeEntity', [flow], (v) => post(flowAt(v, 'execute'), { params: {} }), 200),
    p('executeEntity', [flow], (v) => post(flowAt(v, 'execute'), { params: {}, async: true }), 202),
    p('testEntity', [flow], (v) => post(flowAt(v, 'test'), { params: {} }), 200),
    ...[stepRule, stepCall].map((step) => p('testWorkflowStep', [flow, step], (v) => post(flowAt(v, 'steps', v(step), 'test'), { context: {} }), 200)),
    p('listExecutions', [table], (v) => ({ method: 'GET', path: ruleAt(v, table, 'executions') }), 200),
    p('listExecutions', [flow], (v) => ({ method: 'GET', path: flowAt(v, 'executions') }), 200),
    p('getEntity', [table], (v) => ({ method: 'GET', path: ruleAt(v, table), query: { version: 'v1' } }), 200),
    p('getEntityLegacy', [flow], (v) => ({ method: 'GET', path: at('/dev/workflow', v(flow)) }), 200),
    p('saveSchedule', [table], (v) => post(ruleAt(v, table, 'schedule'), { unit: 'day', isEnabled: false }), 200),
    p('getSchedule', [table], (v) => ({ method: 'GET', path: ruleAt(v, table, 'schedule') }), 200),
    // A's rule under B's table's id has no candidate: its rollout is A's, empty, and none can start.
    p('getRollout', [table], (v) => ({ method: 'GET', path: ruleAt(v, table, 'rollout') }), 200),
    p('startRollout', [table], (v) => ({ method: 'PUT', path: ruleAt(v, table, 'rollout'), body: { candidate: 'v2', mode: 'shadow' } }), 409),
    p('promoteCandidate', [table], (v) => post(ruleAt(v, table, 'rollout', 'promote'), { candidate: 'v2' }), 409),
    p('endRollout', [table], (v) => ({ method: 'DELETE', path: ruleAt(v, table, 'rollout') }), 200),
    p('saveScheduleLegacy', [table], (v) => post(at('/dev/rule', v(table), 'schedule'), { isDelete: true }), 200),
    // B's repository as A's remote, without B's credential: the Git host refuses A's pull.
    p('putRemote', [repo], (v) => ({ method: 'PUT', path: '/dev/v1/remote', body: { url: v(repo) } }), 200),
    p('pullRemoteV1', [], () => ({ ...post('/dev/v1/remote/pull'), branch: 'main' }), 200),
    // And its push: refused by the host, B's repository untouched.
    p('pushRemote', [], () => ({ ...post('/dev/v1/remote/push'), branch: 'main' }), 202),
    p('putRemote', [], () => ({ method: 'PUT', path: '/dev/v1/remote', body: { url: w.aRepoUrl } }), 200),
    p('deleteEntity', [set], (v) => ({ method: 'DELETE', path: ruleAt(v, set) }), 200),
    p('listEntities', [], () => ({ method: 'GET', path: '/dev/v1/rule', query: { pageSize: '100' } }), 200),
  ];
}

describe('hostile tenants: workspace isolation over every operation', () => {
  let pairs: Awaited<ReturnType<typeof pairRunner>>;
  beforeAll(async () => {
    // B warms what the functions keep (its compiled rule and workflow, its integration, its opened credential) just before A's
    // probes: a cache keyed without the workspace would hand them to A.
    const flows = workflowsClient(setupApi, {});
    expect((await flows.execute(bIds.flow, { params: { weightKg: 3 } })).body.data).toMatchObject({ status: 'succeeded' });
    expect((await setupApi(`${integrationsPath}/${w.integration}/test`, json('POST', { path: '/score' }))).status).toBe(200);
    expect((await setupApi(`${credentialsPath}/${w.creds.query}/test`, json('POST', { url: `${w.bProvider.origin}/warm` }))).status).toBe(200);
    // What B's run counted for its rule's coverage is written now, before B's state is read as the one to keep.
    await flushTallies();
    pairs = await pairRunner();
  });

  it('derives one probe generator from every route of the table, and each probe reaches its route', () => {
    const generators = probeArbitraries();
    expect(Object.entries(routes).filter(([name, route]) => name !== route.operationId)).toEqual([]);
    expect(Object.keys(generators).sort()).toEqual(routeList.map((route) => route.operationId).sort());
    const match = createRouter(routeList);
    const realValues = new Set([...foreignTokens().guessable, ...Object.values(bIds)]);
    for (const [operationId, arbitrary] of Object.entries(generators))
      for (const probe of [
        ...fc.sample(arbitrary, { numRuns: 20, seed: 7 }),
        ...ownUnderForeignIds()
          .map(([own]) => own)
          .filter((own) => own.operationId === operationId),
      ]) {
        const request = probe.render((slot) => slot.value, 'n0');
        const found = match(request.method, new URL(request.path, 'http://x').pathname);
        expect(found && 'route' in found ? found.route.operationId : found, `${request.method} ${request.path}`).toBe(operationId);
        // A ghost must be nobody's.
        for (const slot of probe.slots) expect(realValues.has(ghostOf(slot)), `${operationId}: the ghost of ${slot.value}`).toBe(false);
      }
  });

  it("runs A's own rules and workflow made under B's ids as A's, never B's", async () => {
    const started = Date.now();
    for (const [probe, status] of ownUnderForeignIds()) await pairs.run(probe, status);
    console.log(`own under foreign ids: ${pairs.summary()}\n  ${Date.now() - started} ms`);
    expect(pairs.failures.join('\n\n')).toBe('');
  }, 20_000);

  it("answers A's key the same for B's real ids as for ids nobody has, shows none of B, and changes nothing of B", async () => {
    const generators = probeArbitraries();
    const names = routeList.map((route) => route.operationId as RouteName);
    const started = Date.now();
    // Every route first (two samples each), then random probes until the count or the time runs out.
    const examples = names.flatMap((name) => fc.sample(generators[name], { numRuns: 2, seed: 3 }).map((probe): [Probe] => [probe]));
    await fc
      .assert(
        fc.asyncProperty(fc.oneof(...names.map((name) => generators[name])), async (probe) => Date.now() - started > limits.pairTimeMs || pairs.run(probe)),
        { numRuns: limits.pairs, examples, endOnFailure: true, interruptAfterTimeLimit: limits.pairTimeMs + 5_000, markInterruptAsFailure: false },
      )
      .catch((error: Error) => pairs.failures.push(`fast-check: ${error.message.split('\n').slice(0, 2).join(' ')}`));
    console.log(`isolation property: ${pairs.summary()}\n  ${sent.pairs} requests in all, the property ${Date.now() - started} ms`);
    expect(pairs.failures.slice(0, 5).join('\n\n')).toBe('');
    expect([...pairs.tried.keys()].sort()).toEqual([...names].sort());
    expect(stateChange(pairs.itemsBefore, await itemsOfB())).toBe('');
  }, 50_000);

  it("lets another workspace take B's names for its own credentials, integrations and rules: no name is taken across workspaces", async () => {
    const cApi = apiAs('checks', () => w.keys.c);
    const credential = await cApi(credentialsPath, json('POST', credentialBody(`B header ${mark}`, 'c-value-1234')));
    expect(credential.status, JSON.stringify(credential.body)).toBe(201);
    const integration = await cApi(integrationsPath, json('POST', integrationBody(`B integration ${mark}`.toUpperCase(), w.aProvider.origin)));
    expect(integration.status, JSON.stringify(integration.body)).toBe(201);
    const rule = await cApi('/dev/v1/rule', json('POST', { id: bIds.table, name: 'C rule', type: 'simpleRule', definition: { when: 'true', then: { c: 1 } } }));
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const listed = await cApi<{ name: string }[]>(credentialsPath, { query: { pageSize: 100 } });
    expect(listed.body.data.map((view) => view.name)).toEqual([`B header ${mark}`]);
  });
});

describe('revoked and expired keys', () => {
  it("refuses B's revoked and expired keys on every operation once the key cache's bound has passed, and changes nothing", async () => {
    const generators = probeArbitraries();
    await revokeApiKey(t.runtime.store, B, w.deadKeyIds.revoked);
    await expireApiKey(t.runtime.store, B, w.deadKeyIds.expired);
    const before = await itemsOfB();
    const outsideBefore = await outsideStateOfB();
    // The bound: a warm function sees a revocation or a new expiry within DIRECTORY_CACHE_TTL_MS.
    await new Promise((resolve) => setTimeout(resolve, keyCacheTtlMs + 100));
    const started = Date.now();
    const dead = [
      { key: w.keys.bRevoked, code: 'service_api_key_invalid' },
      { key: w.keys.bExpired, code: 'service_api_key_expired' },
    ];
    const { unconditional } = foreignTokens();
    // The public operations (the contract, who people sign in with) need no key: they are the ones that answer a dead key.
    const authenticated = routeList.filter((route) => route.permission !== 'public').map((route) => route.operationId as RouteName);
    expect((await call('deadKeys', '/openapi.json', { key: null })).status).toBe(200);

    const refused = async (probe: Probe, which: (typeof dead)[number]) => {
      const request = probe.render((slot) => slot.value, 'dead');
      const response = await send('deadKeys', request, which.key);
      expectFailure(response, 401, which.code, null);
      const text = answerText(response);
      expect(
        unconditional.filter((token) => token && text.includes(token)),
        `${request.method} ${request.path}`,
      ).toEqual([]);
    };
    for (const name of authenticated)
      for (const probe of fc.sample(generators[name], { numRuns: 1, seed: 5 })) for (const which of dead) await refused(probe, which);
    await fc.assert(
      fc.asyncProperty(fc.oneof(...authenticated.map((name) => generators[name])), fc.constantFrom(...dead), async (probe, which) => {
        if (Date.now() - started > limits.deadKeyTimeMs) return;
        await refused(probe, which);
      }),
      { numRuns: limits.deadKeyCalls, endOnFailure: true },
    );
    await idleQueue();
    expect(stateChange(before, await itemsOfB())).toBe('');
    expect(await outsideStateOfB()).toEqual(outsideBefore);
    // B's live key still works: the refusals were the keys', not the workspace's.
    expect((await call('checks', `/dev/v1/rule/${bIds.table}`, { key: w.keys.b })).status).toBe(200);
    console.log(`dead keys: ${sent.deadKeys} requests refused in ${Date.now() - started} ms (${authenticated.length} operations, 2 keys)`);
  }, 20_000);
});

/** Waits, at most `limits.queueIdleMs`, until no task (pull or workflow run) is queued or running. */
async function idleQueue() {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([t.runtime.queue.idle(), new Promise((resolve) => (timer = setTimeout(resolve, limits.queueIdleMs)))]);
  clearTimeout(timer);
}
