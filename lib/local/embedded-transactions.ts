/**
 * TransactWriteItems (and TransactGetItems) for the embedded DynamoDB.
 *
 * dynalite, the embedded DynamoDB of the local runtime and the tests, has no
 * transactions (its readme lists them as not done, and no maintained fork
 * has them), while the service writes a change and its audit record in one
 * TransactWriteItems, as real DynamoDB and DynamoDB Local allow. This module
 * takes over dynalite's HTTP server's request listener: a transaction is
 * answered here, every other request goes to dynalite's own listener in the
 * same process, as before (no proxy hop).
 *
 * A transaction is applied through dynalite itself, so that its condition and
 * update evaluation and its index upkeep are the ones every other request
 * meets: each item becomes dynalite's own PutItem, UpdateItem or DeleteItem,
 * conditional, asking for the old item back, handed to dynalite's listener in
 * this process. A ConditionCheck is an UpdateItem that updates nothing (an
 * existing item stays as it was; an absent one is made bare, and deleted again
 * at once). When an item fails, those applied are put back as they were (the
 * old item put again, a new one deleted), again through dynalite, so its
 * indexes follow. dynalite's internals (`checkConditional`, its item locks)
 * would need its store, which is out of reach (its listener is bound to it);
 * its request validation needs none, and is called directly to refuse a
 * malformed transaction before any item is applied.
 *
 * Isolation comes from a lock in this process: every other request holds it
 * shared from its arrival until its answer is sent, a transaction holds it
 * exclusive, so no request sees a transaction half applied or rolled back and
 * transactions never interleave, while ordinary requests still run side by
 * side. A transaction is not logged: a process that dies in the middle of one
 * leaves it half applied in a kept data directory (local data only).
 *
 * As on DynamoDB: at most 100 items, one per item; every failed item is
 * reported, with a reason per item in order; ClientRequestToken makes a repeat
 * of an applied transaction within 10 minutes answer success without applying
 * it again, and a repeat with other parameters IdempotentParameterMismatchException.
 * Not done: consumed capacity and item collection metrics in the answer, the
 * 4 MB limit on a whole transaction.
 */
import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';

type Json = Record<string, unknown>;
type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** An answer to a DynamoDB request: its HTTP status and JSON body. */
interface Answer {
  status: number;
  body: Json;
}

const api = 'DynamoDB_20120810';
const errorPrefix = 'com.amazonaws.dynamodb.v20120810#';
/** dynalite's limit on a request body. */
const maxRequestBytes = 16 * 1024 * 1024;
/** DynamoDB's limits on a transaction. */
const maxItems = 100;
const maxTokenLength = 36;
const tokenLifetimeMs = 10 * 60 * 1000;
/** How many tokens are remembered at most; past it the oldest is forgotten before its 10 minutes. */
const maxTokens = 10_000;

/**
 * dynalite's request validation (types, expressions, attribute values): pure
 * functions of the request, but for the item size limit, read from the store's
 * options; this module passes DynamoDB's 400 KB, which the embedded DynamoDB keeps.
 */
interface ActionValidation {
  types: Json;
  custom: (data: Json, store: unknown) => string | undefined;
}
const require = createRequire(import.meta.url);
const validations = require('dynalite/validations') as {
  checkTypes(data: Json, types: Json): Json;
  checkValidations(data: Json, types: Json, custom: ActionValidation['custom'], store: unknown): void;
};
const validationStore = { options: { maxItemSize: 400 * 1024 } };

/** The four kinds of transaction item: the dynalite request each becomes, the members it carries over, those it must have. */
const itemKinds = {
  Put: { operation: 'PutItem', members: ['Item', 'ConditionExpression'], required: ['TableName', 'Item'] },
  Update: { operation: 'UpdateItem', members: ['Key', 'UpdateExpression', 'ConditionExpression'], required: ['TableName', 'Key', 'UpdateExpression'] },
  Delete: { operation: 'DeleteItem', members: ['Key', 'ConditionExpression'], required: ['TableName', 'Key'] },
  ConditionCheck: { operation: 'UpdateItem', members: ['Key', 'ConditionExpression'], required: ['TableName', 'Key', 'ConditionExpression'] },
} as const;
type ItemKind = keyof typeof itemKinds;
const sharedMembers = ['TableName', 'ExpressionAttributeNames', 'ExpressionAttributeValues'] as const;

const actionValidations: Record<string, ActionValidation> = {
  PutItem: require('dynalite/validations/putItem') as ActionValidation,
  UpdateItem: require('dynalite/validations/updateItem') as ActionValidation,
  DeleteItem: require('dynalite/validations/deleteItem') as ActionValidation,
  GetItem: require('dynalite/validations/getItem') as ActionValidation,
};

