/**
 * Bad input, as a property over the whole route table: random and adversarial
 * requests to every operation of `routeList`, sent over real HTTP to the local
 * runtime. Path parameters are stored ids, ids of the stored form that nothing
 * has, and hostile segments; methods, query strings, headers and bodies are
 * random or picked to hurt (invalid JSON, deep nesting, huge strings, wrong
 * types, prototype names). A share of the bodies are near-valid: a body the
 * operation takes with one field broken, so that the request gets past the
 * schema's first checks into the deep validation behind them (execute's and
 * test's among them in both forms: one input, and a batch in paramsList).
 *
 * Whatever comes in: the answer is an envelope the contract documents (the
 * `api` helper checks it against lib/openapi/openapi.json; the raw requests
 * that fetch cannot make are checked for the envelope's shape here), no
 * answer is a 5xx, none takes longer than a few seconds or outgrows what a
 * Lambda function can answer, and a refused request leaves the table as it
 * was. What the properties found is pinned by the tests before them: bodies
 * that answered 500 (a lone surrogate, a "__proto__" key, a number DynamoDB
 * cannot keep) and one whose 400 listed 20,000 problems.
 *
 * A raw scan of the table costs about as much as a request, so it is not
 * made after each: the functions reach DynamoDB through a pass-through that
 * counts the writes it accepts, and a refused request during which nothing
 * was written changed nothing (what a request counted for coverage, which
 * functions write later, is written before its window ends). One during
 * which something was is compared with a scan at once; an accepted one is awaited to its end (queued tasks
 * included) and the table as it left it becomes the reference; and a scan
 * every few hundred requests checks the count itself. The writes a refusal
 * makes by design (a rule that records its executions records a failed run;
 * a failed execution counts for the rule's coverage) are let through by
 * name, and shown to be seen.
 *
 * Left out, as they are the local runtime's alone (lib/local/server.ts) and
 * reported: a request line with an absolute URL that does not parse answers
 * 502, and CONNECT gets no answer.
 *
 * Every loop is bounded in count and time; every server is on loopback, and no
 * body names any other host.
 */
import { connect } from 'node:net';
import { DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityIdPattern, entityTypes } from '../../lib/vocabulary/kinds.ts';
import { requestIdHeader } from '../../lib/http/envelope.ts';
import { routeList, routes } from '../../lib/api/routes.ts';
import type { Route } from '../../lib/http/route.ts';
import { createRouter } from '../../lib/local/router.ts';
import { clientConfig } from '../../lib/store/dynamo/client.ts';
import type { ApiResponse, RequestOptions } from '../helpers/api.ts';
import { envelopeFields } from '../helpers/envelope.ts';
import { startDynamoProxy } from '../helpers/dynamo-proxy.ts';
import { useRuntime } from '../helpers/runtime.ts';
import { flushTallies } from '../../lib/tallies/buffer.ts';

const t = useRuntime();

/** Bounds of the whole file: well under 60 s on two cores. */
const limits = {
  randomRuns: 3_000,
  randomTimeMs: 11_000,
  nearValidRuns: 2_500,
  nearValidTimeMs: 10_000,
  rawRuns: 800,
  rawTimeMs: 3_000,
  /** Any one answer: the slowest here (a test of a rule that spends the engine's whole budget) takes under a second, even on two busy cores. */
  answerMs: 15_000,
  /** Any one answer's bytes: what a Lambda function can answer at most (API Gateway gives a 502 past it). */
  answerBytes: 6 * 1024 * 1024,
  /** Requests between two scans of the table when the write log saw no write: a check on the log itself. */
  backstopEvery: 300,
  /** Accepted pulls each fetch from the Git server (about half a second): a few show that near-valid pulls get through. */
  acceptedPulls: 2,
  queueIdleMs: 20_000,
  /** How long the table must see no write before an accepted request's work counts as done. */
  quietMs: 40,
  /** A raw request that gets no complete answer in this time fails. */
  rawAnswerMs: 15_000,
} as const;

type RouteName = keyof typeof routes;
type PathName = 'entityType' | 'entityId' | 'stepId' | 'credentialId' | 'integrationId' | 'taskId';
type PathParams = Partial<Record<PathName, string>>;

const match = createRouter(routeList);
const prototypeNames = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

// ---------------------------------------------------------------------------------------------------------------------
// What is stored: the seed's ids, the setup's, and what the setup reads of them.

/** Params each target entity runs on. */
const paramsOf: Record<string, Record<string, unknown>> = {
  'fuzz-table': { age: 30 },
  'fuzz-simple': { code: 'AB12' },
  'fuzz-set': { items: [1, 20], customer: { age: 20 }, item: { category: 'books' } },
  'shipping-cost': { order: { destination: { zone: 'EU' }, weightKg: 2 } },
  'age-check': { customer: { age: 20 }, item: { category: 'books' } },
  'fraud-screening': { payment: { amount: 1200 }, card: { ageDays: 3, country: 'DE', paymentsLastHour: 1 }, ip: { country: 'FR' } },
  'loan-eligibility': { applicant: { age: 30, creditScore: 700 } },
  'loan-application': { applicant: { age: 30, creditScore: 700 } },
  'price-in-currency': { price: 10, currency: 'USD' },
};
/** Stored ids: the seed's, and rules the setup makes (published, one recording its executions). */
const stored = {
  rule: ['fuzz-table', 'fuzz-simple', 'fuzz-set', 'shipping-cost', 'age-check', 'fraud-screening', 'loan-eligibility'],
  workflow: ['loan-application', 'price-in-currency'],
  steps: { 'loan-application': ['eligibility', 'eligible', 'approved'], 'price-in-currency': ['rate', 'done'] } as Record<string, string[]>,
  credentialId: ['cred_demo_header', 'cred_demo_query'],
  integrationId: ['intg_demo_risk', 'intg_demo_fx'],
};

/** Learnt in the setup: each stored entity's checksum (kept current as accepted edits change it) and definition, a task, and what deletes take. */
const world = {
  entities: {} as Record<string, { checksum: string; type: string; definition: unknown }>,
  taskId: '',
  /** Deletes take these, made in the setup, so that the stored ids every other operation uses stay. */
  victims: { rule: 'fuzz-victim', workflow: 'fuzz-victim-flow', credentialId: '', integrationId: '' },
};

/** Ids of the stored form that nothing has. */
const absentIds = ['no-such-id', 'x', '0', 'A.b_c-9', 'z'.repeat(128)];

/**
 * Path segments as sent (percent-encoded where they are not raw on purpose):
 * traversal, encodings a decoder refuses or misreads, prototype names, ids
 * longer than any stored one, control and bidi characters, template syntax.
 */
const hostileSegments = [
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '%',
  '%25',
  '%ZZ',
  '%00',
  '%C0%AF',
  '%ED%A0%80',
  '%FF',
  '%2F',
  'a%2Fb',
  '..%2F..%2Fetc',
  ...prototypeNames.map(encodeURIComponent),
  'a'.repeat(129),
  'b'.repeat(3_000),
  encodeURIComponent('é'),
  encodeURIComponent('日本語'),
  encodeURIComponent('💥'),
  encodeURIComponent('\u202eevil'),
  encodeURIComponent('a b'),
  encodeURIComponent(' a'),
  encodeURIComponent('a\n'),
  encodeURIComponent('{entityId}'),
  encodeURIComponent('${x}'),
  encodeURIComponent("'; DROP TABLE x; --"),
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '_leading',
  'rules',
  'RULE',
  'Workflow',
];

// ---------------------------------------------------------------------------------------------------------------------
// The table: every write the functions make is counted on its way to DynamoDB; a raw scan shows what changed.

