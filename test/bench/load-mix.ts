/**
 * The load test's request mix (load.ts): the operations every client cycles
 * through, as autocannon requests, and the tally of what each answered.
 *
 * Every request of the mix is valid, so each operation has one documented
 * answer (lib/openapi/openapi.json, docs/): 200, or 202 for an
 * asynchronous workflow run. A pull answers 200 with the branch's open task
 * when one is open ("asking again while one is open returns that task"); its
 * 409 `pull_conflict` (every try lost a race with pulls started at the same
 * moment) is documented but not what this load should meet, so it counts as
 * unexpected like any other status.
 *
 * Each client gets its own request objects (autocannon's `setupClient`), so
 * that what happens to a request is told to its operation. autocannon hands
 * an answer to the `onResponse` of the request it belongs to and then emits
 * the client's `response` event with its latency, at once; it builds each
 * request (`setupRequest`) just before writing it, one at a time per
 * connection. On a timeout it writes the next request and then emits
 * `timeout`; on a socket error it emits `connError` and then writes the next.
 * A request replaced by the next one without an answer, a timeout or a socket
 * error was lost: the server closed the connection under it, which autocannon
 * does not report (and after which it pairs that connection's answers with
 * the requests before them, so its later latencies are not to be trusted;
 * the run fails anyway).
 */
import type autocannon from 'autocannon';

export const operations = ['list', 'get', 'test', 'execute', 'workflowSync', 'workflowAsync', 'pull', 'getTask'] as const;
export type Operation = (typeof operations)[number];

/** The operations whose answer names a task to follow. */
export type TaskOperation = Extract<Operation, 'pull' | 'workflowAsync'>;
export const isTaskOperation = (op: Operation): op is TaskOperation => op === 'pull' || op === 'workflowAsync';

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  branch?: string;
  body?: unknown;
}

interface OperationSpec {
  /** What the report shows: the request as the guides write it. */
  request: string;
  expected: number;
  /** The n-th call of this operation by one client; `latestTask` is the task most recently accepted by any client. */
  call(n: number, latestTask: string): Call;
}

const pick = <T>(values: readonly T[], n: number): T => values[n % values.length]!;

/** Demo rules (lib/local/demo-entities.ts), all published on main. */
const ruleIds = ['shipping-cost', 'fraud-screening', 'loan-eligibility', 'discount-tier', 'vip-customer'];
/** shipping-cost's inputs, hitting each of its rows in turn. */
const orders = [
  { destination: { zone: 'domestic' }, weightKg: 1.5 },
  { destination: { zone: 'domestic' }, weightKg: 12 },
  { destination: { zone: 'eu' }, weightKg: 3 },
  { destination: { zone: 'world' }, weightKg: 1 },
].map((order) => ({ order }));
/** The demo's payment review (docs/workflows.md, "Workflows that run"): a rule screens the payment, the demo provider scores it. */
const payments = [1500, 250, 5000].map((amount) => ({
  payment: { amount },
  card: { ageDays: 2, country: 'DE', paymentsLastHour: 1 },
  ip: { country: 'FR' },
  customer: { lifetimeValue: 100 },
}));
/** The demo remote has both branches: a pull of either finds its files. */
const pullBranches = ['main', 'staging'];

export const operationSpecs: Record<Operation, OperationSpec> = {
  list: { request: 'GET /dev/v1/rule?pageSize=10', expected: 200, call: () => ({ method: 'GET', path: '/dev/v1/rule?pageSize=10' }) },
  get: { request: 'GET /dev/v1/rule/{id} (5 demo rules in turn)', expected: 200, call: (n) => ({ method: 'GET', path: `/dev/v1/rule/${pick(ruleIds, n)}` }) },
  test: {
    request: 'POST /dev/v1/rule/shipping-cost/test (its draft)',
    expected: 200,
    call: (n) => ({ method: 'POST', path: '/dev/v1/rule/shipping-cost/test', body: { params: pick(orders, n) } }),
  },
  execute: {
    request: 'POST /dev/v1/rule/shipping-cost/execute (v1)',
    expected: 200,
    call: (n) => ({ method: 'POST', path: '/dev/v1/rule/shipping-cost/execute', body: { params: pick(orders, n) } }),
  },
  workflowSync: {
    request: 'POST /dev/v1/workflow/payment-review/execute',
    expected: 200,
    call: (n) => ({ method: 'POST', path: '/dev/v1/workflow/payment-review/execute', body: { params: pick(payments, n) } }),
  },
  workflowAsync: {
    request: 'the same with `"async": true`',
    expected: 202,
    call: (n) => ({ method: 'POST', path: '/dev/v1/workflow/payment-review/execute', body: { params: pick(payments, n), async: true } }),
  },
  pull: {
    request: 'POST /dev/v1/remote/pull (main, staging in turn)',
    expected: 200,
    call: (n) => ({ method: 'POST', path: '/dev/v1/remote/pull', branch: pick(pullBranches, n) }),
  },
  getTask: {
    request: 'GET /dev/v1/tasks/{latest accepted task}',
    expected: 200,
    call: (_n, latestTask) => ({ method: 'GET', path: `/dev/v1/tasks/${latestTask}` }),
  },
};

