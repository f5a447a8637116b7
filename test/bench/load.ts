/**
 * Load (issue "Reliability and security"): the other sections time one call
 * at a time; this one shows what single calls cannot, the service answering
 * many clients at once without errors, hangs or tasks that never end.
 *
 * The whole local runtime (lib/local/runtime.ts: the API over HTTP on
 * 127.0.0.1, the embedded DynamoDB, the demo data, Git server and provider,
 * the SQS queue and its worker) runs in this process, and autocannon's
 * connections to it, 50 for 30 s by default, each cycle through the mix of
 * load-mix.ts: list, get, test and execute rules, run the demo's payment
 * review synchronously and asynchronously, pull main or staging, and read a
 * task. The run is bounded in time and in requests, and every request has a
 * timeout. After it, every task a pull or an asynchronous run accepted is
 * followed at GET /dev/v1/tasks/{taskId} until it ends, for at most two
 * minutes. The run fails (exit code 1) on any 5xx or other status than the
 * documented one, an answer missing what it should hold, a socket error, a
 * timeout, a request left unanswered, or a task that did not complete.
 *
 * `npm run bench:load` runs it here and prints the table; BENCH_LOAD_SECONDS,
 * BENCH_LOAD_CONNECTIONS, BENCH_LOAD_MAX_REQUESTS and
 * BENCH_LOAD_SETTLE_SECONDS change its bounds for a quick run. `npm run
 * bench` runs it in a process of its own (`measureLoadApart`) and writes the
 * table to RESULTS.md: a function keeps the store it made on its first call
 * (storeFromEnv), and run.ts's other sections load the same functions
 * against the bench's own table.
 */
import './log-level.ts';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { TaskState } from '../../lib/store/types.ts';
import {
  callBody,
  callHeaders,
  checkAnswer,
  createMix,
  isTaskOperation,
  operations,
  operationSpecs,
  type Call,
  type Tally,
  type TaskOperation,
} from './load-mix.ts';
import { figuresApart } from './apart.ts';
import { putSection } from './results-file.ts';
import { quantile } from './stats.ts';