/** DynamoDB operations that change the table. */
const writeOperations = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/**
 * A pass-through to the embedded DynamoDB that counts the writes DynamoDB
 * accepted (a refused conditional write changes nothing). The setup makes it
 * the functions' endpoint before their first call (a process makes its store
 * on first use, lib/store/index.ts), so a request that wrote nothing needs no
 * scan to show that it changed nothing.
 */
async function startWriteLog(target: string) {
  let writes = 0;
  const proxy = await startDynamoProxy(target, { answered: ({ operation }, status) => void (writeOperations.has(operation) && status === 200 && writes++) });
  return { url: proxy.url, writes: () => writes, close: proxy.close };
}

/** A map from each item's key to its canonical text. */
type Snapshot = Map<string, string>;

/** JSON with object keys sorted, so that equal items give equal text. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );

let dynamo: DynamoDBClient;
let writeLog: Awaited<ReturnType<typeof startWriteLog>>;

/** The whole table, read past the write log. */
async function snapshot(): Promise<Snapshot> {
  const items: Snapshot = new Map();
  let start: Record<string, AttributeValue> | undefined;
  for (let page = 0; page < 1_000; page++) {
    const answer = await dynamo.send(new ScanCommand({ TableName: t.runtime.tableName, ExclusiveStartKey: start }));
    for (const item of answer.Items ?? []) items.set(`${item.PK?.S} ${item.SK?.S}`, canonical(item));
    start = answer.LastEvaluatedKey;
    if (!start) break;
  }
  return items;
}

/** The keys of the items that came, went or changed. */
function changedKeys(before: Snapshot, after: Snapshot): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).map((key) => `${before.has(key) ? (after.has(key) ? '~' : '-') : '+'} ${key}`);
}

/** The request as a failure message shows it. */
interface Sent {
  method: string;
  path: string;
  status: number;
  note: string;
  operationId?: string;
}
const describeSent = (sent: Sent) => `${sent.method} ${sent.path.slice(0, 200)} → ${sent.status}${sent.note ? ` (${sent.note})` : ''}`;

/**
 * The writes a refusal makes, by design: a rule that records its executions
 * records a failed run too (bad params, no answer), before the error is given
 * (lib/rules/execute.ts), an item of its own under the rule's executions;
 * every execution of a rule, failed ones too, counts for its version's
 * coverage, in the rule's tally items (lib/tallies/coverage-counts.ts); and a
 * publish its rule's replay gate refuses keeps the replay it ran, a completed
 * task (lib/replay/gate.ts); and a refusal (403) is recorded in the audit log,
 * its record and the chain's head (lib/http/endpoint.ts): the demo key is an
 * admin, refused only by an operation for people signed in, and an approval
 * (a key approves nothing where the access mapping does not say keyApprovals).
 */
const recordedFailure = (sent: Sent, change: string) =>
  (sent.status === 403 && /^[+~] AUDIT:/.test(change)) ||
  (sent.operationId === 'executeEntity' && /^(\+ EXEC:|[+~] USAGE:)/.test(change)) ||
  (sent.operationId === 'publishEntity' && sent.status === 409 && change.startsWith('+ TASK:'));

/**
 * Writes no request makes on its path, by design, which land while any request runs: a rollout's counts,
 * which each function adds to the table at most every 10 s (a timer's flush once it goes quiet: lib/tallies),
 * and the disagreements a rollout samples once an execution has answered (lib/rollout).
 */
const offPathWrite = (change: string) => /^[+~] (USAGE:\S+ rollout:|ROLLOUT:)/.test(change);

/**
 * The table as it was after the last accepted write, and the refused requests
 * since. A refused request during which DynamoDB accepted a write is compared
 * at once, and a change then is that request's: the property fails on it.
 * Every `backstopEvery` requests, and after each property, the table is
 * compared anyway; a change found only then belongs to no one request (on a
 * loaded machine, the late work of an accepted one can land there), so it is
 * reported, with the requests since, and not held against them.
 */
const watch = {
  reference: new Map() as Snapshot,
  /** The log's count when the reference was read. */
  referenceWrites: 0,
  since: [] as Sent[],
  scans: 0,
  /** Writes of failed runs by design (`recordedFailure`): their records and coverage counts. */
  recordedFailures: 0,
  /** Counts and samples written off any request's path (`offPathWrite`). */
  offPathWrites: 0,
  /** Refused requests after which the table was not as before, with what changed; `attributed` when one request's own window held the write. */
  changes: [] as { requests: string[]; changed: string[]; attributed: boolean }[],

  async compare(suspects: Sent[], attributed = false) {
    const now = await snapshot();
    this.scans++;
    const onPath = changedKeys(this.reference, now).filter((change) => !offPathWrite(change));
    this.offPathWrites += changedKeys(this.reference, now).length - onPath.length;
    const changed = onPath.filter((change) => !suspects.some((sent) => recordedFailure(sent, change)));
    this.recordedFailures += onPath.length - changed.length;
    if (changed.length) this.changes.push({ requests: suspects.map(describeSent), changed, attributed });
    this.reference = now;
    this.referenceWrites = writeLog.writes();
    this.since = [];
  },

  /** After an accepted request that may have written: its queued work done, the table as it left it is the new reference. */
  async settle() {
    await Promise.race([
      Promise.all([t.runtime.queue.idle(), t.runtime.scheduler.local.idle()]),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`the queue was still busy after ${limits.queueIdleMs} ms`)), limits.queueIdleMs).unref()),
    ]);
    // Writes the request's work makes after its answer (under load, a few ms late) belong to it, not to the next request: wait for a quiet table.
    const deadline = Date.now() + limits.queueIdleMs;
    for (let seen = -1; seen !== writeLog.writes() && Date.now() < deadline;) {
      seen = writeLog.writes();
      await new Promise((resolve) => setTimeout(resolve, limits.quietMs));
    }
    if (writeLog.writes() === this.referenceWrites) return;
    this.reference = await snapshot();
    this.scans++;
    this.referenceWrites = writeLog.writes();
    this.since = [];
  },
};

// ---------------------------------------------------------------------------------------------------------------------
// Sending, counting and checking one request.

const tally = { requests: 0, accepted: 0, refused: 0, pulls: 0, operations: new Set<string>(), reachedWithStoredIds: new Set<string>() };

/** The operation a path and method reach, as the gateway routes them, and whether its path ids have the stored form. */
function reached(method: string, path: string) {
  let pathname: string;
  try {
    pathname = new URL(path, 'http://localhost').pathname;
  } catch {
    return { route: undefined, storedForm: false };
  }
  const found = match(method, pathname);
  if (!found || !('route' in found)) return { route: undefined, storedForm: false };
  const storedForm = Object.entries(found.pathParameters).every(([name, value]) =>
    name === 'entityType' ? (entityTypes as readonly string[]).includes(value) : entityIdPattern.test(value),
  );
  return { route: found.route, storedForm, params: found.pathParameters };
}

/** An answer as the checks read it: status, headers by lower-case name, the body parsed (none for HEAD) and its size. */
interface Answer {
  status: number;
  envelope?: Record<string, unknown>;
  headers: Record<string, string | undefined>;
  bytes: number;
}

/** The checks every answer gets, and the table's: throws on a 5xx, a malformed envelope, or an accepted write at an id no stored item can have. */
/**
 * The requests being answered now, each with whether another was answered beside it: a run the property's time
 * limit interrupted goes on while the next one's request is sent, and a write in such a window may be the other's.
 */
const answering = new Set<{ overlapped: boolean }>();

