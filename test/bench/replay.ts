/**
 * Replay's throughput (issue 23), against the local runtime's embedded
 * DynamoDB, in this process:
 *
 * - evaluating both sides of a replay, inputs in memory: the floor;
 * - one worker message of a shard (`replayBounds.shardSize` inputs): its
 *   executions read page by page, both sides evaluated, its part written and
 *   counted, as the worker runs it (`runReplayTask`); and the first message,
 *   which walks the window's keys and plans the shards;
 * - a replay end to end through the task on the local runtime (POST
 *   .../replay, the queue and worker, GET the task until it completed);
 * - the publish gate's inline replay of its newest `gateBounds.executions`.
 *
 * For a decision table of 50 rows and the engine bench's 1,000-row range
 * table, each replaying recorded executions of random inputs against a
 * draft whose every fifth row answers differently. `npm run bench` runs it
 * with the other sections, in a process of its own (./apart.ts); `npm run
 * bench:replay` runs it alone and rewrites only its section of RESULTS.md.
 */
import './log-level.ts';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { DecisionTableDefinition } from '../../lib/engine/definitions.ts';
import { createEntity, updateEntity } from '../../lib/authoring/save.ts';
import { publishDraft } from '../../lib/publishing/publish.ts';
import { replayBounds, gateBounds } from '../../lib/replay/bounds.ts';
import { replayForReview } from '../../lib/replay/gate.ts';
import { compileSides } from '../../lib/replay/rules.ts';
import { runReplayTask } from '../../lib/replay/run.ts';
import { startReplay } from '../../lib/replay/start.ts';
import { tallyShard } from '../../lib/replay/shard.ts';
import type { EntityRef, Store } from '../../lib/store/types.ts';
import { taskTimes } from '../../lib/tasks/delivery.ts';
import type { TaskMessage } from '../../lib/tasks/queue.ts';
import { createApiKey, createWorkspace } from '../../lib/workspaces/admin.ts';
import { seeded } from '../helpers/seeded.ts';
import { figuresApart } from './apart.ts';
import { benchTables, type Params, type TableSpec } from './engine.ts';
import { putSection } from './results-file.ts';
import { storedTask } from '../helpers/store.ts';

export const replaySettings = { executions: 10_000, seed: 20_260_501 } as const;
const workspaceId = 'replay-bench';
const actor = 'bench';

/** The engine bench's range table cut to 50 rows, its inputs to match. */
function fiftyRows(): TableSpec {
  const range = benchTables()[1]!;
  return {
    ...range,
    title: '50 rows, range cells, 2 inputs',
    definition: { ...range.definition, rules: range.definition.rules.slice(0, 50) },
    candidate: (random) => ({ score: Math.floor(random() * 520) - 10, amount: Math.floor(random() * 110_000) / 100 }),
  };
}

/** The draft replayed: every fifth row's rate raised by 0.25. */
const edited = (definition: DecisionTableDefinition): DecisionTableDefinition => ({
  ...definition,
  rules: definition.rules.map((row, r) => (r % 5 ? row : { ...row, then: [Number(row.then[0]) + 0.25, row.then[1]!] })),
});

export interface ReplayFigures {
  table: string;
  rows: number;
  inMemory: { inputs: number; ms: number };
  plan: { executions: number; shards: number; ms: number };
  shard: { inputs: number; ms: number };
  lastShard: { inputs: number; ms: number };
  endToEnd: { inputs: number; ms: number; shards: number };
  gate: { inputs: number; ms: number };
}

/** Publishes the table as v1, saves its edit as the draft, and records `count` executions of random inputs in the last hour. */
async function prepare(store: Store, spec: TableSpec, id: string, count: number) {
  const scope = { workspaceId, branch: 'main', entityType: 'rule' as const };
  const ref: EntityRef = { ...scope, id };
  const record = { id, name: `Replay bench ${id}`, type: 'decisionTable', definition: spec.definition };
  const { saved } = await createEntity(store, scope, record, actor);
  await publishDraft(store, ref, { checksum: saved.checksum }, actor);
  await updateEntity(store, ref, { checksum: saved.checksum, definition: edited(spec.definition) as unknown as Record<string, unknown> }, actor);
  const random = seeded(replaySettings.seed);
  const inputs: Params[] = Array.from({ length: count }, () => spec.candidate(random));
  const start = Date.now() - 3600_000;
  for (let at = 0; at < count; at += 25)
    await Promise.all(
      inputs.slice(at, at + 25).map((input, k) => {
        const startedAt = new Date(start + ((at + k) * 3600_000) / count).toISOString();
        return store.putExecution(
          { workspaceId, branch: 'main', ruleId: id },
          {
            executionId: `exec_${id}_${at + k}`,
            ruleId: id,
            version: 'v1',
            trigger: 'api',
            outcome: 'succeeded',
            input,
            output: {},
            durationMs: 0.01,
            startedAt,
            finishedAt: startedAt,
          },
        );
      }),
    );
  return { ref, inputs };
}

const timed = async <T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> => {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
};