/** The headers and body of a call, as fetch and autocannon both take them. */
export function callHeaders(apiKey: string, call: Call): Record<string, string> {
  return {
    'service-api-key': apiKey,
    ...(call.body !== undefined && { 'content-type': 'application/json' }),
    ...(call.branch && { 'service-branch': call.branch }),
  };
}

export const callBody = (call: Call) => (call.body === undefined ? undefined : JSON.stringify(call.body));

/**
 * What an answer with the expected status must also hold: a pull's and an
 * asynchronous run's the task to follow, a synchronous run's a run that
 * succeeded (a failed run is an answer, 200, but the demo's payment review
 * has no reason to fail). Returns the task, if any, or what is wrong.
 */
export function checkAnswer(op: Operation, body: string): { taskId?: string } | string {
  if (!isTaskOperation(op) && op !== 'workflowSync') return {};
  let data: { taskId?: unknown; status?: unknown } | undefined;
  try {
    data = (JSON.parse(body) as { data?: typeof data }).data;
  } catch {
    return 'the body is not JSON';
  }
  if (op === 'workflowSync') return data?.status === 'succeeded' ? {} : `the run ${String(data?.status)}`;
  return typeof data?.taskId === 'string' ? { taskId: data.taskId } : 'no taskId';
}

export interface Tally {
  /** Answered requests' latencies (ms), as autocannon measures them: request written to response read. */
  latencies: number[];
  statuses: Map<number, number>;
  timeouts: number;
  socketErrors: number;
  lost: number;
  /** Answers with the expected status that do not hold what they should (checkAnswer). */
  badAnswers: number;
  /** The first few unexpected answers, status and body, for the report. */
  unexpected: string[];
}

const keptUnexpected = 5;

/** One client's requests: the one written and not yet settled, the one the next replaced before it settled, and the one answered last. */
interface Slot {
  written?: Operation;
  replaced?: Operation;
  answered?: Operation;
}

/**
 * The mix: `setupClient` for autocannon, the tallies it fills, and the tasks
 * accepted (taskId → the operation that started it). `latestTask` starts as
 * a task made before the load, so the first GET task has one to read.
 */
export function createMix(apiKey: string, firstTask: string) {
  const emptyTally = (): Tally => ({ latencies: [], statuses: new Map(), timeouts: 0, socketErrors: 0, lost: 0, badAnswers: 0, unexpected: [] });
  const tallies = Object.fromEntries(operations.map((op) => [op, emptyTally()])) as Record<Operation, Tally>;
  const accepted = new Map<string, TaskOperation>();
  let latestTask = firstTask;
  const slots: Slot[] = [];

  const requestFor = (op: Operation, slot: Slot): autocannon.Request => {
    const spec = operationSpecs[op];
    let n = 0;
    return {
      setupRequest: (request) => {
        if (slot.replaced) tallies[slot.replaced].lost++;
        slot.replaced = slot.written;
        slot.written = op;
        const call = spec.call(n++, latestTask);
        return { ...request, method: call.method, path: call.path, headers: callHeaders(apiKey, call), body: callBody(call) };
      },
      onResponse: (status, body) => {
        if (slot.replaced) tallies[slot.replaced].lost++;
        slot.replaced = slot.written = undefined;
        slot.answered = op;
        const tally = tallies[op];
        if (status === spec.expected) {
          const answer = checkAnswer(op, body);
          if (typeof answer !== 'string') {
            if (answer.taskId && isTaskOperation(op)) accept(answer.taskId, op);
            return;
          }
          tally.badAnswers++;
        }
        if (tally.unexpected.length < keptUnexpected) tally.unexpected.push(`${status} ${body.slice(0, 300)}`);
      },
    };
  };
  const accept = (taskId: string, op: TaskOperation) => {
    accepted.set(taskId, op);
    latestTask = taskId;
  };

  /** Each client starts at another point of the mix, so that the first requests are not all the same operation. */
  const setupClient = (client: autocannon.Client) => {
    const slot: Slot = {};
    const index = slots.push(slot) - 1;
    client.setRequests(operations.map((_, i) => requestFor(operations[(index + i) % operations.length]!, slot)));
    client.on('response', (status, _bytes, ms) => {
      // Named by onResponse, which autocannon calls just before.
      const tally = tallies[slot.answered!];
      tally.latencies.push(ms);
      tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
    });
    // autocannon's Client type lists only its response events; these two it emits too (lib/httpClient.js).
    const emitter: NodeJS.EventEmitter = client;
    emitter.on('timeout', () => {
      // The next request is written already, unless the client had made its last.
      const op = slot.replaced ?? slot.written;
      if (op) tallies[op].timeouts++;
      if (slot.replaced) slot.replaced = undefined;
      else slot.written = undefined;
    });
    emitter.on('connError', () => {
      if (slot.written) tallies[slot.written].socketErrors++;
      slot.written = undefined;
    });
  };

  /** After the run: a request replaced and never settled was lost; the one written last was cut off by the end, not lost. */
  const countLost = () => {
    for (const slot of slots) if (slot.replaced) tallies[slot.replaced].lost++;
  };

  return { setupClient, tallies, accepted, countLost };
}