async function exchange(method: string, path: string, note: string, send: () => Promise<Answer>) {
  const window = { overlapped: answering.size > 0 };
  for (const other of answering) other.overlapped = true;
  answering.add(window);
  try {
    return await exchanged(method, path, note, send, window);
  } finally {
    answering.delete(window);
  }
}

async function exchanged(method: string, path: string, note: string, send: () => Promise<Answer>, window: { overlapped: boolean }) {
  const target = reached(method, path);
  tally.requests++;
  if (target.route) tally.operations.add(target.route.operationId);
  if (target.route && target.storedForm) tally.reachedWithStoredIds.add(target.route.operationId);
  const writesBefore = writeLog.writes();
  const started = Date.now();
  const answer = await send();
  // What the request counted for coverage is written now, in its own window, not during a later request's.
  await flushTallies();
  const sent = { method, path, status: answer.status, note, operationId: target.route?.operationId };
  if (answer.status >= 500) throw new Error(`a ${answer.status}: ${describeSent(sent)} answered ${JSON.stringify(answer.envelope)?.slice(0, 500)}`);
  if (Date.now() - started > limits.answerMs) throw new Error(`an answer after ${Date.now() - started} ms: ${describeSent(sent)}`);
  if (answer.bytes > limits.answerBytes) throw new Error(`an answer of ${answer.bytes} bytes: ${describeSent(sent)}`);
  // The document is the one answer that is not an envelope; the contract holds it to its own schema.
  if (!(target.route?.operationId === 'getOpenApi' && answer.status === 200)) expectEnvelopeShape(answer, method, sent);
  if (answer.status < 400) {
    tally.accepted++;
    if (target.route?.tableAccess === 'readWrite' && !target.storedForm)
      throw new Error(`a write at an id no stored item can have was accepted: ${describeSent(sent)}`);
    if (target.route?.tableAccess === 'readWrite' && target.route.operationId.startsWith('pull')) tally.pulls++;
    // An accepted edit changes the draft's checksum: the next near-valid edit sends the new one, so that it can get through too.
    const checksum = (answer.envelope?.data as { checksum?: unknown } | null | undefined)?.checksum;
    const edited = target.route?.operationId === 'updateEntity' ? world.entities[target.params?.entityId ?? ''] : undefined;
    if (edited && typeof checksum === 'string') edited.checksum = checksum;
    await watch.settle();
    return answer;
  }
  tally.refused++;
  watch.since.push(sent);
  // A write in its own window is this request's, unless another request was answered beside it.
  if (writeLog.writes() > writesBefore) await watch.compare([sent], !window.overlapped);
  else if (watch.since.length >= limits.backstopEvery) await watch.compare(watch.since);
  return answer;
}

const isExport = (answer: { status: number; headers: Record<string, string | undefined> }) =>
  answer.status === 200 && /^application\/x-ndjson\b/.test(answer.headers['content-type'] ?? '');

/** The envelope every answer has; a HEAD answer has only the headers. */
function expectEnvelopeShape(answer: Answer, method: string, sent: Sent) {
  const problem = (what: string) => new Error(`${what}: ${describeSent(sent)} answered ${JSON.stringify(answer.envelope)?.slice(0, 300)}`);
  if (!/^\S{8,}$/.test(answer.headers[requestIdHeader] ?? '')) throw problem('no request id');
  // The one answer that is a file, not the envelope: the audit log's export, on success (test/helpers/api.ts holds it to its schema).
  if (isExport(answer)) return;
  if (!/^application\/json\b/.test(answer.headers['content-type'] ?? '')) throw problem(`content type ${answer.headers['content-type']}`);
  if (method === 'HEAD') return;
  const body = answer.envelope;
  if (!body || Object.keys(body).sort().join() !== [...envelopeFields].sort().join()) throw problem('not the seven envelope fields');
  if (typeof body.code !== 'string' || typeof body.message !== 'string') throw problem('code and message must be strings');
  for (const field of ['pageNo', 'pageSize', 'totalCount', 'totalPages']) if (!Number.isInteger(body[field])) throw problem(`${field} is not an integer`);
  if (answer.status >= 400 && (body.code === '' || !/\S/.test(body.message as string))) throw problem('a failure without a code and a message');
  if (answer.status < 400 && (body.code !== '' || body.message !== '')) throw problem('a success with a code or a message');
}

/** A request the `api` helper can make: its answer is held to the contract there. */
interface Probe {
  method: string;
  /** Percent-encoded, with the query. */
  path: string;
  key: string | null;
  branch?: string;
  headers: [string, string][];
  body?: string;
  note: string;
}

/** Header pairs as a record, prototype names included as own names. */
function headerRecord(pairs: [string, string][]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of pairs) Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  return record;
}

async function sendProbe(probe: Probe) {
  const options: RequestOptions = {
    method: probe.method,
    key: probe.key,
    headers: headerRecord(probe.headers),
    ...(probe.branch !== undefined && { branch: probe.branch }),
    ...(probe.body !== undefined && { body: probe.body }),
  };
  return exchange(probe.method, probe.path, probe.note, async () => {
    const response: ApiResponse = await t.api(probe.path, options);
    const envelope = response.body as unknown as Record<string, unknown>;
    return { status: response.status, envelope, headers: Object.fromEntries(response.headers), bytes: Buffer.byteLength(JSON.stringify(envelope)) };
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Generators, driven by the route table.

const pathNames = (route: Route) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as PathName);
const queryNames = (route: Route) => Object.keys((route.query._zod.def as { shape?: Record<string, unknown> }).shape ?? {});

/** Stored ids for every path parameter, consistent with each other (a step of the workflow, an entity of a type the operation serves); a delete's are the victims'. */
const storedParams = (route: Route): fc.Arbitrary<PathParams> => {
  const destroys = route.method === 'DELETE';
  return fc.constantFrom(...(route.entityTypes ?? entityTypes)).chain((entityType) =>
    fc.constantFrom(...(destroys ? [world.victims[entityType]] : stored[entityType])).chain((entityId) =>
      fc.record({
        entityType: fc.constant(entityType),
        entityId: fc.constant(entityId),
        stepId: fc.constantFrom(...(stored.steps[entityId] ?? ['eligibility'])),
        credentialId: fc.constantFrom(...(destroys ? [world.victims.credentialId] : stored.credentialId)),
        integrationId: fc.constantFrom(...(destroys ? [world.victims.integrationId] : stored.integrationId)),
      }),
    ),
  );
};

/** Path parameters: stored ids, sometimes with one or two replaced by an absent id or a hostile segment (raw, as sent). */
const pathParams = (route: Route): fc.Arbitrary<{ values: PathParams; raw: Partial<Record<PathName, string>> }> => {
  const names = pathNames(route);
  const spoil = names.length
    ? fc.array(fc.tuple(fc.constantFrom(...names), fc.oneof(fc.constantFrom(...absentIds), fc.constantFrom(...hostileSegments))), { maxLength: 2 })
    : fc.constant([] as [PathName, string][]);
  return fc
    .tuple(storedParams(route), fc.oneof({ weight: 3, arbitrary: fc.constant([] as [PathName, string][]) }, { weight: 2, arbitrary: spoil }))
    .map(([values, spoiled]) => {
      const raw: Partial<Record<PathName, string>> = {};
      for (const name of names) raw[name] = encodeURIComponent(name === 'taskId' ? world.taskId : values[name]!);
      for (const [name, segment] of spoiled) raw[name] = segment;
      return { values, raw };
    });
};

const fillPath = (route: Route, raw: Partial<Record<PathName, string>>) => route.path.replace(/\{(\w+)\}/g, (_, name: PathName) => raw[name] ?? '');

/** Values a query parameter might plausibly hold, of every operation. */
const plausibleQueryValues = [
  '1',
  '2',
  '10',
  '100',
  '1000000',
  'rule',
  'ship',
  'decisionTable',
  'simpleRule',
  'ruleSet',
  'draft',
  'published',
  'name',
  'updatedAt',
  'asc',
  'desc',
  'v1',
  'v2',
];
/** Query values as sent: numbers a parser misreads, encodings a decoder refuses, prototype names, a long value. */
const hostileQueryValues = [
  '',
  '-1',
  '0',
  '1.5',
  '1e3',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '%201',
  '1%20',
  '%2B1',
  '9'.repeat(400),
  'v0',
  'v01',
  'v1%00',
  '%',
  '%ZZ',
  '%00',
  '%C0%AF',
  '%ED%A0%80',
  'a'.repeat(2_000),
  ...prototypeNames,
];

const queryString = (route: Route): fc.Arbitrary<string> => {
  const known = queryNames(route);
  const name = fc.oneof(
    ...(known.length ? [{ weight: 4, arbitrary: fc.constantFrom(...known) }] : []),
    { weight: 1, arbitrary: fc.constantFrom(...prototypeNames, '', '%', '%00', 'a[b]', 'pageSize[]', 'PAGESIZE', 'page size') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent) },
  );
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...plausibleQueryValues) },
    { weight: 2, arbitrary: fc.constantFrom(...hostileQueryValues) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.integer().map(String) },
  );
  return fc.array(fc.tuple(name, value), { maxLength: 4 }).map((pairs) => pairs.map(([n, v]) => `${n}=${v}`).join('&'));
};

