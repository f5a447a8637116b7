/**
 * Remote pull and push through the local runtime: repositories on a real Git
 * server on loopback (git http-backend) behind a proxy that counts fetches,
 * the pull, push, task and remote operations, what a branch holds as the API
 * serves it, and Git hosts that misbehave.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { entityTypeOf, entityTypes, type EntityType } from '../../lib/vocabulary/kinds.ts';
import { entityInputSchema, type EntityInput } from '../../lib/entities/schema.ts';
import { commitFiles, createRepository, startGitServer, type GitServer, type RepositoryFiles } from '../../lib/local/git-server.ts';
import type { OutboundOptions } from '../../lib/outbound/index.ts';
import { RemoteError } from '../../lib/remote/git-remote.ts';
import { entityFolders } from '../../lib/remote/pull-plan.ts';
import { taskView } from '../../lib/tasks/view.ts';
import { createStore } from '../../lib/store/index.ts';
import type { ChangeCounts } from '../../lib/remote/task.ts';
import type { RemoteFormat, Store, TaskState } from '../../lib/store/types.ts';
import type { Api, ApiResponse, RequestOptions } from './api.ts';
import { json } from './credentials.ts';
import { startDynamoProxy, type DynamoRequest } from './dynamo-proxy.ts';
import { expectFailure, expectSuccess, expectUnpaged } from './envelope.ts';

export const pullPath = '/dev/v1/remote/pull';
export const pushPath = '/dev/v1/remote/push';
export const legacyPullPath = '/dev/remote/pull';
export const remotePath = '/dev/v1/remote';
export const taskPath = (taskId: string) => `/dev/v1/tasks/${encodeURIComponent(taskId)}`;
export const legacyTaskPath = (taskId: string) => `${legacyPullPath}/${encodeURIComponent(taskId)}`;

/** What the task operations show: the progress of a pull, never the bookkeeping of its runs (runId, lease). */
export type TaskView = ReturnType<typeof taskView>;
export const taskViewFields = ['taskId', 'taskState', 'branch', 'createdAt', 'startedAt', 'finishedAt', 'commit', 'summary', 'error', 'push'];
const finalStates: TaskState[] = ['completed', 'failed'];

export const counts = (added = 0, updated = 0, deleted = 0, unchanged = 0): ChangeCounts => ({ added, updated, deleted, unchanged });

/** Where a pull reads an entity from: `rules/<id>.json` or `workflows/<id>.json`. */
export const filePath = (input: EntityInput) => `${entityFolders[entityTypeOf(input.type)]}/${input.id}.json`;

/** One file per entity, as the API serves records (pretty-printed JSON). */
export const entityFiles = (inputs: EntityInput[]): RepositoryFiles =>
  Object.fromEntries(inputs.map((input) => [filePath(input), `${JSON.stringify(input, null, 2)}\n`]));

export interface Repositories {
  /** The proxy's URL: a repository's clone URL is `${url}/${name}`. */
  url: string;
  root: string;
  /** `${url}/${name}` */
  repoUrl(name: string): string;
  create(name: string, branches: Record<string, RepositoryFiles>): Promise<Record<string, string>>;
  commit(name: string, branch: string, files: RepositoryFiles, deletions?: string[]): Promise<string>;
  /** The git CLI on the bare repository `name` (`git --git-dir <root>/<name> ...args`): its output, trimmed. */
  git(name: string, ...args: string[]): string;
  /** How many fetches (ref discoveries, GET …/info/refs) reached the repository so far. */
  fetches(name: string): number;
  /** Every header value the Git host received, for checks that a secret went only where it should. */
  seenHeaders: string[];
  /** Holds every ref discovery from now until the returned function is called: a pull stays in progress meanwhile. */
  hold(): () => void;
  /** Answers the next `count` ref discoveries with `status` (e.g. 503) instead of serving them. */
  failNext(count: number, status: number): void;
  close(): Promise<void>;
}

/**
 * Bare repositories in a temp folder, served by a Git server (optionally
 * refusing requests without `requireHeader`) behind a counting proxy.
 */
