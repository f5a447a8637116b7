/**
 * Asking for a replay: what can be checked at once is (the window within
 * the executions' retention, the rule and both sides there, a baseline to
 * compare with), each side is recorded with its checksum, and the task is
 * queued; the worker does the rest (./run.ts).
 */
import { randomUUID } from 'node:crypto';
import { errors } from '../vocabulary/errors.ts';
import { executionRetentionDays, type EntityRef, type EntityStore, type StoredEntity, type Task } from '../store/types.ts';
import { type ReplaySide, type ReplaySource } from './task.ts';
import { queueTask, type QueueDeps } from '../tasks/start.ts';
import { replayBounds } from './bounds.ts';
import type { ReplayRequest } from './schema.ts';

const dayMs = 24 * 3600_000;
/** How much older than the retention a `from` may be (clocks differ): executions older than it are gone anyway. */
const fromLeewayMs = dayMs;

const windowIssue = (field: 'from' | 'to', message: string) => errors.invalidRequest([{ in: 'body', field: `source.executions.${field}`, message }]);

/**
 * The window an executions source names, as the store's keys compare
 * times (ISO 8601 UTC, to the millisecond): `to` at the latest now, `from`
 * at the earliest the oldest execution kept.
 */
export function replayWindow(request: { from?: string; to?: string; limit?: number }, now: Date): ReplaySource {
  const retentionStart = now.getTime() - executionRetentionDays * dayMs;
  const to = Math.min(request.to === undefined ? now.getTime() : Date.parse(request.to), now.getTime());
  const from = request.from === undefined ? retentionStart : Date.parse(request.from);
  if (from < retentionStart - fromLeewayMs)
    throw windowIssue(
      'from',
      `must be within the last ${executionRetentionDays} days, as executions are kept no longer: leave it out to replay all that are kept`,
    );
  if (from >= to) throw windowIssue(request.to === undefined ? 'from' : 'to', 'must leave a window: from before to, and from before now');
  return {
    executions: {
      from: new Date(Math.max(from, retentionStart)).toISOString(),
      to: new Date(to).toISOString(),
      limit: request.limit ?? replayBounds.defaultLimit,
    },
  };
}

/** A side as named: the draft, or a published version that must exist; with the checksum it has now. */
async function sideOf(store: EntityStore, ref: EntityRef, rule: StoredEntity, label: string): Promise<ReplaySide> {
  if (label === 'draft') return { label, checksum: rule.checksum };
  const version = await store.getVersion(ref, label);
  if (!version) throw errors.versionNotFound(ref.entityType, ref.id, label);
  return { label, checksum: version.checksum };
}

/**
 * Queues a replay of the rule `ref` names; answers its task as a pull's
 * start does. The baseline is the latest published version unless named:
 * a rule never published has none (409 rule_not_published).
 */
export async function startReplay(deps: QueueDeps & { store: EntityStore }, ref: EntityRef, request: ReplayRequest, now = new Date()) {
  const source = request.source.paramsList ? { paramsList: { count: request.source.paramsList.length } } : replayWindow(request.source.executions!, now);
  const rule = await deps.store.getEntity(ref);
  if (!rule) throw errors.entityNotFound(ref.entityType, ref.id);
  const baselineLabel = request.baseline ?? rule.version;
  if (!baselineLabel) throw errors.ruleNotPublished(ref.id);
  const [candidate, baseline] = await Promise.all([sideOf(deps.store, ref, rule, request.candidate), sideOf(deps.store, ref, rule, baselineLabel)]);
  const task: Task<'replay'> = {
    kind: 'replay',
    taskId: randomUUID(),
    workspaceId: ref.workspaceId,
    branch: ref.branch,
    taskState: 'pending',
    createdAt: now.toISOString(),
    replay: {
      ruleId: ref.id,
      candidate,
      baseline,
      source,
      ...(request.source.paramsList && { paramsJson: JSON.stringify(request.source.paramsList) }),
    },
  };
  await queueTask(deps, task, 'The replay');
  return { taskId: task.taskId, taskState: task.taskState };
}