/**
 * Header values fetch can carry (visible Latin-1): odd forms of a key, prototype names, one long value. Long parts
 * stay within 16 KiB of request line and headers in all, Node's limit, whose 431 the contract does not document
 * (reported; the raw requests below go past it).
 */
const headerValue = fc.oneof(
  fc.constantFrom('', '1', 'null', 'application/json', 'text/plain', 'gzip', 'DELETE', 'Bearer x', '*', ...prototypeNames, 'x'.repeat(3_000), 'ÿþ Latin-1 ©'),
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 30 }),
);
const extraHeaders = fc.array(
  fc.tuple(
    fc.constantFrom(
      ...prototypeNames,
      'Content-Type',
      'content-encoding',
      'Content-Language',
      'X-HTTP-Method-Override',
      'X-Forwarded-For',
      'X-Amzn-Trace-Id',
      'Accept',
      'Authorization',
      'Cookie',
      'x-request-id',
      'Service-Workspace',
      'service-api-keys',
    ),
    headerValue,
  ),
  { maxLength: 2 },
);

/** The key: the workspace's (as itself, or under an odd casing of its header), none, or a wrong one. */
const keyChoice = fc.oneof(
  { weight: 10, arbitrary: fc.constant({ key: 'valid' as const }) },
  { weight: 1, arbitrary: fc.constantFrom('SERVICE-API-KEY', 'service-api-key', 'sErViCe-ApI-kEy').map((header) => ({ key: 'valid' as const, header })) },
  { weight: 2, arbitrary: fc.constantFrom(null, '', ' ', 'demo-key-x', 'wrong', 'k'.repeat(2_000), ...prototypeNames).map((key) => ({ key })) },
);

const branchChoice = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom('main', 'staging') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      'no..pe',
      'nope',
      'Main',
      '-main',
      'main.lock',
      'refs/heads/main',
      'HEAD',
      '@{1}',
      'a'.repeat(300),
      'main/',
      ...prototypeNames,
    ),
  },
);

function keyAndHeaders(
  choice: { key: string | null | 'valid'; header?: string },
  extra: [string, string][],
): { key: string | null; headers: [string, string][] } {
  if (choice.key !== 'valid') return { key: choice.key, headers: extra };
  if (choice.header) return { key: null, headers: [[choice.header, t.runtime.apiKey], ...extra] };
  return { key: t.runtime.apiKey, headers: extra };
}

// Bodies.

/** Values of another JSON type than a field has, and the edges of each type. */
const wrongTypeValues: unknown[] = [null, 0, -1, 1.5, 1e308, -0, true, false, '', 'x', [], {}, [null], { '': null }, [[[]]]];
/**
 * Strings that hurt: long, control and bidi characters, a lone surrogate,
 * prototype names, injection forms, and FEEL text the engine must bound
 * (nesting, a huge literal, a pattern that backtracks). No URL names a host
 * other than loopback (a port nothing listens on).
 */
const hostileStrings: string[] = [
  '',
  ' ',
  ' padded ',
  'a'.repeat(10_000),
  'b'.repeat(300_000),
  '\u0000',
  '\u202eevil',
  '\ud800',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  ...prototypeNames,
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '%s%n%x',
  '\r\nX-Injected: 1',
  'v0',
  'NaN',
  '1e309',
  'http://127.0.0.1:1/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  `${'('.repeat(10_000)}1${')'.repeat(10_000)}`,
  `${'('.repeat(65)}1${')'.repeat(65)}`,
  '9'.repeat(3_999),
  `"${'a'.repeat(3_990)}"`,
  `${'- '.repeat(1_990)}1`,
  '? '.repeat(1_995),
  'matches("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", "(a+)+$")',
  'matches("aa", "(a)\\\\1")',
  'some i in 1..100000, j in 1..100000 satisfies false',
  `string length({t0: "ab", ${Array.from({ length: 40 }, (_, i) => `t${i + 1}: t${i} + t${i}`).join(', ')}}.t40) > 0`,
];

/** A JSON path into a template: its keys and indexes from the root. */
type JsonPath = (string | number)[];

function pathsOf(value: unknown, at: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...at, i], out));
  else if (value && typeof value === 'object') for (const key of Object.keys(value)) pathsOf((value as Record<string, unknown>)[key], [...at, key], out);
  return out;
}

type Mutation =
  { kind: 'remove' } | { kind: 'replace'; value: unknown } | { kind: 'add'; name: string; value: unknown } | { kind: 'nest'; depth: number } | { kind: 'many' };

/** A map and a list of 20,000 faulty entries each (names no header can have, values no field takes), for whichever the field is: a failure must not list them all. */
const manyFaults = {
  map: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`bad name ${i}`, '\u0000'])),
  list: Array.from({ length: 20_000 }, () => ({ when: ['?', '?'], then: [] })),
};

const nestedValue = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

/** Sets a key as an own property, "__proto__" included. */
const define = (target: object, key: string | number, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/** The template with one change at `at`: the body of a near-valid request. */
function mutated(template: unknown, at: JsonPath, mutation: Mutation): unknown {
  const body = structuredClone(template);
  const replacement = (current: unknown) => {
    switch (mutation.kind) {
      case 'replace':
        return mutation.value;
      case 'nest':
        return nestedValue(mutation.depth);
      case 'many':
        return Array.isArray(current) ? manyFaults.list : manyFaults.map;
      case 'add':
        if (current && typeof current === 'object' && !Array.isArray(current)) {
          define(current, mutation.name, mutation.value);
          return current;
        }
        return [current, mutation.value];
      default:
        return undefined;
    }
  };
  if (at.length === 0) return mutation.kind === 'remove' ? {} : replacement(body);
  let parent = body as Record<string | number, unknown>;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = at[at.length - 1]!;
  if (mutation.kind === 'remove') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else define(parent, last, replacement(parent[last]));
  return body;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'remove' as const }) },
  { weight: 3, arbitrary: fc.constantFrom(...wrongTypeValues).map((value) => ({ kind: 'replace' as const, value })) },
  { weight: 4, arbitrary: fc.constantFrom(...hostileStrings).map((value) => ({ kind: 'replace' as const, value })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...prototypeNames, 'unknownField', '', ' ', 'id'), fc.constantFrom<unknown>(1, { polluted: true }, null, 'x'))
      .map(([name, value]) => ({ kind: 'add' as const, name, value })),
  },
  { weight: 1, arbitrary: fc.constantFrom(31, 32, 33, 63, 64, 65, 1_000).map((depth) => ({ kind: 'nest' as const, depth })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'many' as const }) },
);

