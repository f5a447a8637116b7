/**
 * A replay's bounds, apart from its request schema so that the worker reads
 * them without building it: a list of params small enough to keep in the
 * task item (one DynamoDB item holds 400 KB), each as bounded as an
 * execute's; a count of executions that a replay of any size finishes, split
 * into shards of `shardSize`, each a message of the task queue.
 */
export const replayBounds = {
  /** Inputs of a `paramsList` at most… */
  maxParamsList: 1_000,
  /** …and their JSON together: kept in the task item until it ends. */
  maxParamsListBytes: 256 * 1024,
  /** Recorded executions replayed when `limit` is not given: the newest of the window. */
  defaultLimit: 10_000,
  maxLimit: 1_000_000,
  /** Inputs one shard evaluates, in one message of the task queue: at the measured rate, well within the worker's time limit (README.md). */
  shardSize: 5_000,
} as const;

export const gateBounds = {
  /** Executions a publish gate replays, the newest of its window: read and run on both sides within a publish request's time (README.md). */
  executions: 2_000,
} as const;

/** What a report keeps (./report.ts), so that it stays small whatever the replay's size. */
export const reportBounds = {
  /** Changed cases a report shows: the first in input order. */
  sampleCases: 20,
  /** A shown case's JSON at most; past it, its input, answers and error messages are left out (its execution id, rows and error codes stay). */
  caseBytes: 6 * 1024,
  /** Names of the rows, entries or branches a shown case lists for each side. */
  caseHits: 10,
  /** Output fields a report tallies, the first in text order: far more than a rule answers (a decision table has at most 50 outputs). */
  trackedFields: 300,
  /** Output fields a report lists: those changed most often. */
  listedFields: 100,
  /** JSON of the rows, entries or branches a report lists for each side; those past it are counted, not listed. */
  listedUnitsBytes: 50 * 1024,
} as const;
