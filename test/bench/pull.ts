/**
 * Remote pull, end to end in this process: a bare repository of 1,000 rule
 * files served by `git http-backend` on loopback (lib/local/git-server.ts),
 * a task started as the API starts one (startPull, with a queue that only
 * keeps the message), and the worker's core (runPullTask) run on it with the
 * real fetch (isomorphic-git through the outbound client) and the bench's
 * store. Three pulls per round: into an empty branch, after a commit that
 * changes 10 rules, and of that commit again (nothing to do). The embedded
 * DynamoDB's side is metered (request-meter.ts): requests by operation, the
 * items inside each BatchWriteItem, and what each request was for.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { commitFiles, createRepository, startGitServer, type RepositoryFiles } from '../../lib/local/git-server.ts';
import { fetchBranch } from '../../lib/remote/git-remote.ts';
import { runPullTask, type RunDeps } from '../../lib/remote/pull-run.ts';
import { startPull } from '../../lib/remote/start.ts';
import type { Store } from '../../lib/store/types.ts';
import type { ChangeCounts, PullSummary } from '../../lib/remote/task.ts';
import { taskTimes } from '../../lib/tasks/delivery.ts';
import { addBranch } from '../../lib/workspaces/admin.ts';
import { workspaceId } from './bench-table.ts';
import { syntheticRuleInput } from './entities.ts';
import { meterRequests, type MeteredRequest } from './request-meter.ts';

export type PullName = 'first' | 'changed' | 'no-op';

/** What each metered request was for, told from its key or key condition. */
export const purposes = ['task record', 'remote config', 'branch state', 'entity writes', 'recount', 'branch pull record', 'other'] as const;
export type Purpose = (typeof purposes)[number];

export interface PullRun {
  pull: PullName;
  round: number;
  /** The whole runPullTask call. */
  totalMs: number;
  /** fetchBranch: ref discovery, pack download (the local server runs git per request), unpacking, reading the tree. */
  fetchMs: number;
  /** Of the fetch: the local Git server's requests, arrival to last byte sent, and how many. */
  gitServerMs: number;
  gitRequests: number;
  /** listEntityStates of both entity types (run side by side): the branch as it is. */
  stateMs: number;
  /** writeEntities of both types: batch writes, then the recount (nothing when there is nothing to write). */
  writeMs: number;
  /** Requests by DynamoDB operation. */
  operations: Record<string, number>;
  /** Requests by operation, per purpose. */
  byPurpose: Partial<Record<Purpose, Record<string, number>>>;
  /** Put and delete requests inside each BatchWriteItem, in order. */
  batchSizes: number[];
  /** Requests the start of the task made (the API's part, before the worker): by operation. */
  startOperations: Record<string, number>;
  summary: PullSummary;
}

export interface PullFigures {
  entities: number;
  changed: number;
  rounds: number;
  batchLimit: number;
  /** Rule files by kind, as generated. */
  kinds: Record<string, number>;
  /** Bytes of the 1,000 files. */
  repositoryBytes: number;
  runs: PullRun[];
}

export const pullOptions = { entities: 1_000, changed: 10, rounds: 5 } as const;
const batchLimit = 25;

const ruleFile = (i: number, edition = 1) => ({
  [`rules/${syntheticRuleInput(i, edition).id}.json`]: `${JSON.stringify(syntheticRuleInput(i, edition), null, 2)}\n`,
});

const tally = (counts: Record<string, number>, key: string, n = 1) => {
  counts[key] = (counts[key] ?? 0) + n;
};

function operationsOf(requests: readonly MeteredRequest[]) {
  const counts: Record<string, number> = {};
  for (const { operation } of requests) tally(counts, operation);
  return counts;
}

interface WireBody {
  Key?: Record<string, { S?: string }>;
  Item?: Record<string, { S?: string }>;
  IndexName?: string;
  ExpressionAttributeValues?: Record<string, { S?: string }>;
  RequestItems?: Record<string, unknown[]>;
}