/** A workflow that runs a stored rule, for creates. */
const workflowBody = (id: string) => ({
  id,
  name: 'Fuzz flow',
  type: 'workflow',
  definition: {
    inputs: [
      { name: 'customer', type: 'context' },
      { name: 'item', type: 'context' },
    ],
    start: 'check',
    steps: [
      { id: 'check', kind: 'rule', ruleId: 'age-check', inputs: { customer: 'customer', item: 'item' }, next: 'route' },
      { id: 'route', kind: 'branch', cases: [{ when: 'check.blocked', next: 'done' }], otherwise: 'done' },
      { id: 'done', kind: 'end', output: { blocked: 'check.blocked' } },
    ],
  },
});

/** A decision table with declared params, a saved test and its runs recorded. */
const tableBody = (id: string) => ({
  id,
  name: `Fuzz table ${id}`,
  type: 'decisionTable',
  definition: {
    hitPolicy: 'unique',
    parameters: [{ name: 'age', type: 'number' }],
    inputs: [{ id: 'age', expression: 'age', type: 'number' }],
    outputs: [{ id: 'band', name: 'band', type: 'string', allowedValues: ['minor', 'adult'] }],
    rules: [
      { id: 'minor', when: ['< 18'], then: ['"minor"'] },
      { id: 'adult', when: ['>= 18'], then: ['"adult"'] },
    ],
    tests: [{ name: 'adult', params: { age: 30 }, expected: { band: 'adult' } }],
    settings: { recordExecutions: true },
  },
});
/** A simple rule that runs a pattern. */
const simpleBody = (id: string) => ({
  id,
  name: `Fuzz simple ${id}`,
  type: 'simpleRule',
  description: 'made by the fuzz',
  tags: ['fuzz'],
  definition: { when: 'matches(code, "^[A-Z]{2}[0-9]+$")', then: { ok: true }, otherwise: { ok: false } },
});
/** A rule set that iterates and refers to a published rule. */
const setBody = (id: string) => ({
  id,
  name: `Fuzz set ${id}`,
  type: 'ruleSet',
  definition: {
    strategy: 'allMatch',
    rules: [
      { id: 'big', priority: 1, when: 'sum(for x in items return x) > 10', then: [{ set: 'size.big', value: true }] },
      { id: 'ref', ruleId: 'age-check', version: 'v1' },
    ],
  },
});

/** A batch (paramsList) for the entity of `p`: its params, and two more inputs that a mutation can break apart. */
const batchOf = (p: PathParams) => [paramsOf[p.entityId!] ?? {}, {}, { ...paramsOf[p.entityId!] }];

/** A schedule that cannot fire while the file runs: its first run is on a 29 February in the 2190s. */
const scheduleBodies = (entityId: string) => [
  {
    unit: 'month',
    spec: { month: '2', dayOfMonth: '29' },
    startAt: '2190-01-01T00:00:00Z',
    timezone: 'Europe/Berlin',
    isEnabled: true,
    inputParam: paramsOf[entityId] ?? {},
  },
  { isDelete: true },
];

/**
 * Bodies each operation takes, for the stored ids of `p`: what the near-valid
 * requests break one field of. Every operation with a body has its entry (a
 * route added to the table without one does not typecheck). Creates use fixed
 * ids and names, so that once one is accepted, the same request is answered
 * without a write, or refused as a duplicate.
 */
const bodyTemplates: { [N in RouteName as (typeof routes)[N] extends { body: unknown } ? N : never]: (p: PathParams) => unknown[] } = {
  createEntity: (p) => (p.entityType === 'workflow' ? [workflowBody('fuzz-flow')] : [tableBody('fuzz-rule'), simpleBody('fuzz-rule'), setBody('fuzz-rule')]),
  updateEntity: (p) => {
    const entity = world.entities[p.entityId!];
    return [{ checksum: entity?.checksum ?? 'unknown', description: 'Fuzzed edit', tags: ['fuzz'], ...(entity && { definition: entity.definition }) }];
  },
  publishEntity: (p) => [{}, { checksum: world.entities[p.entityId!]?.checksum ?? 'unknown' }, { acknowledgeReplay: world.taskId }],
  testEntity: (p) => [
    { params: paramsOf[p.entityId!] ?? {} },
    { params: paramsOf[p.entityId!] ?? {}, version: 'v1', checksum: world.entities[p.entityId!]?.checksum ?? 'x' },
    { paramsList: batchOf(p) },
    { paramsList: batchOf(p), version: 'v1' },
  ],
  executeEntity: (p) => [
    { params: paramsOf[p.entityId!] ?? {} },
    { params: paramsOf[p.entityId!] ?? {}, version: 'v1', ...(p.entityType === 'workflow' && { async: true }) },
    { paramsList: batchOf(p) },
    { paramsList: batchOf(p), version: 'v1' },
  ],
  replayRule: (p) => [
    { candidate: 'draft', source: { paramsList: [paramsOf[p.entityId!] ?? {}, {}] } },
    { candidate: 'v1', baseline: 'v1', source: { executions: { limit: 50 } } },
    { candidate: 'draft', source: { executions: { from: new Date(Date.now() - 3600_000).toISOString(), to: new Date().toISOString() } } },
  ],
  testWorkflowStep: (p) => [{ context: paramsOf[p.entityId!] ?? {} }, { context: { ...paramsOf[p.entityId!], check: { blocked: false } }, version: 'v1' }],
  saveSchedule: (p) => scheduleBodies(p.entityId!),
  startRollout: () => [
    { candidate: 'v2', mode: 'shadow' },
    { candidate: 'v2', mode: 'canary', percent: 10, stickyBy: 'customer.age' },
  ],
  promoteCandidate: () => [{ candidate: 'v2' }],
  protectBranch: () => [{ requiredApprovals: 1 }],
  proposeChange: (p) => [{ checksum: world.entities[p.entityId!]?.checksum ?? 'unknown', description: 'Fuzzed proposal' }],
  approveChange: () => [{ comment: 'fuzz' }, {}],
  rejectChange: () => [{ comment: 'fuzz' }],
  saveScheduleLegacy: (p) => scheduleBodies(p.entityId!),
  createCredential: () => [
    {
      name: 'Fuzz credential',
      type: 'apiKey',
      key: 'X-Fuzz-Key',
      value: 'fuzz-secret-value',
      placement: 'header',
      description: 'made by the fuzz',
      allowedHosts: [new URL(t.runtime.providerUrl).host],
    },
  ],
  updateCredential: () => [{ description: 'Fuzzed description' }],
  testCredential: () => [{ url: `${t.runtime.providerUrl}/v1/risk-score`, method: 'POST', headers: { 'X-Fuzz': '1' }, body: { amount: 10 } }],
  createIntegration: () => [
    {
      name: 'Fuzz integration',
      type: 'restApi',
      baseUrl: `${t.runtime.providerUrl}/v1`,
      headers: { 'X-Fuzz': '1' },
      credentialId: 'cred_demo_query',
      timeoutMs: 2_000,
      description: 'made by the fuzz',
    },
  ],
  updateIntegration: () => [{ description: 'Fuzzed description', timeoutMs: 3_000 }],
  testIntegration: () => [{ method: 'GET', path: '/v1/fx-rate', query: { from: 'EUR', to: 'USD' }, headers: { 'X-Fuzz': '1' } }],
  pullRemote: () => [{}],
  pullRemoteV1: () => [{}],
  pushRemote: () => [{}],
  putRemote: () => [{ url: `${t.runtime.gitUrl}/demo.git` }],
  createKey: () => [{ label: 'Fuzz key', owner: 'fuzz', role: 'reader', expiresAt: '2099-01-01T00:00:00Z' }],
  updateKey: () => [{ label: 'Fuzzed label' }],
  createPersonalKey: () => [{ label: 'Fuzz personal', role: 'reader', branches: ['main'] }],
  putAccess: () => [{ groups: [{ group: 'fuzz-group', role: 'reader', branches: ['main'] }], people: [{ email: 'fuzz@example.com', role: 'editor' }] }],
};

