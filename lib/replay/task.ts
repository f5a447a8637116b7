/**
 * What a replay's task holds besides what every task does, declared into the
 * store's task record (TaskKindData, lib/store/model/tasks.ts) from here,
 * beside the run that reads it (./run.ts).
 */
import type { ExecutionRange } from '../store/model/tasks.ts';

/** Where a replay's inputs come from: a rule's recorded executions in a window (newest `limit` of it), or a list given with the request. */
export type ReplaySource = { executions: { from: string; to: string; limit: number } } | { paramsList: { count: number } };

/** One side of a replay: `draft` or a version label, with the checksum it had when the replay was asked. */
export interface ReplaySide {
  label: string;
  checksum: string;
}

/** What a replay task holds (lib/replay): the rule, both sides, where its inputs come from, and the report once it ends. */
export interface ReplayTask {
  ruleId: string;
  candidate: ReplaySide;
  baseline: ReplaySide;
  source: ReplaySource;
  /** The inputs of a `paramsList` source as JSON text (any JSON a caller sent stores as it came), until the task ends. */
  paramsJson?: string;
  /** The ranges of executions each shard reads, by shard, recorded before their messages are sent; dropped when the task ends. */
  ranges?: ExecutionRange[];
  /** The report (lib/replay/report.ts) as JSON text, once completed. */
  reportJson?: string;
  /** Set on a replay the publish gate ran: its bound, and whether the draft passed it. */
  gate?: { maxChangedRatio: number; window: string; passed: boolean };
}

declare module '../store/model/tasks.ts' {
  interface TaskKindData {
    replay: { replay: ReplayTask };
  }
}