function purposeOf(operation: string, body: WireBody): Purpose {
  if (operation === 'BatchWriteItem') return 'entity writes';
  const key = body.Key ?? body.Item;
  const [pk, sk] = [key?.PK?.S ?? '', key?.SK?.S ?? ''];
  if (operation === 'Query') {
    const values = body.ExpressionAttributeValues ?? {};
    const [partition, prefix] = [values[':pk']?.S ?? '', values[':prefix']?.S];
    if (partition.startsWith('ENT:') && !body.IndexName && prefix === 'E:') return 'branch state';
    if (partition.startsWith('ENT:') && (body.IndexName || prefix === 'COUNT')) return 'recount';
    return 'other';
  }
  if (pk.startsWith('TASK:')) return 'task record';
  if (sk === 'REMOTE') return 'remote config';
  if (sk.startsWith('BRANCH:')) return 'branch pull record';
  if (pk.startsWith('ENT:') && sk.startsWith('COUNT')) return 'recount';
  return 'other';
}

/** Wall time inside calls that may overlap: from the first start to the last end of each overlapping stretch. */
function spanTimer() {
  let active = 0;
  let since = 0;
  let total = 0;
  return {
    async time<T>(call: () => Promise<T>): Promise<T> {
      if (active++ === 0) since = performance.now();
      try {
        return await call();
      } finally {
        if (--active === 0) total += performance.now() - since;
      }
    },
    get ms() {
      return total;
    },
  };
}

const counts = (change: Partial<ChangeCounts>): ChangeCounts => ({ added: 0, updated: 0, deleted: 0, unchanged: 0, ...change });

/** Fails the bench: a figure of a pull that did not do what it should means nothing. */
function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`pull benchmark: ${what}`);
}