function positiveInteger(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a whole number above 0, not ${process.env[name]}`);
  return value;
}

export interface LoadSettings {
  connections: number;
  seconds: number;
  /** autocannon's maxOverallRequests: the run ends at this many requests if the time has not run out first. */
  maxRequests: number;
  timeoutSeconds: number;
  /** How long the tasks accepted are followed after the load, at most. */
  settleSeconds: number;
}

const loadSettings = (): LoadSettings => ({
  connections: positiveInteger('BENCH_LOAD_CONNECTIONS', 50),
  seconds: positiveInteger('BENCH_LOAD_SECONDS', 30),
  maxRequests: positiveInteger('BENCH_LOAD_MAX_REQUESTS', 200_000),
  timeoutSeconds: 10,
  settleSeconds: positiveInteger('BENCH_LOAD_SETTLE_SECONDS', 120),
});

export interface OperationFigures {
  operation: string;
  request: string;
  expected: number | string;
  requests: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Answers by status. */
  statuses: Record<string, number>;
  non2xx: number;
  /** Answers with another status than the expected one, or missing what they should hold. */
  unexpected: number;
  timeouts: number;
  socketErrors: number;
  lost: number;
  /** The first few unexpected answers, status and body. */
  samples: string[];
}

export interface TaskFigures {
  kind: TaskOperation;
  accepted: number;
  completed: number;
  failed: number;
  open: number;
  /** From the task's creation to its end, of those that ended (ms). */
  p50ToEndMs: number;
  maxToEndMs: number;
  /** Failed and open tasks by their error or state, counted. */
  reasons: Record<string, number>;
}

export interface LoadFigures {
  settings: LoadSettings;
  startedAt: string;
  /** The machine's one-minute load average and CPU count when the load started: other processes share the CPU. */
  machineLoad: { average: number; cpus: number };
  durationS: number;
  endedBy: 'time' | 'request cap';
  operations: OperationFigures[];
  total: OperationFigures;
  /** autocannon's own counts, beside the per-operation tally's. */
  autocannon: { sent: number; answered: number; errors: number; timeouts: number; non2xx: number };
  tasks: TaskFigures[];
  /** From the load's end until the last task ended (or the bound ran out). */
  settleMs: number;
  deadLetters: number;
  /** Why the run fails; empty when it passes. */
  problems: string[];
}

interface TaskView {
  taskState: TaskState;
  createdAt: string;
  finishedAt?: string;
  error?: string;
}

const finalStates: TaskState[] = ['completed', 'failed'];

async function send(url: string, apiKey: string, call: Call, timeoutMs: number) {
  const response = await fetch(`${url}${call.path}`, {
    method: call.method,
    headers: callHeaders(apiKey, call),
    body: callBody(call),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, body: await response.text() };
}

/**
 * Follows the tasks at GET /dev/v1/tasks/{taskId}, a few at a time, until
 * each has ended or the deadline passes; a read that does not answer 200
 * (or at all) leaves the task as last seen, and is reported if it stays open.
 */
async function followTasks(url: string, apiKey: string, taskIds: string[], deadline: number, timeoutMs: number) {
  const views = new Map<string, TaskView>();
  const unreadable = new Map<string, string>();
  const open = () => taskIds.filter((id) => !finalStates.includes(views.get(id)?.taskState ?? 'pending'));
  for (let waiting = open(); waiting.length > 0 && Date.now() < deadline; waiting = open()) {
    const queue = [...waiting];
    const reader = async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        try {
          const { status, body } = await send(url, apiKey, { method: 'GET', path: `/dev/v1/tasks/${id}` }, timeoutMs);
          if (status === 200) views.set(id, (JSON.parse(body) as { data: TaskView }).data);
          else unreadable.set(id, `${status} ${body.slice(0, 300)}`);
        } catch (error) {
          unreadable.set(id, (error as Error).message);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, reader));
    if (open().length > 0) await sleep(250);
  }
  return { views, unreadable, open: open() };
}

/** Answers with another status than the operation's, or with it but missing what they should hold. */
const unexpectedOf = (tally: Tally, expected: number) =>
  [...tally.statuses].filter(([status]) => status !== expected).reduce((total, [, n]) => total + n, tally.badAnswers);

function operationFigures(
  operation: string,
  request: string,
  expected: number | string,
  tallies: Tally[],
  durationS: number,
  unexpected: number,
): OperationFigures {
  const latencies = tallies.flatMap((t) => t.latencies);
  const statuses: Record<string, number> = {};
  for (const t of tallies) for (const [status, n] of t.statuses) statuses[status] = (statuses[status] ?? 0) + n;
  const sum = (count: (t: Tally) => number) => tallies.reduce((total, t) => total + count(t), 0);
  const at = (q: number) => (latencies.length ? quantile(latencies, q) : 0);
  return {
    operation,
    request,
    expected,
    requests: latencies.length,
    perSecond: latencies.length / durationS,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: at(1),
    statuses,
    non2xx: Object.entries(statuses)
      .filter(([status]) => !status.startsWith('2'))
      .reduce((total, [, n]) => total + n, 0),
    unexpected,
    timeouts: sum((t) => t.timeouts),
    socketErrors: sum((t) => t.socketErrors),
    lost: sum((t) => t.lost),
    samples: tallies.flatMap((t) => t.unexpected),
  };
}

function taskFigures(kind: TaskOperation, taskIds: string[], followed: Awaited<ReturnType<typeof followTasks>>): TaskFigures {
  const reasons: Record<string, number> = {};
  const count = (reason: string) => (reasons[reason] = (reasons[reason] ?? 0) + 1);
  const toEnd: number[] = [];
  let completed = 0;
  let failed = 0;
  for (const id of taskIds) {
    const view = followed.views.get(id);
    if (view?.finishedAt && finalStates.includes(view.taskState)) toEnd.push(Date.parse(view.finishedAt) - Date.parse(view.createdAt));
    if (view?.taskState === 'completed') completed++;
    else if (view?.taskState === 'failed') {
      failed++;
      count(`failed: ${view.error ?? 'no error given'}`);
    } else count(followed.unreadable.has(id) ? `unreadable: ${followed.unreadable.get(id)}` : `still ${view?.taskState ?? 'unread'}`);
  }
  return {
    kind,
    accepted: taskIds.length,
    completed,
    failed,
    open: taskIds.length - completed - failed,
    p50ToEndMs: toEnd.length ? quantile(toEnd, 0.5) : 0,
    maxToEndMs: toEnd.length ? quantile(toEnd, 1) : 0,
    reasons,
  };
}

/** One request of each operation in turn, before the load: the functions load, and the mix is known to be answered as expected. */
async function warmUp(url: string, apiKey: string, timeoutMs: number, deadline: number) {
  const tasks: string[] = [];
  for (const op of operations) {
    const { status, body } = await send(url, apiKey, operationSpecs[op].call(0, tasks.at(-1) ?? ''), timeoutMs);
    const answer = checkAnswer(op, body);
    if (status !== operationSpecs[op].expected || typeof answer === 'string')
      throw new Error(`warm-up: ${op} answered ${status}${typeof answer === 'string' ? ` (${answer})` : ''}: ${body.slice(0, 500)}`);
    if (answer.taskId && isTaskOperation(op)) tasks.push(answer.taskId);
  }
  const followed = await followTasks(url, apiKey, tasks, deadline, timeoutMs);
  if (followed.open.length > 0) throw new Error(`warm-up: the tasks ${followed.open.join(', ')} did not end`);
  return tasks.at(-1)!;
}

export async function measureLoad(log: (message: string) => void = console.log): Promise<LoadFigures> {
  const settings = loadSettings();
  const timeoutMs = settings.timeoutSeconds * 1000;
  // Imported only here: run.ts imports this file for measureLoadApart, and its process must not load the runtime.
  const { startLocalRuntime } = await import('../../lib/local/runtime.ts');
  const runtime = await startLocalRuntime({ port: 0, dynamoPort: 0 });
  const problems: string[] = [];
  try {
    log(`load: runtime on ${runtime.url}; warming up`);
    const firstTask = await warmUp(runtime.url, runtime.apiKey, timeoutMs, Date.now() + 30_000);
    const mix = createMix(runtime.apiKey, firstTask);
    log(`load: ${settings.connections} connections for ${settings.seconds} s (at most ${settings.maxRequests.toLocaleString('en-US')} requests)`);
    const startedAt = new Date();
    const machineLoad = { average: loadavg()[0]!, cpus: cpus().length };
    const result = await autocannon({
      url: runtime.url,
      connections: settings.connections,
      duration: settings.seconds,
      maxOverallRequests: settings.maxRequests,
      timeout: settings.timeoutSeconds,
      setupClient: mix.setupClient,
    });
    mix.countLost();
    const loadEnded = Date.now();
    const durationS = result.duration;
    log(`load: ${result.requests.total.toLocaleString('en-US')} answers in ${durationS} s; following ${mix.accepted.size} tasks`);

    const taskIds = [...mix.accepted.keys()];
    const followed = await followTasks(runtime.url, runtime.apiKey, taskIds, loadEnded + settings.settleSeconds * 1000, timeoutMs);
    const settleMs = Date.now() - loadEnded;
    const tasks = (['pull', 'workflowAsync'] as const).map((kind) =>
      taskFigures(
        kind,
        taskIds.filter((id) => mix.accepted.get(id) === kind),
        followed,
      ),
    );

    const perOperation = operations.map((op) => {
      const { request, expected } = operationSpecs[op];
      return operationFigures(op, request, expected, [mix.tallies[op]], durationS, unexpectedOf(mix.tallies[op], expected));
    });
    const total = operationFigures(
      'all',
      'the mix',
      '200, 202',
      Object.values(mix.tallies),
      durationS,
      perOperation.reduce((sum, o) => sum + o.unexpected, 0),
    );

    for (const o of perOperation) {
      const statuses = Object.entries(o.statuses).filter(([status]) => status.startsWith('5'));
      if (statuses.length) problems.push(`${o.operation}: ${statuses.map(([status, n]) => `${n} × ${status}`).join(', ')}`);
      if (o.unexpected) problems.push(`${o.operation}: ${o.unexpected} unexpected answers, e.g. ${o.samples.join(' | ')}`);
      if (o.timeouts || o.socketErrors || o.lost)
        problems.push(`${o.operation}: ${o.timeouts} timeouts, ${o.socketErrors} socket errors, ${o.lost} requests lost`);
    }
    if (result.errors !== total.timeouts + total.socketErrors)
      problems.push(`autocannon counted ${result.errors} errors, the tally ${total.timeouts + total.socketErrors}`);
    for (const t of tasks)
      if (t.open || t.failed)
        problems.push(
          `${t.kind} tasks: ${t.open} still open, ${t.failed} failed: ${Object.entries(t.reasons)
            .map(([reason, n]) => `${n} × ${reason}`)
            .join('; ')}`,
        );
    if (runtime.queue.deadLetters.length) problems.push(`${runtime.queue.deadLetters.length} messages in the dead-letter queue`);

    return {
      settings,
      startedAt: startedAt.toISOString(),
      machineLoad,
      durationS,
      endedBy: durationS < settings.seconds ? 'request cap' : 'time',
      operations: perOperation,
      total,
      autocannon: { sent: result.requests.sent, answered: result.requests.total, errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx },
      tasks,
      settleMs,
      deadLetters: runtime.queue.deadLetters.length,
      problems,
    };
  } finally {
    // Bounded: a task stuck in the worker would keep the queue busy, and close waits for it.
    const closed = await Promise.race([runtime.close().then(() => true), sleep(30_000, false, { ref: false })]);
    if (!closed) log('load: the runtime did not close within 30 s (its queue was still busy)');
  }
}

/** The child's figures go to this file, when run.ts starts it (measureLoadApart). */
const figuresFileVariable = 'BENCH_LOAD_FIGURES_FILE';

/** Runs measureLoad in a process of its own, its output passed through, and returns its figures. */
export async function measureLoadApart(log: (message: string) => void): Promise<LoadFigures> {
  log('load: in a process of its own');
  return figuresApart<LoadFigures>(fileURLToPath(import.meta.url), figuresFileVariable, 'the load test');
}

const ms = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));
const count = (n: number) => n.toLocaleString('en-US');
const statusList = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, n]) => `${status} × ${count(n)}`)
    .join(', ');

const loadHeading = '## Load (issue "Reliability and security")';

export function loadMarkdown(f: LoadFigures): string {
  const { settings: s } = f;
  const row = (o: OperationFigures) =>
    `| ${o.operation === 'all' ? '**all**' : `\`${o.operation}\``} | ${o.request} | ${o.expected} | ${count(o.requests)} | ${o.perSecond.toFixed(1)} | ${ms(o.p50)} | ${ms(o.p90)} | ${ms(o.p99)} | ${ms(o.max)} | ${statusList(o.statuses)} | ${count(o.non2xx)} | ${count(o.unexpected)} | ${o.timeouts} / ${o.socketErrors} / ${o.lost} |`;
  const taskRow = (t: TaskFigures) =>
    `| ${t.kind === 'pull' ? 'pulls' : 'asynchronous runs'} | ${count(t.accepted)} | ${count(t.completed)} | ${count(t.failed)} | ${count(t.open)} | ${ms(t.p50ToEndMs)} | ${ms(t.maxToEndMs)} | ${
      Object.entries(t.reasons)
        .map(([reason, n]) => `${n} × ${reason}`)
        .join('; ') || '–'
    } |`;
  return [
    loadHeading,
    '',
    `The whole local runtime (\`startLocalRuntime\`: the API over HTTP on 127.0.0.1, the embedded DynamoDB, the demo data, Git server and provider, the SQS queue and its worker) in one process with autocannon ${s.connections} connections (keep-alive, one request at a time each, ${s.timeoutSeconds} s timeout), for ${s.seconds} s or ${count(s.maxRequests)} requests, whichever comes first (this run: ${f.endedBy}, ${f.durationS} s from ${f.startedAt}, the machine's load average ${f.machineLoad.average.toFixed(1)} on ${f.machineLoad.cpus} CPUs as it started). Each connection cycles through the mix below, starting at another point of it; one request of each operation is made and checked before the load, so that the functions are loaded. The load generator shares the process, and so the CPU, with the service: the latencies include its time, and the requests per second are what one process serves while it also makes them. Latencies are autocannon's (request written to answer read), nearest rank over every answer of the operation. A pull answers the branch's open task while one is open (docs/import-export.md, "Remote pull and push"), so many pulls share a task; the task read is the one most recently accepted. After the load, every task a pull or an asynchronous run accepted is followed at \`GET /dev/v1/tasks/{taskId}\` until it ends, for at most ${s.settleSeconds} s; the time to end is from the task's creation to its end (its wait in the queue behind the others, and its run).`,
    '',
    'Counted as errors: any 5xx, any other status than the documented one (a valid request of the mix has one: 200, or 202 for an asynchronous run; a 409 `pull_conflict`, which a pull answers when every try lost a race with pulls started at the same moment, counts too), an answer with that status missing what it should hold (a task id; a synchronous run that succeeded), a timeout, a socket error, a request left unanswered, and a task that did not end `completed` (failed or still open).',
    '',
    '| Operation | Request | Expected | Requests | Req/s | p50 (ms) | p90 (ms) | p99 (ms) | Max (ms) | Statuses | Non-2xx | Unexpected | Timeouts / socket errors / lost |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...f.operations.map(row),
    row(f.total),
    '',
    `autocannon's own count: ${count(f.autocannon.answered)} answers of ${count(f.autocannon.sent)} requests sent (those cut off when the time ran out are not answers), ${f.autocannon.errors} errors, ${f.autocannon.timeouts} timeouts, ${count(f.autocannon.non2xx)} non-2xx.`,
    '',
    '| Tasks | Accepted | Completed | Failed | Still open | Creation to end, p50 (ms) | Max (ms) | Failed or open, why |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...f.tasks.map(taskRow),
    '',
    `${f.tasks.some((t) => t.open) ? `Tasks were still open when the bound ran out, ${(f.settleMs / 1000).toFixed(1)} s after the load` : `Every task had ended ${(f.settleMs / 1000).toFixed(1)} s after the load (read every 250 ms)`}; ${f.deadLetters} messages in the dead-letter queue.`,
    '',
    f.problems.length ? `**Failed**: ${f.problems.join('; ')}.` : 'Zero errors; every accepted task completed: **met**.',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureLoad();
  const file = process.env[figuresFileVariable];
  if (file) await writeFile(file, JSON.stringify(figures));
  else {
    console.log(`\n${loadMarkdown(figures)}\n`);
    await putSection(loadHeading, loadMarkdown(figures));
  }
  for (const problem of figures.problems) console.error(`load: ${problem}`);
  // The runtime may hold a stuck task's timers: the run ends here whatever is left.
  process.exit(figures.problems.length ? 1 : 0);
}