/** One item of a write transaction, as the dynalite request that applies it. */
interface WriteItem {
  kind: ItemKind;
  table: string;
  key: Json;
  request: Json;
  returnOldOnFailure: boolean;
}

/** A request refused before anything was applied, with the answer to send. */
class Refused extends Error {
  constructor(readonly answer: Answer) {
    super(String(answer.body.message ?? answer.body.__type));
  }
}

const error = (type: string, message: string, status = 400): Answer => ({ status, body: { __type: type, message } });
const validationError = (message: string) => error('com.amazon.coral.validate#ValidationException', message);
const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const typeOf = (answer: Answer) => String(answer.body.__type).split('#').pop();

/**
 * Makes dynalite's `server` answer TransactWriteItems and TransactGetItems. Call
 * it once, before the server takes requests.
 */
export function addTransactions(server: Server): void {
  const [dynalite, ...others] = server.listeners('request') as Listener[];
  if (!dynalite || others.length > 0) throw new Error("addTransactions expects dynalite's server, with its one request listener.");
  server.removeAllListeners('request');
  const lock = new SharedExclusiveLock();
  const tokens = new TokenMemory();
  const transactions: Record<string, (body: Json, call: Call) => Promise<Answer>> = {
    [`${api}.TransactWriteItems`]: (body, call) => writeTransaction(body, call, lock, tokens),
    [`${api}.TransactGetItems`]: (body, call) => getTransaction(body, call, lock),
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const transaction = request.method === 'POST' ? transactions[String(request.headers['x-amz-target'])] : undefined;
    if (transaction) void answerTransaction(request, response, dynalite, transaction);
    else void passShared(request, response, dynalite, lock);
  });
}

/** Hands a request to dynalite once no transaction runs, and holds the lock shared until its answer is sent (or the client is gone). */
async function passShared(request: IncomingMessage, response: ServerResponse, dynalite: Listener, lock: SharedExclusiveLock): Promise<void> {
  let closed = false;
  let release: (() => void) | undefined;
  // Listened for from the start: a client that leaves while the request waits would otherwise hold the lock for ever.
  response.once('close', () => {
    closed = true;
    release?.();
  });
  const granted = await lock.acquire(false);
  if (closed) return granted();
  release = granted;
  dynalite(request, response);
}

type Call = (operation: string, input: Json) => Promise<Answer>;

async function answerTransaction(
  request: IncomingMessage,
  response: ServerResponse,
  dynalite: Listener,
  transaction: (body: Json, call: Call) => Promise<Answer>,
) {
  let answer: Answer;
  try {
    const text = await readBody(request);
    if (text === undefined) {
      response.statusCode = 413;
      return void response.end();
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!isObject(body)) answer = { status: 400, body: { __type: 'com.amazon.coral.service#SerializationException' } };
    else answer = await transaction(body, (operation, input) => callDynalite(dynalite, request.headers, operation, input));
  } catch (failure) {
    answer = failure instanceof Refused ? failure.answer : error(`${errorPrefix}InternalServerError`, (failure as Error).message, 500);
  }
  send(response, answer);
}

/** The body's text, or undefined past dynalite's limit. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > maxRequestBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString();
}

/** Sends an answer with the headers dynalite sends with its own. */
function send(response: ServerResponse, answer: Answer): void {
  const text = JSON.stringify(answer.body);
  response.statusCode = answer.status;
  response.setHeader('x-amzn-RequestId', randomUUID());
  response.setHeader('x-amz-crc32', crc32(text));
  response.setHeader('Content-Type', 'application/x-amz-json-1.0');
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}

/**
 * One request to dynalite's own listener, in this process and outside the
 * lock (the caller holds it exclusive). The request carries the transaction's
 * headers, so dynalite checks its signature headers as for any request. The
 * listener reads only these members of the request and the response.
 */
function callDynalite(dynalite: Listener, headers: IncomingHttpHeaders, operation: string, input: Json): Promise<Answer> {
  return new Promise((resolve) => {
    const request = Object.assign(new EventEmitter(), {
      method: 'POST',
      url: '/',
      headers: { ...headers, 'x-amz-target': `${api}.${operation}`, 'content-type': 'application/x-amz-json-1.0' },
    });
    const response = {
      statusCode: 200,
      setHeader() {},
      end(text?: string) {
        resolve({ status: this.statusCode, body: text ? (JSON.parse(text) as Json) : {} });
      },
    };
    dynalite(request as unknown as IncomingMessage, response as unknown as ServerResponse);
    request.emit('data', Buffer.from(JSON.stringify(input)));
    request.emit('end');
  });
}

