/**
 * The worker's part of a replay, a kind of task on the queue of lib/tasks.
 *
 * The task's first message plans: it claims the task (pending → in
 * progress, under a lease, as a pull's run does), cuts the window's
 * executions into ranges of at most `shardSize` by a walk of their keys
 * alone, records the ranges and the count of shards on the task, then sends
 * one message per shard, which workers take in parallel (a list of params,
 * or a window of one range, is replayed in that first message). Each shard
 * compiles both sides (refusing a draft edited since the replay was asked),
 * replays its range page by page, writes what it found once (a conditional
 * put keyed by task and shard), then records itself done on the task; the
 * shard that finds every shard done merges their parts into the report and
 * completes the task. A redelivered shard writes nothing new and is counted
 * once, and the merge, repeated, makes the same report, which the first
 * conditional completion keeps.
 *
 * A shard works at most `shardWorkMs`, below the worker's time limit
 * (lib/tasks/delivery.ts); one that would not finish in it fails the replay,
 * saying so. A transient failure (DynamoDB, SQS) hands the message back for
 * another delivery; on the last, or for any other failure, the replay fails.
 */
import { claimTask } from '../tasks/claim.ts';
import { isKind } from '../tasks/kinds.ts';
import { parseJson } from '../decimal/json.ts';
import { EngineError } from '../engine/index.ts';
import { ApiError } from '../vocabulary/errors.ts';
import { openTaskStates, type RuleScope, type Store, type Task } from '../store/types.ts';
import { taskDelivery } from '../tasks/delivery.ts';
import type { TaskMessage, TaskQueue } from '../tasks/queue.ts';
import type { Delivery, DeliveryOutcome } from '../tasks/worker.ts';
import { mergeParts, shownReport, type ReportPart, type SideUnits } from './report.ts';
import { compileSides, ReplayRefused } from './rules.ts';
import { rangeInputs, tallyShard, type ReplayInput } from './shard.ts';

export interface ReplayDeps {
  store: Store;
  queue: Pick<TaskQueue, 'send'>;
  /** How long the first message holds the task while it plans: longer than the worker's time limit. */
  leaseMs: number;
  /** Inputs a shard replays at most (replayBounds.shardSize; less in tests). */
  shardSize: number;
  /** How long one message may work. */
  shardWorkMs: number;
}

/** Failures no other delivery mends: the task fails at once with their message. */
const isRefusal = (error: unknown) => error instanceof ReplayRefused || error instanceof ApiError || error instanceof EngineError;

const scopeOf = (task: Task<'replay'>): RuleScope => ({ workspaceId: task.workspaceId, branch: task.branch, ruleId: task.replay.ruleId });

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/**
 * Records the shards: one for a list of params, one per range of the
 * window's executions (one, reading nothing, for a window without any).
 * Their deadline leaves time for every shard's message to be taken by the
 * workers of the queue in turn; each shard moves it on as it starts.
 */
async function recordShards(deps: ReplayDeps, task: Task<'replay'>): Promise<Task<'replay'> | undefined> {
  const replay = task.replay;
  const ranges =
    'executions' in replay.source
      ? await deps.store.splitExecutions(
          scopeOf(task),
          replay.source.executions,
          { limit: replay.source.executions.limit, rangeSize: deps.shardSize },
          new Date().toISOString(),
        )
      : undefined;
  const count = Math.max(ranges?.length ?? 1, 1);
  const planned = await deps.store.transitionTask(
    task.taskId,
    ['in-progress'],
    {
      replay: { ...replay, ...(ranges && { ranges }) },
      shards: { count, done: {} },
      dueAt: later(deps.leaseMs * (2 + Math.ceil(count / taskDelivery.maxConcurrency))),
    },
    { runId: task.runId },
  );
  return isKind(planned, 'replay') ? planned : undefined;
}

/** The inputs shard `shard` replays: the list's (at the time the replay was asked), or its range's executions (each at its own). */
function shardInputs(store: Store, task: Task<'replay'>, shard: number): Iterable<ReplayInput> | AsyncIterable<ReplayInput> {
  const replay = task.replay;
  if ('paramsList' in replay.source) {
    const clock = new Date(task.createdAt);
    return (parseJson(replay.paramsJson!) as unknown[]).map((params) => ({ params, clock }));
  }
  const range = replay.ranges?.[shard];
  return range ? rangeInputs(store, scopeOf(task), range) : [];
}