const templatesOf = (route: Route, p: PathParams): unknown[] =>
  (bodyTemplates as Record<string, ((p: PathParams) => unknown[]) | undefined>)[route.operationId]?.(p) ?? [];

/** Text that is not one JSON value, or is one only to a lenient parser. */
const invalidJson = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":}',
    "{'a':1}",
    '[1,]',
    '{"a":1}}',
    'nul',
    'NaN',
    '\uFEFF{}',
    '{"a":1} x',
    '/* c */ {}',
    '{"a":"\\x41"}',
    '\u0000',
    '{"a" 1}',
    '"',
    '[',
    '{"a":1,}',
    '01',
    '.5',
    '+1',
    '1e',
    '{"__proto__":}',
  ),
  fc.string({ maxLength: 40 }),
);

/** Bodies that nest deep, are huge, or carry prototype names and duplicate keys. */
const hostileBody = fc.oneof(
  fc
    .constantFrom(63, 64, 65, 1_000, 100_000)
    .chain((depth) => fc.constantFrom(`${'['.repeat(depth)}${']'.repeat(depth)}`, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)),
  fc.constantFrom(70_000, 1_000_000).map((size) => JSON.stringify({ id: 'x'.repeat(size), name: 'y'.repeat(size) })),
  fc.constantFrom(
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"id":"a","id":"b"}',
    '{"params":{"__proto__":{"x":1}}}',
    '{"context":{"constructor":null}}',
    '[]',
    'null',
    'true',
    '0',
    '"text"',
    '{}',
  ),
);

const bodyFor = (route: Route, p: PathParams): fc.Arbitrary<string | undefined> => {
  const templates = templatesOf(route, p);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: invalidJson },
    { weight: 2, arbitrary: hostileBody },
    ...(templates.length ? [{ weight: 3, arbitrary: nearValidBody(templates) }] : []),
  );
};

/** One of `templates` with one field broken, as sent. */
const nearValidBody = (templates: unknown[]): fc.Arbitrary<string> =>
  fc.constantFrom(...templates).chain((template) => {
    const paths = pathsOf(template);
    return fc.tuple(fc.constantFrom(...paths), mutation).map(([at, change]) => JSON.stringify(mutated(template, at, change)));
  });

const otherMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Any operation, with random and adversarial parts everywhere. */
const randomProbe: fc.Arbitrary<Probe> = fc
  .constantFrom(...routeList)
  .chain((route) => fc.tuple(fc.constant(route), pathParams(route)))
  .chain(([route, { values, raw }]) =>
    fc
      .record({
        method: fc.oneof({ weight: 5, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...otherMethods) }),
        query: queryString(route),
        key: keyChoice,
        branch: branchChoice,
        extra: extraHeaders,
        body: bodyFor(route, values),
      })
      .map(({ method, query, key, branch, extra, body }): Probe => ({
        method,
        path: `${fillPath(route, raw)}${query ? `?${query}` : ''}`,
        ...keyAndHeaders(key, extra),
        ...(branch !== undefined && { branch }),
        ...(body !== undefined && method !== 'GET' && { body }),
        note: route.operationId,
      })),
  );

/** An operation that takes a body, at stored ids, with the workspace's key, its own query names and a body that is valid but for one field. */
const nearValidProbe: fc.Arbitrary<Probe> = fc
  .constantFrom(...routeList.filter((route) => route.body))
  .chain((route) => fc.tuple(fc.constant(route), storedParams(route)))
  .chain(([route, values]) =>
    fc.record({ body: nearValidBody(templatesOf(route, values)), branch: fc.constantFrom(undefined, 'main', 'staging') }).map(({ body, branch }): Probe => {
      const raw: Partial<Record<PathName, string>> = {};
      for (const name of pathNames(route)) raw[name] = encodeURIComponent(name === 'taskId' ? world.taskId : values[name]!);
      return {
        method: route.method,
        path: fillPath(route, raw),
        key: t.runtime.apiKey,
        headers: [['Content-Type', 'application/json']],
        ...((branch !== undefined || route.branch === 'required') && { branch: branch ?? 'staging' }),
        body,
        note: `${route.operationId}, near-valid`,
      };
    }),
  );

/** Whether the probe is a pull that would be accepted once the pulls this file allows are done (each fetches from Git). */
const surplusPull = (probe: Probe) => {
  const route = reached(probe.method, probe.path).route;
  return !!route && route.operationId.startsWith('pull') && tally.pulls >= limits.acceptedPulls && (probe.branch === 'main' || probe.branch === 'staging');
};

// ---------------------------------------------------------------------------------------------------------------------
// Raw requests: what fetch cannot send (duplicated and oddly cased headers, non-ASCII bytes, oversized headers, HEAD,
// request lines a parser may refuse), over a socket, with the envelope's shape checked here.

