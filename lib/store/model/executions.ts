/** The record of each run of a rule or a workflow, by whose runs they are, and how long the store keeps them. */
import type { EntityRef } from './entities.ts';

/** The rule of a branch whose executions are meant. */
export interface RuleScope {
  workspaceId: string;
  branch: string;
  ruleId: string;
}

/** The rule an entity reference names, for what is kept per rule (executions, schedule). */
export const ruleScopeOf = (ref: EntityRef): RuleScope => ({ workspaceId: ref.workspaceId, branch: ref.branch, ruleId: ref.id });

/** The workflow of a branch whose executions are meant. */
export interface WorkflowScope {
  workspaceId: string;
  branch: string;
  workflowId: string;
}

/** Whose executions: a rule's or a workflow's. */
export type ExecutionScope = RuleScope | WorkflowScope;

/** The scope of the executions of the rule or workflow an entity reference names. */
export const executionScopeOf = (ref: EntityRef): ExecutionScope =>
  ref.entityType === 'workflow' ? { workspaceId: ref.workspaceId, branch: ref.branch, workflowId: ref.id } : ruleScopeOf(ref);

/** What became of a step of a workflow run. */
export const stepStatuses = ['succeeded', 'failed', 'skipped'] as const;

/** One step of a recorded workflow run, as the run's answer gives it. */
export interface StepRecord {
  id: string;
  type: string;
  status: (typeof stepStatuses)[number];
  durationMs: number;
  output?: unknown;
  error?: string;
}

/** One run of a rule or a workflow, as recorded. */
export interface Execution {
  executionId: string;
  /** The rule that ran, for a rule's execution… */
  ruleId?: string;
  /** …or the workflow, with its steps. */
  workflowId?: string;
  steps?: StepRecord[];
  version: string;
  /** What started it: an API call, or its schedule. */
  trigger: 'api' | 'schedule';
  /** A scheduled run's due time (ISO 8601 UTC, to the second): it keys the record, so a second delivery of the run records nothing. */
  scheduledTime?: string;
  outcome: 'succeeded' | 'failed';
  /** The params as given. */
  input: unknown;
  /** The rule's answer, when it succeeded and was small enough to keep (see `outputOmitted`). */
  output?: unknown;
  /** Set when the answer was larger than an execution keeps; the caller got it whole. */
  outputOmitted?: boolean;
  /** Why it failed: the engine's code and message. */
  error?: { code: string; message: string };
  durationMs: number;
  startedAt: string;
  finishedAt: string;
  /** When the record is deleted: the store keeps executions for a fixed time (its README says how long). */
  expiresAt: string;
}

/** How long an execution is kept: the store deletes its record (time to live) this long after it started. */
export const executionRetentionDays = 30;
