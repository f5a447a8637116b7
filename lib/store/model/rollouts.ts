/**
 * A rule's candidate version and its rollout, as the rule's working copy
 * keeps them (so that execute reads them in the one read it makes), and the
 * disagreements a rollout keeps as a sample, items of their own that expire.
 */

/** A version published with `{"candidate": true}`: numbered and frozen like any, run only when asked for by version, or by a rollout, until it is promoted. */
export interface Candidate {
  version: string;
  checksum: string;
  /** The change request that published it, approved (lib/publishing/gate.ts): on a protected branch, only such a candidate is rolled out or promoted. */
  changeRequestId?: string;
}

export const rolloutModes = ['shadow', 'canary'] as const;
export type RolloutMode = (typeof rolloutModes)[number];

/** How a rollout stopped: ended by hand, its candidate promoted, or its candidate replaced by a publish. */
export const rolloutEndings = ['ended', 'promoted', 'superseded'] as const;
export type RolloutEnding = (typeof rolloutEndings)[number];

/** What trying the candidate on live executions is set to do; the last one stays on the record once it has stopped, for its results to be read. */
export interface Rollout {
  /** Names its counts and sample: a new rollout (another candidate or mode) starts them afresh. */
  id: string;
  candidate: string;
  mode: RolloutMode;
  /** Canary only: the share of executions the candidate serves, 1 to 50. */
  percent?: number;
  /** Canary only: the path in the params (`customer.id`) whose value picks the version, so that one customer always gets the same one. */
  stickyBy?: string;
  startedAt: string;
  startedBy: string;
  /** The last change of its percent or stickyBy. */
  updatedAt?: string;
  updatedBy?: string;
  endedAt?: string;
  endedBy?: string;
  ending?: RolloutEnding;
}

/** Whichever version answered the caller: the served version, or (canary) the candidate. */
export type RolloutArm = 'baseline' | 'candidate';

/** What one version gave on an execution: its output (or that it was too large to keep), or its failure. */
export interface VersionOutcome {
  version: string;
  output?: unknown;
  outputOmitted?: true;
  error?: { code: string; message: string };
}

/** An execution on which the candidate and the served version did not agree, as the sample keeps it. */
export interface RolloutSample {
  executionId: string;
  /** When the execution ran (ISO 8601, milliseconds): both versions ran as of this time. */
  at: string;
  servedBy: RolloutArm;
  /** The params as given. */
  input: unknown;
  baseline: VersionOutcome;
  candidate: VersionOutcome;
}

/** How long a sampled disagreement is kept. */
export const rolloutSampleRetentionDays = 7;

/** Whether the rollout still runs: execute acts only on one that does. */
export const isRunning = (rollout: Rollout | undefined): rollout is Rollout => rollout !== undefined && rollout.endedAt === undefined;