/** Sends `head` (the request line and headers, without the blank line) and `body`, and reads the one answer. */
function sendRaw(head: Buffer, body: Buffer, method: string): Promise<Answer> {
  const port = Number(new URL(t.runtime.url).port);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.concat([head, Buffer.from('\r\n\r\n'), body])));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer in ${limits.rawAnswerMs} ms to ${head.toString('latin1').slice(0, 200)}`));
    }, limits.rawAnswerMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      let text = Buffer.concat(chunks);
      // An interim answer (100 Continue to an Expect header) comes before the one answer.
      while (/^HTTP\/1\.[01] 1\d\d /.test(text.subarray(0, 16).toString('latin1'))) text = text.subarray(text.indexOf('\r\n\r\n') + 4);
      const end = text.indexOf('\r\n\r\n');
      const lines = text
        .subarray(0, end < 0 ? text.length : end)
        .toString('latin1')
        .split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3}) /.exec(lines[0] ?? '')?.[1]);
      if (!status) return reject(new Error(`no answer to ${head.toString('latin1').slice(0, 200)}`));
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rest = text.subarray(end + 4);
      let envelope: Record<string, unknown> | undefined;
      if (method !== 'HEAD' && !isExport({ status, headers })) {
        try {
          envelope = JSON.parse(rest.subarray(0, Number(headers['content-length'] ?? rest.length)).toString('utf8')) as Record<string, unknown>;
        } catch {
          return reject(new Error(`a body that is not JSON (${status}) to ${head.toString('latin1').slice(0, 200)}: ${rest.toString('latin1').slice(0, 200)}`));
        }
      }
      resolve({ status, headers, envelope, bytes: rest.length });
    });
  });
}

interface RawProbe {
  method: string;
  target: string;
  headers: [string, string][];
  body: string;
  note: string;
}

const rawMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'get', 'G ET', 'GET\u00e9'];
const rawProbe: fc.Arbitrary<RawProbe> = fc
  .constantFrom(...routeList)
  .chain((route) => fc.tuple(fc.constant(route), pathParams(route)))
  .chain(([route, { values, raw }]) =>
    fc
      .record({
        method: fc.oneof({ weight: 4, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...rawMethods) }),
        target: fc.oneof(
          { weight: 5, arbitrary: fc.constant(fillPath(route, raw)) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              '*',
              '//dev/v1/rule',
              '/dev/v1/rule/../../openapi.json',
              '/dev/v1/rul\u00e9',
              '/dev/v1/rule?a=\u00e9',
              '/dev/v1/rule#frag',
              '/dev/v1/rule/%2e%2e/credentials',
            ),
          },
        ),
        keyHeaders: fc.oneof(
          fc.constant<[string, string][]>([['Service-API-Key', t.runtime.apiKey]]),
          fc.constantFrom<[string, string][]>(
            [
              ['service-api-key', t.runtime.apiKey],
              ['SERVICE-API-KEY', t.runtime.apiKey],
            ],
            [
              ['Service-API-Key', t.runtime.apiKey],
              ['Service-API-Key', 'wrong'],
            ],
            [
              ['Service-API-Key', 'wrong'],
              ['service-api-key', t.runtime.apiKey],
            ],
            [['Service-API-Key', `${t.runtime.apiKey}, ${t.runtime.apiKey}`]],
            [['Service-API-Key', `${t.runtime.apiKey}\u00e9`]],
            [['Service-API-Key', ' ']],
            [],
          ),
        ),
        branchHeaders: fc.constantFrom<[string, string][]>(
          [],
          [['Service-Branch', 'main']],
          [
            ['Service-Branch', 'main'],
            ['service-branch', 'staging'],
          ],
          [['sErViCe-BrAnCh', 'staging']],
          [['Service-Branch', 'm\u00e9in']],
          [['Service-Branch', '\u00ff\u00fe']],
          [['Service-Branch', '']],
        ),
        extra: fc.array(
          fc.constantFrom<[string, string]>(
            ['__proto__', '{"polluted":true}'],
            ['constructor', 'x'],
            ['toString', 'x'],
            ['X-Big', 'x'.repeat(17 * 1024)],
            ['X-Latin', 'caf\u00e9 \u00a9'],
            ['Content-Type', 'application/json; charset=utf-16'],
            ['Content-Type', 'application/json'],
            ['Content-Type', 'application/json'],
            ['Transfer-Encoding', 'chunked'],
            ['Content-Encoding', 'gzip'],
            ['Expect', '100-continue'],
            ['Host', 'evil.example'],
            ['Bad Name', 'x'],
            ['X-Empty', ''],
          ),
          { maxLength: 3 },
        ),
        body: fc.oneof(
          fc.constantFrom('', '{}', '{"a":"\u00e9\u00ff"}'),
          invalidJson,
          ...templatesOf(route, values).map((body) => fc.constant(JSON.stringify(body))),
        ),
      })
      .map(({ method, target, keyHeaders, branchHeaders, extra, body }) => ({
        method,
        target,
        headers: [...keyHeaders, ...branchHeaders, ...extra],
        body,
        note: route.operationId,
      })),
  );

async function sendRawProbe(probe: RawProbe) {
  const body = Buffer.from(probe.body, 'utf8');
  // Chunked bodies are framed as such; any other body has its length. Header bytes are sent as UTF-8, non-ASCII as it is.
  const chunked = probe.headers.some(([name, value]) => name === 'Transfer-Encoding' && value === 'chunked');
  const framed = chunked ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]) : body;
  const lines = [
    `${probe.method} ${probe.target} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    ...probe.headers.map(([name, value]) => `${name}: ${value}`),
  ];
  if (!chunked) lines.push(`Content-Length: ${body.length}`);
  return exchange(probe.method, probe.target, `${probe.note}, raw, headers ${probe.headers.map(([name]) => name).join(' ')}`, () =>
    sendRaw(Buffer.from(lines.join('\r\n'), 'utf8'), framed, probe.method),
  );
}

// ---------------------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  // Schedules the probes save are kept, never run: a run firing during a refused request would be a write this file cannot tell from one the request made.
  t.runtime.scheduler.local.close();
  dynamo = new DynamoDBClient(clientConfig({ tableName: t.runtime.tableName, endpoint: t.runtime.dynamoEndpoint }));
  writeLog = await startWriteLog(t.runtime.dynamoEndpoint);
  process.env.DYNAMODB_ENDPOINT = writeLog.url;
  const made = async <D>(path: string, body: unknown, status = 201) => {
    const response = await t.api<D>(path, { method: 'POST', body: JSON.stringify(body) });
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    return response.body.data;
  };
  for (const body of [tableBody('fuzz-table'), simpleBody('fuzz-simple'), setBody('fuzz-set')]) {
    const { checksum } = await made<{ checksum: string }>('/dev/v1/rule', body);
    await made(`/dev/v1/rule/${body.id}/publish`, { checksum });
  }
  // fuzz-table has a candidate, v2, in a shadow rollout: its executions compare it off their path, and the rollout operations have one to act on.
  const { checksum: tableChecksum } = (await t.api<{ checksum: string }>('/dev/v1/rule/fuzz-table')).body.data;
  const edited = await t.api<{ checksum: string }>('/dev/v1/rule/fuzz-table', {
    method: 'PATCH',
    body: JSON.stringify({ checksum: tableChecksum, description: 'with a candidate' }),
  });
  await made('/dev/v1/rule/fuzz-table/publish', { checksum: edited.body.data.checksum, candidate: true });
  expect((await t.api('/dev/v1/rule/fuzz-table/rollout', { method: 'PUT', body: JSON.stringify({ candidate: 'v2', mode: 'shadow' }) })).status).toBe(200);
  await made('/dev/v1/rule', simpleBody(world.victims.rule));
  await made('/dev/v1/workflow', workflowBody(world.victims.workflow));
  world.victims.credentialId = (
    await made<{ id: string }>('/dev/v1/credentials', {
      name: 'Fuzz victim',
      type: 'apiKey',
      key: 'X-Victim',
      value: 'victim-secret',
      allowedHosts: [new URL(t.runtime.providerUrl).host],
    })
  ).id;
  world.victims.integrationId = (
    await made<{ id: string }>('/dev/v1/integrations', { name: 'Fuzz victim', type: 'restApi', baseUrl: t.runtime.providerUrl })
  ).id;
  for (const type of entityTypes)
    for (const id of stored[type]) {
      const response = await t.api<{ checksum: string; type: string; definition: unknown }>(`/dev/v1/${type}/${id}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      world.entities[id] = response.body.data;
    }
  // A task of the workspace, for the task operations' stored ids.
  world.taskId = (
    await made<{ taskId: string }>('/dev/v1/workflow/loan-application/execute', { params: paramsOf['loan-application'], async: true }, 202)
  ).taskId;
  // The functions write through the log: else a refused request could change the table unseen until the backstop scan.
  expect(writeLog.writes()).toBeGreaterThan(0);
  await watch.settle();
}, 30_000);

afterAll(async () => {
  dynamo?.destroy();
  await writeLog?.close();
  console.log(
    `bad input: ${tally.requests.toLocaleString('en')} requests tried across ${tally.operations.size} operations ` +
      `(${tally.accepted.toLocaleString('en')} accepted, ${tally.refused.toLocaleString('en')} refused; ${writeLog?.writes()} writes, ${watch.scans} scans of the table, ${watch.recordedFailures} writes of failed runs, records and coverage counts, ${watch.offPathWrites} rollout counts and samples written off the requests' paths)`,
  );
});