export async function startRepositories(options: { requireHeader?: { name: string; value: string } } = {}): Promise<Repositories> {
  const root = mkdtempSync(join(tmpdir(), 'pull-test-repos-'));
  const server: GitServer = await startGitServer({ root, requireHeader: options.requireHeader });
  const discoveries = new Map<string, number>();
  const seenHeaders: string[] = [];
  let held: Promise<void> | undefined;
  let failures: { count: number; status: number } = { count: 0, status: 0 };
  const proxy = http.createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method === 'GET' && path.endsWith('/info/refs')) {
      const name = path.slice(1, -'/info/refs'.length);
      discoveries.set(name, (discoveries.get(name) ?? 0) + 1);
      if (failures.count > 0) {
        failures.count--;
        request.resume();
        response.writeHead(failures.status, { 'content-type': 'text/plain' }).end('not now\n');
        return;
      }
      await held;
    }
    for (const [name, value] of Object.entries(request.headers)) if (name !== 'host') seenHeaders.push(`${name}: ${String(value)}`);
    const upstream = http.request({ host: '127.0.0.1', port: server.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url,
    root,
    repoUrl: (name) => `${url}/${name}`,
    create: (name, branches) => createRepository(root, name, branches),
    commit: (name, branch, files, deletions = []) => commitFiles(root, name, branch, files, deletions),
    git: (name, ...args) => gitOutput(join(root, name), args),
    fetches: (name) => discoveries.get(name) ?? 0,
    seenHeaders,
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    failNext(count, status) {
      failures = { count, status };
    },
    async close() {
      await new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      });
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The git CLI on a bare repository, kept from the machine's and the user's configuration; throws with git's message when it fails. */
export function gitOutput(gitDir: string, args: string[]): string {
  const run = spawnSync('git', ['--git-dir', gitDir, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LANG: 'C' },
  });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
}

