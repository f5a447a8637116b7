/**
 * How the task queue hands tasks (pulls, pushes, asynchronous workflow runs,
 * replays) to the worker: one source for the stack's event source and the local runtime's
 * queue, so that what is measured locally is what is deployed.
 *
 * A task holds a worker while its Git host or provider answers, up to the
 * outbound bounds (a silent Git host: 3 s to connect, 5 s of silence). Ten
 * workers at once keep a few hostile remotes from occupying every worker
 * while still bounding what the queue can take of the account's Lambda
 * concurrency; the queue is fair across workspaces (each message's group is
 * its workspace), so a workspace with a backlog waits behind the quiet ones.
 *
 * The worker's time limit, and the lease, workflow run and shard bounds
 * reckoned from it, are written here alone: the stack gives the worker this timeout, and the
 * worker function and the local runtime read the rest from here.
 */
export const taskDelivery = {
  /** One task per invocation: a slow task never holds another back. */
  batchSize: 1,
  /** Workers at once (the event source's maximum concurrency). */
  maxConcurrency: 10,
  /** Receives of a message before it moves to the dead-letter queue; the worker fails the task on the last. */
  maxReceiveCount: 3,
  /**
   * The first retry of a transient failure waits this long, the next twice as
   * long: a remote that keeps failing ends its task within about 15 s of waits.
   */
  retryBaseSeconds: 5,
} as const;

/** The worker's time limit (its Lambda timeout): the longest a task holds a worker. */
const workerTimeoutMs = 5 * 60_000;
/** How long a run holds its task: a little longer than the worker may run, so a live run is never taken over. */
const leaseMs = workerTimeoutMs + 30_000;

export const taskTimes = {
  workerTimeoutMs,
  leaseMs,
  /**
   * The longest a workflow run goes (its own timeout may be shorter): 35 s
   * less than the lease, so it ends 5 s before the worker's time limit, in
   * time to record how it ended, and the sweeper never fails a run that is
   * still going.
   */
  workflowRunMs: leaseMs - 35_000,
  /**
   * The longest one message of a task split into shards may work (a replay's
   * shard evaluates until then at most): a minute less than the worker's time
   * limit, so that it ends in time to record how it ended.
   */
  shardWorkMs: workerTimeoutMs - 60_000,
} as const;