const propertyOptions = (runs: number, timeMs: number) => ({ numRuns: runs, interruptAfterTimeLimit: timeMs, markInterruptAsFailure: false });

describe('bad input to every operation', () => {
  it("sees the writes a refusal makes by design (a recording rule's failed run, and its count in the version's coverage), and lets only those pass", async () => {
    const recorded = watch.recordedFailures;
    const bad = {
      method: 'POST',
      path: '/dev/v1/rule/fuzz-table/execute',
      key: t.runtime.apiKey,
      headers: [],
      body: '{"params":{"age":"old"}}',
      note: 'bad params',
    };
    expect((await sendProbe(bad)).status).toBe(400);
    // The execution's record, and the coverage item it counted in.
    expect(watch.recordedFailures).toBe(recorded + 2);
    expect(watch.changes).toEqual([]);
  });

  it('a body of 20,000 faulty fields is answered with the first 100 and their count, not with all of them', async () => {
    const bad = { method: 'POST', path: '/dev/v1/integrations', key: t.runtime.apiKey, headers: [], note: 'many faults' };
    const response = await sendProbe({
      ...bad,
      body: JSON.stringify({ name: 'Many faults', type: 'restApi', baseUrl: t.runtime.providerUrl, headers: manyFaults.map }),
    });
    expect(response.status).toBe(400);
    expect((response.envelope!.data as { errors: unknown[] }).errors).toHaveLength(100);
    expect(response.envelope!.message).toMatch(/; and 19,?990 more\.$/);
    expect(response.bytes).toBeLessThan(50_000);
  });

  it('text that is not Unicode (a lone surrogate) is a 400 naming its field, where an integration test once answered 500', async () => {
    const path = `/dev/v1/integrations/${stored.integrationId[1]}/test`;
    const body = '{"method":"GET","path":"/v1/fx-rate","query":{"from":"EUR","to":"\\ud800"}}';
    const response = await sendProbe({ method: 'POST', path, key: t.runtime.apiKey, headers: [], body, note: 'lone surrogate' });
    expect(response.status).toBe(400);
    expect(response.envelope!.data).toEqual({ errors: [{ in: 'body', field: 'query.to', message: expect.stringMatching(/lone surrogate/) }] });
  });

  it('a key "__proto__" anywhere in a body is a 400 naming where, where saving one once answered 500', async () => {
    const { checksum, definition } = world.entities['fuzz-table']!;
    const tests = [{ name: 'adult', params: JSON.parse('{"age":30,"extra":{"__proto__":1}}') as unknown, expected: { band: 'adult' } }];
    for (const [method, path, body, field] of [
      [
        'PATCH',
        '/dev/v1/rule/fuzz-table',
        JSON.stringify({ checksum, definition: { ...(definition as object), tests } }),
        'definition.tests[0].params.extra.__proto__',
      ],
      [
        'POST',
        '/dev/v1/integrations',
        `{"name":"Prototype","type":"restApi","baseUrl":"${t.runtime.providerUrl}","headers":{"__proto__":"x"}}`,
        'headers.__proto__',
      ],
    ]) {
      const response = await sendProbe({ method: method!, path: path!, key: t.runtime.apiKey, headers: [], body: body!, note: 'prototype key' });
      expect(response.status).toBe(400);
      expect(response.envelope!.data).toEqual({
        errors: [{ in: 'body', field, message: expect.stringMatching(/is a key "__proto__", which the service cannot store/) }],
      });
    }
  });

  it('a key "constructor" in a body is a 400 naming where, where saving `"constructor": 1` in a test case once answered 500', async () => {
    const { checksum, definition } = world.entities['fuzz-table']!;
    const tests = [{ name: 'adult', params: { age: 30 }, expected: { band: 'adult', constructor: 1 } }];
    const body = JSON.stringify({ checksum, definition: { ...(definition as object), tests } });
    const response = await sendProbe({ method: 'PATCH', path: '/dev/v1/rule/fuzz-table', key: t.runtime.apiKey, headers: [], body, note: 'constructor key' });
    expect(response.status).toBe(400);
    expect(response.envelope!.data).toEqual({
      errors: [
        {
          in: 'body',
          field: 'definition.tests[0].expected.constructor',
          message: expect.stringMatching(/is a key "constructor", which the service cannot store/),
        },
      ],
    });
  });

  it('a number past what DynamoDB keeps, in a definition, is a 400 naming where, where saving it once answered 500', async () => {
    const body = JSON.stringify({ ...simpleBody('fuzz-huge-number'), definition: { when: 'true', then: { ok: 1e308 } } });
    const response = await sendProbe({ method: 'POST', path: '/dev/v1/rule', key: t.runtime.apiKey, headers: [], body, note: 'huge number' });
    expect(response.status).toBe(400);
    expect(response.envelope!.data).toEqual({
      errors: [{ in: 'body', field: 'definition', message: expect.stringMatching(/holds the number 1e\+308 \(at then\.ok\), which the table cannot keep/) }],
    });
  });

  /** Runs `send` on every probe of `probes` within the bounds, then checks that nothing a refused probe sent changed the table. */
  async function holdsFor<P>(probes: fc.Arbitrary<P>, send: (probe: P) => Promise<unknown>, bounds: [runs: number, timeMs: number]) {
    const changesBefore = watch.changes.length;
    // fast-check stops waiting for a run when the time limit interrupts it, but the request goes on: its writes
    // (an accepted create) would land in the next property's windows, as if a refused request had made them.
    const inFlight = new Set<Promise<unknown>>();
    await fc.assert(
      fc.asyncProperty(probes, async (probe) => {
        const sent = send(probe);
        inFlight.add(sent);
        try {
          await sent;
        } finally {
          inFlight.delete(sent);
        }
      }),
      propertyOptions(...bounds),
    );
    // Each one settles the table or records its refusal itself (exchange), once it is answered.
    await Promise.allSettled([...inFlight]);
    await watch.compare(watch.since);
    const changes = watch.changes.slice(changesBefore);
    for (const unattributed of changes.filter((change) => !change.attributed))
      console.log(`bad input: a change no one refused request made: ${JSON.stringify(unattributed).slice(0, 2000)}`);
    expect(JSON.stringify(changes.filter((change) => change.attributed))).toBe('[]');
  }
  const unlessSurplusPull = (probe: Probe) => {
    fc.pre(!surplusPull(probe));
    return sendProbe(probe);
  };

  it(
    'random and adversarial requests: a documented envelope, never a 5xx, the table unchanged when refused',
    () => holdsFor(randomProbe, unlessSurplusPull, [limits.randomRuns, limits.randomTimeMs]),
    60_000,
  );

  it(
    'near-valid bodies, one field broken, reach the deep validation and hold the same',
    () => holdsFor(nearValidProbe, unlessSurplusPull, [limits.nearValidRuns, limits.nearValidTimeMs]),
    60_000,
  );

  it(
    'raw requests (duplicated, oddly cased, non-ASCII and oversized headers, odd methods and targets) answer an envelope too',
    () => holdsFor(rawProbe, sendRawProbe, [limits.rawRuns, limits.rawTimeMs]),
    30_000,
  );

  it('reached every operation of the route table with stored ids', () => {
    expect(routeList.map((route) => route.operationId).filter((id) => !tally.reachedWithStoredIds.has(id))).toEqual([]);
  });
});
