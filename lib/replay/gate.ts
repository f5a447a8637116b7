/**
 * The publish gate, opt-in per rule (`settings.replayGate`): before a new
 * version of a rule that is published already, the draft is replayed against
 * the latest published version over the window's recorded executions, in the
 * publish itself; when more than `maxChangedRatio` of them change outcome
 * (another output, or an answer where there was a failure or the other way
 * round) the publish is refused (409 replay_gate, with the report). The
 * replay is kept as a completed task either way, for GET /dev/v1/tasks/{id}.
 * A publish naming that task in `acknowledgeReplay` goes ahead: the key
 * already has `publish`, and the task shows what it accepted.
 *
 * Inline, it is bounded to fit a request: the newest `gateBounds.executions`
 * executions of the window. A change request of a rule with a gate runs the
 * same replay when it is proposed and keeps the task's id, so that its
 * reviewers see the report (lib/changes).
 */
import { randomUUID } from 'node:crypto';
import { isKind } from '../tasks/kinds.ts';
import { errors } from '../vocabulary/errors.ts';
import { ruleScopeOf, type EntityRef, type ExecutionStore, type EntityStore, type StoredEntity, type Task, type TaskStore } from '../store/types.ts';
import { gateBounds } from './bounds.ts';
import { durationMs } from '../vocabulary/duration.ts';
import { changedOutcomes, shownReport, type ReplayReport } from './report.ts';
import { compileSides } from './rules.ts';
import { rangeInputs, tallyShard } from './shard.ts';

export interface ReplayGate {
  maxChangedRatio: number;
  /** An ISO 8601 duration (./duration.ts), at most the executions' retention: the record schema checks it. */
  window: string;
}

type GateStore = EntityStore & ExecutionStore & TaskStore;

/** The rule's gate, when its draft has one and a version to compare with. */
function gateOf(draft: StoredEntity): ReplayGate | undefined {
  const gate = (draft.definition as { settings?: { replayGate?: ReplayGate } }).settings?.replayGate;
  return gate && draft.version ? gate : undefined;
}

/** Whether `report` keeps within `gate`: the share of inputs that change outcome is at most its bound (nothing replayed keeps within any). */
const withinGate = (report: ReplayReport, gate: ReplayGate) =>
  report.counts.inputs === 0 || changedOutcomes(report.counts) / report.counts.inputs <= gate.maxChangedRatio;

/** Replays the draft against the latest published version over the gate's window, now, and keeps it as a completed task. */
async function replayForGate(store: GateStore, ref: EntityRef, draft: StoredEntity, gate: ReplayGate) {
  const started = new Date();
  const candidate = { label: 'draft', checksum: draft.checksum };
  const baseline = { label: draft.version, checksum: draft.publishedChecksum };
  const executions = {
    from: new Date(started.getTime() - durationMs(gate.window)!).toISOString(),
    to: started.toISOString(),
    limit: gateBounds.executions,
  };
  const rules = await compileSides(store, ref, { candidate, baseline }, draft);
  const scope = ruleScopeOf(ref);
  const [range] = await store.splitExecutions(scope, executions, { limit: executions.limit, rangeSize: executions.limit }, executions.to);
  const report = shownReport(await tallyShard(rules, 0, range ? rangeInputs(store, scope, range) : []), rules.units);
  const passed = withinGate(report, gate);
  const task: Task<'replay'> = {
    kind: 'replay',
    taskId: randomUUID(),
    workspaceId: ref.workspaceId,
    branch: ref.branch,
    taskState: 'completed',
    createdAt: started.toISOString(),
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    replay: {
      ruleId: ref.id,
      candidate,
      baseline,
      source: { executions },
      reportJson: JSON.stringify(report),
      gate: { maxChangedRatio: gate.maxChangedRatio, window: gate.window, passed },
    },
  };
  await store.createTask(task);
  return { taskId: task.taskId, report, passed };
}

/** Refuses an `acknowledgeReplay` that does not name a completed replay of this draft against the latest published version, saying why. */
async function checkAcknowledgement(store: TaskStore, ref: EntityRef, draft: StoredEntity, taskId: string) {
  const task = await store.getTask(taskId);
  const replay = isKind(task, 'replay') && task.workspaceId === ref.workspaceId && task.branch === ref.branch ? task.replay : undefined;
  // Another workspace's task is as unknown as one that does not exist.
  if (!task || replay?.ruleId !== ref.id) throw errors.replayNotAcknowledgeable(taskId, `it is no replay of the rule "${ref.id}" on this branch.`);
  if (task.taskState !== 'completed') throw errors.replayNotAcknowledgeable(taskId, `the replay has not completed (it is ${task.taskState}).`);
  if (replay.candidate.checksum !== draft.checksum)
    throw errors.replayNotAcknowledgeable(taskId, 'it replayed other content than the draft holds now (the draft changed since): replay the draft again.');
  if (replay.baseline.label !== draft.version)
    throw errors.replayNotAcknowledgeable(
      taskId,
      `it compared with ${replay.baseline.label}, while the latest published version is ${draft.version}: replay again.`,
    );
}

/**
 * The gate of a publish of `draft` as the next version: nothing for a rule
 * without one (or never published); else the acknowledged replay's id,
 * once checked, or the id of the replay run now, which refuses the publish
 * when it changes too much.
 */
export async function replayGate(store: GateStore, ref: EntityRef, draft: StoredEntity, acknowledgeReplay?: string): Promise<string | undefined> {
  const gate = gateOf(draft);
  if (!gate) return undefined;
  if (acknowledgeReplay !== undefined) {
    await checkAcknowledgement(store, ref, draft, acknowledgeReplay);
    return acknowledgeReplay;
  }
  const { taskId, report, passed } = await replayForGate(store, ref, draft, gate);
  if (!passed)
    throw errors.replayGate(
      ref.id,
      { changed: changedOutcomes(report.counts), inputs: report.counts.inputs, maxChangedRatio: gate.maxChangedRatio },
      taskId,
      report,
    );
  return taskId;
}

/** For a change request's reviewers: the replay a publish of `draft` would run, when its rule has a gate; its task's id. */
export async function replayForReview(store: GateStore, ref: EntityRef, draft: StoredEntity): Promise<string | undefined> {
  const gate = gateOf(draft);
  return gate && (await replayForGate(store, ref, draft, gate)).taskId;
}