/** Outbound options for Git hosts on loopback in a test: private addresses allowed, short bounds, every log line kept in `logged` for the secret checks. */
export const loopbackOutbound = (logged: string[], extra: OutboundOptions = {}): OutboundOptions => ({
  allowPrivateNetworks: true,
  connectTimeoutMs: 1000,
  totalTimeoutMs: 5000,
  log: (message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`),
  ...extra,
});

/** What a Git exchange failed with (a RemoteError; anything else is thrown again), its message kept in `logged` for the secret checks. */
export async function remoteFailure(call: Promise<unknown>, logged: string[]): Promise<RemoteError> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof RemoteError)) throw error;
    logged.push(error.message);
    return error;
  }
  throw new Error('expected the Git exchange to fail');
}

/** The pull, push and task operations of one workspace (its key), on one API. */
export function pullClient(api: Api, key: string) {
  const call = <D>(path: string, options: RequestOptions = {}) => api<D>(path, { key, ...options });
  return {
    key,
    setRemote: (url: string, credentialId?: string, format?: RemoteFormat) =>
      call<unknown>(remotePath, json('PUT', { url, ...(credentialId !== undefined && { credentialId }), ...(format && { format }) }, { key })),
    getRemote: () => call<unknown>(remotePath),
    pull: (branch: string, options: RequestOptions & { legacy?: boolean } = {}) =>
      call<{ taskId: string; taskState: TaskState }>(options.legacy ? legacyPullPath : pullPath, { method: 'POST', branch, ...options }),
    push: (branch: string, options: RequestOptions = {}) => call<{ taskId: string; taskState: TaskState }>(pushPath, { method: 'POST', branch, ...options }),
    task: (taskId: string, options: RequestOptions & { legacy?: boolean } = {}) =>
      call<TaskView>(options.legacy ? legacyTaskPath(taskId) : taskPath(taskId), options),
    /** Starts a pull and checks the answer: 200, unpaged, data exactly {taskId, taskState}. */
    async start(branch: string, options: { legacy?: boolean } = {}): Promise<{ taskId: string; taskState: TaskState }> {
      const response = await this.pull(branch, options);
      expectSuccess(response);
      expect(Object.keys(response.body.data).sort()).toEqual(['taskId', 'taskState']);
      return response.body.data;
    },
    /** Polls the task until it is completed or failed (at most `timeoutMs`); checks each answer's shape. */
    async wait(taskId: string, timeoutMs = 10_000): Promise<TaskView> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const view = expectTask(await this.task(taskId));
        if (finalStates.includes(view.taskState)) return view;
        if (Date.now() > deadline) throw new Error(`task ${taskId} still ${view.taskState} after ${timeoutMs} ms: ${JSON.stringify(view)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    /** Starts a pull of `branch` and waits for it to end. */
    async pullAndWait(branch: string): Promise<TaskView> {
      const { taskId } = await this.start(branch);
      return this.wait(taskId);
    },
    /** Starts a push and checks the answer: 202, unpaged, data exactly {taskId, taskState}. */
    async startPush(branch: string): Promise<{ taskId: string; taskState: TaskState }> {
      const data = expectUnpaged(await this.push(branch), 202);
      expect(Object.keys(data).sort()).toEqual(['taskId', 'taskState']);
      return data;
    },
    /** Starts a push of `branch` and waits for it to end. */
    async pushAndWait(branch: string): Promise<TaskView> {
      const { taskId } = await this.startPush(branch);
      return this.wait(taskId);
    },
    /** The branch as the API serves it: every entity of each type with its totals, and each one's detail. */
    async branchState(branch: string): Promise<BranchState> {
      const state = { totals: {}, lists: {}, details: {} } as BranchState;
      for (const type of entityTypes) {
        const list = await call<{ id: string }[]>(`/dev/v1/${type}`, { branch, query: { pageSize: 100 } });
        expectSuccess(list, { pageNo: 1, pageSize: 100, totalCount: list.body.totalCount });
        state.totals[type] = list.body.totalCount;
        state.lists[type] = list.body.data.map((s) => s.id).sort();
        for (const { id } of list.body.data) {
          const detail = await call<EntityDetail>(`/dev/v1/${type}/${encodeURIComponent(id)}`, { branch });
          expectSuccess(detail);
          state.details[`${type}/${id}`] = detail.body.data;
        }
      }
      return state;
    },
  };
}

export type PullClient = ReturnType<typeof pullClient>;

export interface EntityDetail {
  id: string;
  name: string;
  description: string;
  type: string;
  tags: string[];
  definition: Record<string, unknown>;
  checksum: string;
  status: string;
  version: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
  revision: number;
}

export interface BranchState {
  totals: Record<EntityType, number>;
  /** Ids per type, sorted. */
  lists: Record<EntityType, string[]>;
  /** `${type}/${id}` → the detail GET /dev/v1/{type}/{id} answers. */
  details: Record<string, EntityDetail>;
}

/** A 200 task answer: unpaged, only the fields of a task view, timestamps as ISO strings; returns the view. */
export function expectTask(response: ApiResponse<TaskView>): TaskView {
  expectSuccess(response);
  const view = response.body.data;
  const fields = Object.keys(view);
  expect(fields.filter((f) => !taskViewFields.includes(f))).toEqual([]);
  for (const field of ['taskId', 'taskState', 'branch', 'createdAt']) expect(fields).toContain(field);
  for (const at of [view.createdAt, view.startedAt, view.finishedAt]) if (at !== undefined) expect(new Date(at).toISOString()).toBe(at);
  if (view.taskState === 'completed') {
    expect(view.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(view.summary).toBeDefined();
    expect(view.finishedAt).toBeDefined();
  }
  if (view.taskState === 'failed') {
    expect(view.error).toMatch(/\S/);
    expect(view.finishedAt).toBeDefined();
  }
  return view;
}

/** A failure answer with data exactly {} (the pull operations' bare errors), or null for a 401. */
export function expectBareFailure(response: ApiResponse, status: number, code: string) {
  expectFailure(response, status, code, status === 401 ? null : {});
}

/** What a commit decides of a branch: the ids of each type, the totals the lists report, and each entity's checksum. */
export interface BranchContent {
  totals: Record<EntityType, number>;
  lists: Record<EntityType, string[]>;
  checksums: Record<string, string>;
}

export const contentOf = (state: BranchState): BranchContent => ({
  totals: state.totals,
  lists: state.lists,
  checksums: Object.fromEntries(Object.entries(state.details).map(([key, detail]) => [key, detail.checksum])),
});

/** The content of a branch that holds exactly `inputs`: a commit's entities, pulled. */
export function contentFor(inputs: EntityInput[]): BranchContent {
  const parsed = inputs.map((input) => entityInputSchema.parse(input));
  const of = (type: EntityType) => parsed.filter((input) => entityTypeOf(input.type) === type);
  return {
    totals: { rule: of('rule').length, workflow: of('workflow').length },
    lists: {
      rule: of('rule')
        .map((i) => i.id)
        .sort(),
      workflow: of('workflow')
        .map((i) => i.id)
        .sort(),
    },
    checksums: Object.fromEntries(parsed.map((input) => [`${entityTypeOf(input.type)}/${input.id}`, entityChecksum(input)])),
  };
}

export interface DyingStore {
  store: Store;
  /** Whether the request it dies at has come. */
  readonly dead: boolean;
  close(): Promise<void>;
}

/**
 * A store whose worker dies at a chosen request: it talks to the runtime's
 * DynamoDB through a loopback proxy that passes requests on until `diesAt`
 * holds for one, then answers that one and every later one with an error
 * the SDK does not retry. Whatever was using the store stops there, and
 * nothing after that point is written, as when a worker is killed.
 */
export async function startDyingStore(dynamo: { dynamoEndpoint: string; tableName: string }, diesAt: (request: DynamoRequest) => boolean): Promise<DyingStore> {
  let dead = false;
  const proxy = await startDynamoProxy(dynamo.dynamoEndpoint, {
    answer: (request) => {
      dead ||= diesAt(request);
      return dead
        ? { status: 400, body: { __type: 'com.amazon.coral.validate#ValidationException', message: 'Injected: the worker stopped at this request' } }
        : undefined;
    },
  });
  return {
    store: createStore({ tableName: dynamo.tableName, endpoint: proxy.url }),
    get dead() {
      return dead;
    },
    close: proxy.close,
  };
}

/** A Git host's way of answering badly, request by request. */
export type HostileAnswer = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** Git hosts that misbehave, each in its own way: what no pull or push may wait on for longer than the outbound bounds. */
export const hostileGitAnswers: Record<'silent' | 'server-error' | 'unavailable' | 'trickling' | 'stalled-mid-answer', HostileAnswer> = {
  silent: () => undefined,
  'server-error': (_request, response) => response.writeHead(500).end('broken'),
  unavailable: (_request, response) => response.writeHead(503, { 'retry-after': '3600' }).end('later'),
  trickling: (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement' });
    const timer = setInterval(() => response.write('0'), 500);
    response.on('close', () => clearInterval(timer));
  },
  'stalled-mid-answer': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement' });
    response.write('001e# service=git-upload-pack\n');
  },
};

export type GitService = 'git-upload-pack' | 'git-receive-pack';

export interface VanishingRemote {
  /** The Git host's URL: a repository's clone URL is `${url}/${name}`. */
  url: string;
  /**
   * The next `count` packs of `service` stop half way: the host passes the
   * request on, then closes the connection in the middle of its answer (a
   * fetch's pack, or the result of a push, which the repository has taken).
   */
  cutPacks(count: number, service?: GitService): void;
  /** Answers every request of pushing (git-receive-pack: ref discovery and pack) with `answer` instead, until given undefined; fetches pass. */
  answerPushes(answer: HostileAnswer | undefined): void;
  /** Once it has answered the next ref discovery, the host is gone (nothing listens on its port) until `back`. */
  vanishAfterDiscovery(): void;
  back(): Promise<void>;
  close(): Promise<void>;
}

/** A Git host (in front of `upstream`, e.g. Repositories' url) that goes away in the middle of a fetch or a push, or answers pushes badly, when told to. */
export async function startVanishingRemote(upstream: string): Promise<VanishingRemote> {
  const target = new URL(upstream);
  let cuts = { count: 0, service: 'git-upload-pack' as GitService };
  let pushAnswer: HostileAnswer | undefined;
  let vanishing = false;
  let gone = false;
  const server = http.createServer((request, response) => {
    if (gone) return void request.socket.destroy();
    if (pushAnswer && (request.url ?? '').includes('git-receive-pack')) return pushAnswer(request, response);
    const cut = request.method === 'POST' && cuts.count > 0 && (request.url ?? '').endsWith(`/${cuts.service}`);
    if (cut) cuts.count--;
    const leaves = vanishing && request.method === 'GET' && (request.url ?? '').includes('/info/refs');
    const forward = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
      async (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!cut) {
          if (leaves) response.on('finish', vanish);
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        const pack = Buffer.concat(chunks);
        response.write(pack.subarray(0, pack.length >> 1), () => response.socket?.destroy());
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const vanish = () => {
    vanishing = false;
    gone = true;
    server.close();
    server.closeAllConnections();
  };
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cutPacks: (count, service = 'git-upload-pack') => void (cuts = { count, service }),
    answerPushes: (answer) => void (pushAnswer = answer),
    vanishAfterDiscovery: () => void (vanishing = true),
    async back() {
      gone = false;
      await listen(port);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

/** A queue that drops messages: a task started with it stays pending until a test delivers its message. */
export const silentQueue = { send: async () => undefined };

/** Delivers the task's message again through the runtime's queue, and waits until the queue is idle. */
export async function redeliver(runtime: { queue: { send(body: string): unknown; idle(): Promise<void> } }, taskId: string) {
  runtime.queue.send(JSON.stringify({ taskId }));
  await runtime.queue.idle();
}

/** A queue that refuses every message, as SQS does when it is unavailable; `taskIds` are those of the messages it refused. */
export function refusingQueue() {
  const taskIds: string[] = [];
  return {
    taskIds,
    send: async (message: { taskId: string }) => {
      taskIds.push(message.taskId);
      throw new Error('Injected: the queue is unavailable');
    },
  };
}

/** Waits until a task's lease has run out: a run that died holding it can then be taken over. */
export const leaseOver = (task: { leaseUntil?: string }) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(task.leaseUntil!) - Date.now() + 20)));