/** A request within a transaction that cannot fail but for a fault (a read, a put back): its failure fails the transaction with a 500. */
async function expectApplied(call: Call, operation: string, input: Json): Promise<Answer> {
  const answer = await call(operation, input);
  if (answer.status !== 200) throw new Error(`${operation} within a transaction failed: ${JSON.stringify(answer.body)}`);
  return answer;
}

async function writeTransaction(body: Json, call: Call, lock: SharedExclusiveLock, tokens: TokenMemory): Promise<Answer> {
  const items = await writeItems(body, call);
  // The same parameters give the same text: the SDK sends a retry as it sent the first try.
  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ ...body, ClientRequestToken: undefined }))
    .digest('hex');
  const token = body.ClientRequestToken as string | undefined;
  const release = await lock.acquire(true);
  try {
    if (token !== undefined) {
      const seen = tokens.fingerprintOf(token);
      if (seen === fingerprint) return { status: 200, body: {} };
      if (seen !== undefined)
        return error(`${errorPrefix}IdempotentParameterMismatchException`, 'The request uses the same client token as a previous, but non-identical request.');
    }
    const answer = await apply(items, call);
    if (answer.status === 200 && token !== undefined) tokens.remember(token, fingerprint);
    return answer;
  } finally {
    release();
  }
}

/**
 * Applies every item, each on its own condition, and keeps them all when every
 * condition held; otherwise puts back those applied and answers the
 * cancellation. Items after a failed one are still applied (and put back), so
 * that each failed condition is reported: the items are on distinct keys, so
 * each condition meets its item as it was before the transaction.
 */
async function apply(items: WriteItem[], call: Call): Promise<Answer> {
  const reasons: Json[] = [];
  const applied: { item: WriteItem; old: Json | undefined }[] = [];
  let failure: Answer | undefined;
  for (const item of items) {
    const answer = await call(itemKinds[item.kind].operation, item.request);
    if (answer.status === 200) {
      const old = answer.body.Attributes as Json | undefined;
      if (item.kind !== 'ConditionCheck') applied.push({ item, old });
      // A check of an absent item made it, bare: it goes again.
      else if (!old) await expectApplied(call, 'DeleteItem', { TableName: item.table, Key: item.key });
      reasons.push({ Code: 'None' });
    } else if (typeOf(answer) === 'ConditionalCheckFailedException') {
      const current = item.returnOldOnFailure
        ? (await expectApplied(call, 'GetItem', { TableName: item.table, Key: item.key, ConsistentRead: true })).body.Item
        : undefined;
      reasons.push({ Code: 'ConditionalCheckFailed', Message: 'The conditional request failed', ...(current ? { Item: current } : {}) });
    } else if (typeOf(answer) === 'ValidationException') {
      // What dynalite finds wrong only as it applies the item: a key of the wrong type, an addition to a string, an item grown too large.
      reasons.push({ Code: 'ValidationError', Message: String(answer.body.message) });
    } else {
      failure = answer;
      break;
    }
  }
  const cancelled = failure !== undefined || reasons.some((reason) => reason.Code !== 'None');
  if (!cancelled) return { status: 200, body: {} };
  for (const { item, old } of applied.reverse()) {
    if (old) await expectApplied(call, 'PutItem', { TableName: item.table, Item: old });
    else await expectApplied(call, 'DeleteItem', { TableName: item.table, Key: item.key });
  }
  if (failure) return failure;
  return {
    status: 400,
    body: {
      __type: `${errorPrefix}TransactionCanceledException`,
      CancellationReasons: reasons,
      Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
    },
  };
}

/**
 * The transaction's items as dynalite requests, refused in the order DynamoDB
 * refuses a malformed transaction, before any item is applied: the members'
 * constraints, all reported at once; each item's expressions and values, as
 * dynalite checks them; then its tables, empty key values and items named
 * twice. What dynalite finds wrong only when it applies an item (a key of the
 * wrong type) cancels the transaction instead, as on DynamoDB.
 */