/** Merges the parts every shard wrote into the report, and completes the task with it: what the shard that found them all done does. */
async function complete(store: Store, task: Task<'replay'>, units: SideUnits) {
  let merged: ReportPart | undefined;
  for await (const json of store.readTaskParts(task.taskId)) {
    const part = parseJson(json) as ReportPart;
    merged = merged ? mergeParts([merged, part]) : part;
  }
  const report = shownReport(merged ?? mergeParts([]), units);
  // The inputs and ranges served the shards; the report takes their room in the task's item.
  const { paramsJson: _paramsJson, ranges: _ranges, ...kept } = task.replay;
  await store.transitionTask(task.taskId, ['in-progress'], {
    taskState: 'completed',
    finishedAt: new Date().toISOString(),
    replay: { ...kept, reportJson: JSON.stringify(report) },
  });
}

/** Replays shard `shard`, unless it is recorded done, then completes the task if every shard is. */
async function runShard(deps: ReplayDeps, task: Task<'replay'>, shard: number, deadline: number) {
  const ref = { workspaceId: task.workspaceId, branch: task.branch, entityType: 'rule' as const, id: task.replay.ruleId };
  const rules = await compileSides(deps.store, ref, task.replay);
  if (task.shards?.done[shard] === undefined) {
    // Each shard that starts moves the task's deadline on, so that the sweeper leaves a replay whose shards are still coming.
    const due = later(deps.leaseMs);
    if (!task.dueAt || task.dueAt < due) await deps.store.transitionTask(task.taskId, ['in-progress'], { dueAt: due });
    const part = await tallyShard(rules, shard, shardInputs(deps.store, task, shard), deadline);
    await deps.store.putTaskPart(task.taskId, shard, JSON.stringify(part));
  }
  const marked = await deps.store.markShardDone(task.taskId, shard, new Date().toISOString());
  if (isKind(marked, 'replay') && marked.shards && Object.keys(marked.shards.done).length >= marked.shards.count)
    await complete(deps.store, marked, rules.units);
}

/** Plans the replay (the task's first message), then replays its one shard or sends a message for each. */
async function plan(deps: ReplayDeps, claimed: Task<'replay'>, deadline: number) {
  const planned = claimed.shards ? claimed : await recordShards(deps, claimed);
  if (!planned?.shards) return;
  if (planned.shards.count === 1) return runShard(deps, planned, 0, deadline);
  // Sent again when a planner that stopped half way is taken over: a shard delivered twice counts once.
  for (let shard = 0; shard < planned.shards.count; shard++) await deps.queue.send({ taskId: planned.taskId, workspaceId: planned.workspaceId, shard });
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs one delivery of a replay task's message: its first (no shard), or a shard's. */
export async function runReplayTask(deps: ReplayDeps, task: Task<'replay'>, delivery: Delivery, message: TaskMessage): Promise<DeliveryOutcome> {
  const deadline = Date.now() + deps.shardWorkMs;
  const claimed = message.shard === undefined ? await claimTask(deps.store, task, deps.leaseMs) : task;
  if (!claimed) return 'done';
  try {
    if (message.shard === undefined) await plan(deps, claimed, deadline);
    else await runShard(deps, claimed, message.shard, deadline);
    return 'done';
  } catch (error) {
    if (!isRefusal(error) && delivery.attempt < delivery.maxAttempts) {
      // The first message's next delivery takes the task over at once; the sweeper waits for it (a lease and a visibility timeout).
      if (message.shard === undefined)
        await deps.store.transitionTask(
          task.taskId,
          ['in-progress'],
          { leaseUntil: new Date().toISOString(), dueAt: later(2 * deps.leaseMs) },
          { runId: claimed.runId },
        );
      return 'retry';
    }
    await deps.store.transitionTask(task.taskId, openTaskStates, { taskState: 'failed', finishedAt: new Date().toISOString(), error: describe(error) });
    return isRefusal(error) ? 'done' : 'dead-letter';
  }
}