/** Follows a task through the API until it ended. */
async function untilEnded(url: string, key: string, taskId: string) {
  for (;;) {
    const answer = (await (await fetch(`${url}/dev/v1/tasks/${taskId}`, { headers: { 'Service-API-Key': key } })).json()) as {
      data: { taskState: string; error?: string; shards?: { count: number }; replay: { report: { counts: { inputs: number } } } };
    };
    if (answer.data.taskState === 'completed') return answer.data;
    if (answer.data.taskState === 'failed') throw new Error(`the replay failed: ${answer.data.error}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function measureTable(
  runtime: { url: string; store: Store },
  key: string,
  spec: TableSpec,
  id: string,
  log: (m: string) => void,
): Promise<ReplayFigures> {
  const { store } = runtime;
  log(`replay: recording ${replaySettings.executions.toLocaleString('en')} executions of ${spec.title}`);
  const { ref, inputs } = await prepare(store, spec, id, replaySettings.executions);
  const draft = (await store.getEntity(ref))!;
  const sides = { candidate: { label: 'draft', checksum: draft.checksum }, baseline: { label: 'v1', checksum: draft.publishedChecksum } };
  const rules = await compileSides(store, ref, sides);
  const clock = new Date();
  const inMemory = inputs.slice(0, replayBounds.shardSize).map((params) => ({ params, clock }));
  // Untimed first: the engine's code warm, as in a busy worker.
  await tallyShard(rules, 0, inMemory);
  const memory = await timed(() => tallyShard(rules, 0, inMemory));

  // The worker's runs of each message, one after the other, the shard messages caught rather than queued.
  log('replay: one message at a time');
  const sent: TaskMessage[] = [];
  const deps = {
    store,
    queue: { send: async (m: TaskMessage) => void sent.push(m) },
    leaseMs: taskTimes.leaseMs,
    shardSize: replayBounds.shardSize,
    shardWorkMs: taskTimes.shardWorkMs,
  };
  const { taskId } = await startReplay({ store, queue: { send: async () => undefined } }, ref, { candidate: 'draft', source: { executions: {} } });
  const delivery = { attempt: 1, maxAttempts: 3 };
  const plan = await timed(async () => runReplayTask(deps, await storedTask(store, taskId, 'replay'), delivery, { taskId, workspaceId }));
  const shards = sent.length;
  const runShard = (message: TaskMessage) => timed(async () => runReplayTask(deps, await storedTask(store, taskId, 'replay'), delivery, message));
  const first = await runShard(sent[0]!);
  for (const message of sent.slice(1, -1)) await runShard(message);
  const last = await runShard(sent.at(-1)!);
  const task = await storedTask(store, taskId, 'replay');
  if (task.taskState !== 'completed') throw new Error(`the replay did not complete: ${task.error}`);

  log('replay: end to end through the local runtime');
  const replayed = async () => {
    const asked = await fetch(`${runtime.url}/dev/v1/rule/${id}/replay`, {
      method: 'POST',
      headers: { 'Service-API-Key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ candidate: 'draft', source: { executions: {} } }),
    });
    const { data } = (await asked.json()) as { data: { taskId: string } };
    return untilEnded(runtime.url, key, data.taskId);
  };
  // Untimed first: the functions loaded, as in a warm deployment.
  await replayed();
  const endToEnd = await timed(replayed);
  if (endToEnd.result.replay.report.counts.inputs !== replaySettings.executions)
    throw new Error(`the replay replayed ${endToEnd.result.replay.report.counts.inputs} executions, not ${replaySettings.executions}`);

  log('replay: the publish gate, inline');
  const gate = await timed(() => replayForGate(store, ref));
  const perShard = (n: number) => Math.min(replayBounds.shardSize, replaySettings.executions - n * replayBounds.shardSize);
  return {
    table: spec.title,
    rows: spec.definition.rules.length,
    inMemory: { inputs: inMemory.length, ms: memory.ms },
    plan: { executions: replaySettings.executions, shards, ms: plan.ms },
    shard: { inputs: perShard(0), ms: first.ms },
    lastShard: { inputs: perShard(shards - 1), ms: last.ms },
    endToEnd: { inputs: replaySettings.executions, ms: endToEnd.ms, shards: endToEnd.result.shards?.count ?? 0 },
    gate: { inputs: Math.min(gateBounds.executions, replaySettings.executions), ms: gate.ms },
  };
}

/** The replay a publish gate runs, timed as a change request runs it (the same replay, kept, without refusing). */
async function replayForGate(store: Store, ref: EntityRef) {
  const draft = (await store.getEntity(ref))!;
  const gated = { ...draft, definition: { ...draft.definition, settings: { replayGate: { maxChangedRatio: 1, window: 'P1D' } } } };
  return replayForReview(store, ref, gated);
}

const figuresFileVariable = 'BENCH_REPLAY_FIGURES_FILE';

/** What run.ts calls: the section in a process of its own, as it starts the local runtime. */
export function measureReplayApart(log: (message: string) => void): Promise<ReplayFigures[]> {
  log('replay: in a process of its own');
  return figuresApart<ReplayFigures[]>(fileURLToPath(import.meta.url), figuresFileVariable, 'the replay bench');
}

export async function measureReplay(log: (message: string) => void = console.log): Promise<ReplayFigures[]> {
  // Imported only here: run.ts imports this file for measureReplayApart, and its process must not load the runtime.
  const { startLocalRuntime } = await import('../../lib/local/runtime.ts');
  const runtime = await startLocalRuntime({ seed: false, port: 0, dynamoPort: 0 });
  try {
    await createWorkspace(runtime.store, { id: workspaceId });
    const { key } = await createApiKey(runtime.store, workspaceId, { label: 'bench', role: 'admin' });
    const figures: ReplayFigures[] = [];
    for (const [spec, id] of [
      [fiftyRows(), 'fifty'],
      [benchTables()[1]!, 'thousand'],
    ] as const)
      figures.push(await measureTable(runtime, key, spec, id, log));
    return figures;
  } finally {
    await runtime.close();
  }
}

const perSecond = (inputs: number, ms: number) => Math.round((inputs / ms) * 1000).toLocaleString('en');
const seconds = (ms: number) => (ms / 1000).toFixed(2);

export function replayMarkdown(figures: ReplayFigures[]): string {
  const rows = figures.flatMap((f) => [
    `| ${f.table} | both sides evaluated, inputs in memory | ${f.inMemory.inputs.toLocaleString('en')} | ${seconds(f.inMemory.ms)} | ${perSecond(f.inMemory.inputs, f.inMemory.ms)} |`,
    `| | first message: keys of the window walked, ${f.plan.shards} shards planned and sent | ${f.plan.executions.toLocaleString('en')} | ${seconds(f.plan.ms)} | |`,
    `| | **one shard's message**: both sides compiled, executions read page by page and evaluated, its part written and counted | ${f.shard.inputs.toLocaleString('en')} | ${seconds(f.shard.ms)} | **${perSecond(f.shard.inputs, f.shard.ms)}** |`,
    `| | the last shard's message, which merges the parts and completes the task | ${f.lastShard.inputs.toLocaleString('en')} | ${seconds(f.lastShard.ms)} | ${perSecond(f.lastShard.inputs, f.lastShard.ms)} |`,
    `| | end to end on the local runtime: POST .../replay to the task completed (${f.endToEnd.shards} shards) | ${f.endToEnd.inputs.toLocaleString('en')} | ${seconds(f.endToEnd.ms)} | ${perSecond(f.endToEnd.inputs, f.endToEnd.ms)} (${perSecond(2 * f.endToEnd.inputs, f.endToEnd.ms)} evaluations/s) |`,
    `| | the publish gate's inline replay of the newest executions of its window | ${f.gate.inputs.toLocaleString('en')} | ${seconds(f.gate.ms)} | ${perSecond(f.gate.inputs, f.gate.ms)} |`,
  ]);
  const fifty = figures[0]!;
  const rate = fifty.shard.inputs / fifty.shard.ms;
  return [
    '## Replay (issue 23)',
    '',
    `In this process, against the local runtime's embedded DynamoDB (dynalite): ${replaySettings.executions.toLocaleString('en')} executions recorded in the last hour, of random inputs, replayed on a draft whose every fifth row answers 0.25 more than v1. A shard is at most ${replayBounds.shardSize.toLocaleString('en')} inputs, one message of the task queue; the messages are run here one after the other (the first plans), then the whole replay goes through the local runtime's queue and worker (warm: after one untimed replay), whose messages run at once in this one process. Inputs/s count inputs, each evaluated on both sides. Each message compiles both sides, the draft from its text (the FEEL parser): for the 1,000-row table that is most of a message's time.`,
    '',
    '| Table | What | Inputs | Time (s) | Inputs/s |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `At the rate of one shard's message for the 50-row table, a message works ${seconds(fifty.shard.ms)} s of its ${taskTimes.shardWorkMs / 1000} s bound (\`taskTimes.shardWorkMs\`, a minute under the worker's time limit): the bound would hold ${Math.floor(rate * taskTimes.shardWorkMs).toLocaleString('en')} inputs, ${Math.floor((rate * taskTimes.shardWorkMs) / replayBounds.shardSize)}× a shard. Deployed, the worker runs up to 10 messages at once (\`taskDelivery.maxConcurrency\`), each in its own Lambda function: about ${Math.round(rate * 10_000).toLocaleString('en')} inputs/s for a large window (DynamoDB reads there are faster than dynalite's; the figure is this machine's). The gate's inline replay must fit a publish request (10 s): ${gateBounds.executions.toLocaleString('en')} executions at most.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureReplay();
  const file = process.env[figuresFileVariable];
  if (file) await writeFile(file, JSON.stringify(figures));
  else {
    const markdown = replayMarkdown(figures);
    await putSection('## Replay (issue 23)', `${markdown}\n`);
    console.log(`\n${markdown}\n`);
  }
}