async function writeItems(body: Json, call: Call): Promise<WriteItem[]> {
  const constraints = new Constraints();
  const token = body.ClientRequestToken;
  if (token !== undefined) constraints.length('ClientRequestToken', String(token).length, 1, maxTokenLength);
  constraints.oneOf('returnConsumedCapacity', body.ReturnConsumedCapacity, ['INDEXES', 'TOTAL', 'NONE']);
  constraints.oneOf('returnItemCollectionMetrics', body.ReturnItemCollectionMetrics, ['SIZE', 'NONE']);
  const items = constraints.list(body.TransactItems).map((entry, index) => {
    const kinds = isObject(entry) ? (Object.keys(itemKinds) as ItemKind[]).filter((kind) => entry[kind] !== undefined) : [];
    const kind = kinds[0];
    const member = kind && isObject(entry) ? entry[kind] : undefined;
    if (kinds.length !== 1 || !kind || !isObject(member))
      throw new Refused(validationError('TransactItems can only contain one of Check, Put, Update or Delete'));
    const path = `transactItems.${index + 1}.member.${lowerFirst(kind)}`;
    for (const name of itemKinds[kind].required) constraints.notNull(`${path}.${lowerFirst(name)}`, member[name]);
    const onFailure = member.ReturnValuesOnConditionCheckFailure;
    constraints.oneOf(`${path}.returnValuesOnConditionCheckFailure`, onFailure, ['ALL_OLD', 'NONE']);
    const request: Json = { ReturnValues: 'ALL_OLD' };
    for (const name of [...sharedMembers, ...itemKinds[kind].members]) if (member[name] !== undefined) request[name] = member[name];
    return {
      kind,
      table: String(member.TableName),
      request,
      returnOldOnFailure: onFailure === 'ALL_OLD',
      keySource: (kind === 'Put' ? member.Item : member.Key) as Json,
    };
  });
  constraints.check();
  for (const item of items) checkWithDynalite(itemKinds[item.kind].operation, item.request);
  const keys = await distinctKeys(items, call);
  return items.map(({ keySource: _, ...item }, index) => ({ ...item, key: keys[index]! }));
}

/** Member constraints of a transaction request, reported together in one message as DynamoDB reports them. */
class Constraints {
  private readonly errors: string[] = [];

  notNull(path: string, value: unknown): void {
    if (value == null) this.errors.push(`Value null at '${path}' failed to satisfy constraint: Member must not be null`);
  }

  oneOf(path: string, value: unknown, allowed: string[]): void {
    if (value !== undefined && !allowed.includes(value as string))
      this.errors.push(`Value '${String(value)}' at '${path}' failed to satisfy constraint: Member must satisfy enum value set: [${allowed.join(', ')}]`);
  }

  length(path: string, length: number, min: number, max: number): void {
    const bound = length < min ? `greater than or equal to ${min}` : length > max ? `less than or equal to ${max}` : undefined;
    if (bound) this.errors.push(`Value at '${path}' failed to satisfy constraint: Member must have length ${bound}`);
  }

  /** TransactItems, which must be a list of 1 to 100 items. */
  list(transactItems: unknown): unknown[] {
    if (transactItems == null) this.notNull('transactItems', transactItems);
    else if (!Array.isArray(transactItems)) throw new Refused({ status: 400, body: { __type: 'com.amazon.coral.service#SerializationException' } });
    else if (transactItems.length >= 1 && transactItems.length <= maxItems) return transactItems;
    else this.length('TransactItems', transactItems.length, 1, maxItems);
    // The items of a list refused are not looked at.
    return [];
  }

  check(): void {
    const count = this.errors.length;
    if (count > 0) throw new Refused(validationError(`${count} validation error${count > 1 ? 's' : ''} detected: ${this.errors.join('; ')}`));
  }
}

/** dynalite's own validation of a request, without applying it: its answer, when it refuses it. */
function checkWithDynalite(operation: string, request: Json): void {
  const { types, custom } = actionValidations[operation]!;
  try {
    validations.checkValidations(validations.checkTypes({ ...request }, types), types, custom, validationStore);
  } catch (failure) {
    const refusal = failure as { statusCode?: number; body?: Json };
    if (refusal.statusCode && refusal.body) throw new Refused({ status: refusal.statusCode, body: refusal.body });
    throw failure;
  }
}

/**
 * The key of each item (its key attributes, taken from a Put's item), once
 * its table is known to exist; refused when a key value is empty, or when two
 * items name one item.
 */
