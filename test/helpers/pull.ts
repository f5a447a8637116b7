/**
 * Remote pull through the local runtime: repositories on a real Git server on
 * loopback (git http-backend) behind a proxy that counts fetches, the pull,
 * task and remote operations, and what a branch holds as the API serves it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { entityTypeOf, entityTypes, type EntityType } from '../../lib/entities/kinds.ts';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { commitFiles, createRepository, startGitServer, type GitServer, type RepositoryFiles } from '../../lib/local/git-server.ts';
import { entityFolders } from '../../lib/pull/plan.ts';
import { taskView } from '../../lib/pull/remote.ts';
import type { ChangeCounts, TaskState } from '../../lib/store/types.ts';
import type { Api, ApiResponse, RequestOptions } from './api.ts';
import { json } from './credentials.ts';
import { expectFailure, expectSuccess } from './envelope.ts';

export const pullPath = '/dev/v1/remote/pull';
export const legacyPullPath = '/dev/remote/pull';
export const remotePath = '/dev/v1/remote';
export const taskPath = (taskId: string) => `/dev/v1/tasks/${encodeURIComponent(taskId)}`;
export const legacyTaskPath = (taskId: string) => `${legacyPullPath}/${encodeURIComponent(taskId)}`;

/** What the task operations show: the progress of a pull, never the bookkeeping of its runs (runId, lease). */
export type TaskView = ReturnType<typeof taskView>;
export const taskViewFields = ['taskId', 'taskState', 'branch', 'createdAt', 'startedAt', 'finishedAt', 'commit', 'summary', 'error'];
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
    const upstream = http.request(
      { host: '127.0.0.1', port: server.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
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

/** The pull and task operations of one workspace (its key), on one API. */
export function pullClient(api: Api, key: string) {
  const call = <D>(path: string, options: RequestOptions = {}) => api<D>(path, { key, ...options });
  return {
    key,
    setRemote: (url: string, credentialId?: string) => call<unknown>(remotePath, json('PUT', credentialId === undefined ? { url } : { url, credentialId }, { key })),
    getRemote: () => call<unknown>(remotePath),
    pull: (branch: string, options: RequestOptions & { legacy?: boolean } = {}) =>
      call<{ taskId: string; taskState: TaskState }>(options.legacy ? legacyPullPath : pullPath, { method: 'POST', branch, ...options }),
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