export async function measurePulls(store: Store, meter: ReturnType<typeof meterRequests>, log: (message: string) => void): Promise<PullFigures> {
  const { entities, changed, rounds } = pullOptions;
  const root = await mkdtemp(join(tmpdir(), 'rules-bench-repos-'));
  const branches = Array.from({ length: rounds }, (_, r) => `pull-${r + 1}`);
  const files: RepositoryFiles = Object.assign({}, ...Array.from({ length: entities }, (_, i) => ruleFile(i)));
  // Spread over the kinds and the id range: rules 0, 100, 200, …
  const edited = Array.from({ length: changed }, (_, k) => Math.floor((k * entities) / changed));
  const editedFiles: RepositoryFiles = Object.assign({}, ...edited.map((i) => ruleFile(i, 2)));
  const kinds: Record<string, number> = {};
  for (let i = 0; i < entities; i++) tally(kinds, syntheticRuleInput(i).type);

  log(`pull: a repository of ${entities.toLocaleString('en-US')} rule files, ${rounds} rounds of three pulls`);
  const heads = await createRepository(root, 'rules.git', Object.fromEntries(branches.map((b) => [b, files])));
  const server = await startGitServer({ root });
  const gitMeter = meterRequests(server.url);
  const queued: string[] = [];
  const queue = { send: async ({ taskId }: { taskId: string }) => void queued.push(taskId) };
  const runs: PullRun[] = [];
  try {
    await store.putRemote(workspaceId, { url: `${server.url}/rules.git`, updatedAt: new Date().toISOString() });

    const pullOnce = async (pull: PullName, round: number, branch: string, commit: string, expected: ChangeCounts) => {
      meter.start();
      const task = await startPull({ store, queue }, workspaceId, branch);
      const startOperations = operationsOf(meter.stop());
      check(task.taskState === 'pending' && queued.at(-1) === task.taskId, `${pull} pull of ${branch}: the task was not started and queued`);

      const fetchTime = spanTimer();
      const stateTime = spanTimer();
      const writeTime = spanTimer();
      const deps: RunDeps = {
        store: {
          ...store,
          listEntityStates: (scope) => stateTime.time(() => store.listEntityStates(scope)),
          writeEntities: (scope, writes, deletions) => writeTime.time(() => store.writeEntities(scope, writes, deletions)),
        },
        fetchBranch: (options) => fetchTime.time(() => fetchBranch({ ...options, outbound: { allowPrivateNetworks: true } })),
        openCredential: async () => {
          throw new Error('the bench remote has no credential');
        },
        leaseMs: taskTimes.leaseMs,
      };
      meter.start();
      gitMeter.start();
      const started = performance.now();
      const outcome = await runPullTask(deps, task.taskId, { attempt: 1, maxAttempts: 3 });
      const totalMs = performance.now() - started;
      const gitRequests = gitMeter.stop();
      const requests = meter.stop();

      const ended = await store.getTask(task.taskId);
      check(outcome === 'done', `${pull} pull of ${branch}: runPullTask returned ${outcome}`);
      check(ended?.taskState === 'completed', `${pull} pull of ${branch}: the task ended ${ended?.taskState}${ended?.error ? `: ${ended.error}` : ''}`);
      check(ended.kind === 'pull', `${pull} pull of ${branch}: the task is a ${ended.kind}`);
      check(ended.commit === commit, `${pull} pull of ${branch}: pulled ${ended.commit}, expected ${commit}`);
      const summary: PullSummary = { rule: expected, workflow: counts({}), ignoredFolders: [] };
      check(
        isDeepStrictEqual(ended.summary, summary),
        `${pull} pull of ${branch}: summary ${JSON.stringify(ended.summary)}, expected ${JSON.stringify(summary)}`,
      );
      const record = await store.getBranchSync(workspaceId, branch);
      check(record?.syncedCommit === commit && record.activeTaskId === undefined, `${pull} pull of ${branch}: branch record ${JSON.stringify(record)}`);
      const scope = { workspaceId, branch, entityType: 'rule' as const };
      const states = await store.listEntityStates(scope);
      const revised = states
        .filter((s) => s.revision === 2)
        .map((s) => s.id)
        .sort();
      const expectedRevised = pull === 'first' ? [] : edited.map((i) => syntheticRuleInput(i).id).sort();
      check(states.length === entities && states.every((s) => s.source === 'remote'), `${pull} pull of ${branch}: ${states.length} entities on the branch`);
      check(isDeepStrictEqual(revised, expectedRevised), `${pull} pull of ${branch}: entities at revision 2: ${revised.join(', ') || 'none'}`);
      const { totalCount } = await store.listEntities({ ...scope, pageNo: 1, pageSize: 1, sortBy: 'name', sortDir: 'asc' });
      check(totalCount === entities, `${pull} pull of ${branch}: the branch's counter says ${totalCount}`);

      const byPurpose: PullRun['byPurpose'] = {};
      const batchSizes: number[] = [];
      for (const { operation, body } of requests) {
        const wire = JSON.parse(body) as WireBody;
        tally((byPurpose[purposeOf(operation, wire)] ??= {}), operation);
        if (operation === 'BatchWriteItem') batchSizes.push(Object.values(wire.RequestItems ?? {}).reduce((n, items) => n + items.length, 0));
      }
      const run: PullRun = {
        pull,
        round,
        totalMs,
        fetchMs: fetchTime.ms,
        gitServerMs: gitRequests.reduce((sum, r) => sum + r.ms, 0),
        gitRequests: gitRequests.length,
        stateMs: stateTime.ms,
        writeMs: writeTime.ms,
        operations: operationsOf(requests),
        byPurpose,
        batchSizes,
        startOperations,
        summary,
      };
      log(
        `  round ${round}, ${pull} pull: ${(totalMs / 1000).toFixed(2)} s, ${batchSizes.length} BatchWriteItem (${batchSizes.reduce((a, b) => a + b, 0)} items), ${requests.length} requests in all`,
      );
      runs.push(run);
    };

    for (const [r, branch] of branches.entries()) {
      await addBranch(store, workspaceId, branch);
      const before = await store.listEntityStates({ workspaceId, branch, entityType: 'rule' });
      check(before.length === 0 && (await store.getBranchSync(workspaceId, branch))?.syncedCommit === undefined, `${branch} is not a new, empty branch`);
      await pullOnce('first', r + 1, branch, heads[branch]!, counts({ added: entities }));
      const next = await commitFiles(root, 'rules.git', branch, editedFiles, [], `Edit ${changed} rules`);
      await pullOnce('changed', r + 1, branch, next, counts({ updated: changed, unchanged: entities - changed }));
      await pullOnce('no-op', r + 1, branch, next, counts({ unchanged: entities }));
    }
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
  const repositoryBytes = Object.values(files).reduce((n, content) => n + Buffer.byteLength(content as string), 0);
  return { entities, changed, rounds, batchLimit, kinds, repositoryBytes, runs };
}