async function distinctKeys(items: { table: string; keySource: Json }[], call: Call): Promise<Json[]> {
  const schemas = new Map<string, string[]>();
  for (const { table } of items) if (!schemas.has(table)) schemas.set(table, await keyAttributes(table, call));
  const seen = new Set<string>();
  return items.map(({ table, keySource }) => {
    const names = schemas.get(table)!;
    const key = Object.fromEntries(names.filter((name) => keySource[name] !== undefined).map((name) => [name, keySource[name]]));
    for (const [name, value] of Object.entries(key)) {
      const [type, text] = isObject(value) ? (Object.entries(value)[0] ?? []) : [];
      if (text === '' && (type === 'S' || type === 'B'))
        throw new Refused(
          validationError(
            `One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty ${type === 'S' ? 'string' : 'binary'} value. Key: ${name}`,
          ),
        );
    }
    const id = JSON.stringify([table, ...names.map((name) => key[name])]);
    if (seen.has(id)) throw new Refused(validationError('Transaction request cannot include multiple operations on one item'));
    seen.add(id);
    return key;
  });
}

async function keyAttributes(table: string, call: Call): Promise<string[]> {
  const answer = await call('DescribeTable', { TableName: table });
  if (answer.status !== 200) throw new Refused(answer);
  return (answer.body.Table as { KeySchema: { AttributeName: string }[] }).KeySchema.map(({ AttributeName }) => AttributeName);
}

/**
 * TransactGetItems: each item read by dynalite's GetItem while the lock is held
 * exclusive, so the reads see one state of the table, as real DynamoDB's
 * serializable TransactGetItems does.
 */
async function getTransaction(body: Json, call: Call, lock: SharedExclusiveLock): Promise<Answer> {
  const constraints = new Constraints();
  constraints.oneOf('returnConsumedCapacity', body.ReturnConsumedCapacity, ['INDEXES', 'TOTAL', 'NONE']);
  const gets = constraints.list(body.TransactItems).map((entry, index) => {
    const get = isObject(entry) ? entry.Get : undefined;
    if (!isObject(get)) throw new Refused(validationError('TransactItems can only contain Get'));
    for (const name of ['TableName', 'Key']) constraints.notNull(`transactItems.${index + 1}.member.get.${lowerFirst(name)}`, get[name]);
    const { TableName, Key, ProjectionExpression, ExpressionAttributeNames } = get;
    return { TableName, Key, ProjectionExpression, ExpressionAttributeNames, ConsistentRead: true };
  });
  constraints.check();
  for (const get of gets) checkWithDynalite('GetItem', get);
  await distinctKeys(
    gets.map((get) => ({ table: String(get.TableName), keySource: get.Key as Json })),
    call,
  );
  const release = await lock.acquire(true);
  try {
    const responses: Json[] = [];
    for (const get of gets) {
      const answer = await call('GetItem', get);
      if (answer.status !== 200) return answer;
      responses.push(answer.body.Item ? { Item: answer.body.Item } : {});
    }
    return { status: 200, body: { Responses: responses } };
  } finally {
    release();
  }
}

/**
 * Held shared by many at once, or exclusive by one. Waiters are served in the
 * order they came, so a stream of ordinary requests cannot keep a transaction
 * waiting for ever.
 */
class SharedExclusiveLock {
  private shared = 0;
  private exclusive = false;
  private readonly waiting: { exclusive: boolean; grant: () => void }[] = [];

  /** Resolves, once granted, to the function that releases it. */
  acquire(exclusive: boolean): Promise<() => void> {
    return new Promise((resolve) => {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        if (exclusive) this.exclusive = false;
        else this.shared--;
        this.serve();
      };
      this.waiting.push({ exclusive, grant: () => resolve(release) });
      this.serve();
    });
  }

  private serve(): void {
    for (let next = this.waiting[0]; next && !this.exclusive && !(next.exclusive && this.shared > 0); next = this.waiting[0]) {
      this.waiting.shift();
      if (next.exclusive) this.exclusive = true;
      else this.shared++;
      next.grant();
    }
  }
}

/** The client tokens of applied transactions, each with its request's fingerprint, for 10 minutes and at most `maxTokens` of them. */
class TokenMemory {
  private readonly tokens = new Map<string, { fingerprint: string; expiresAt: number }>();

  fingerprintOf(token: string): string | undefined {
    this.forgetExpired();
    return this.tokens.get(token)?.fingerprint;
  }

  remember(token: string, fingerprint: string): void {
    this.tokens.set(token, { fingerprint, expiresAt: Date.now() + tokenLifetimeMs });
    if (this.tokens.size > maxTokens) this.tokens.delete(this.tokens.keys().next().value!);
  }

  /** Entries are kept in the order they expire: the first still valid ends the sweep. */
  private forgetExpired(): void {
    const now = Date.now();
    for (const [token, { expiresAt }] of this.tokens) {
      if (expiresAt > now) return;
      this.tokens.delete(token);
    }
  }
}
