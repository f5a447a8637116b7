/**
 * Maker-checker: a branch's protection (how many people must approve a
 * change before it is published there) and the change requests that carry a
 * draft to publication. Approvals are kept by owner, so one person approves
 * once however many keys they hold.
 */
import type { EntityType } from '../../vocabulary/kinds.ts';

export interface BranchProtection {
  /** Distinct owners, other than the author, who must approve: 1 to 5. */
  requiredApprovals: number;
  updatedAt: string;
}

export const changeRequestStates = ['open', 'rejected', 'published'] as const;
export type ChangeRequestState = (typeof changeRequestStates)[number];

export interface Approval {
  owner: string;
  /** The key's id; for a person, their id (`person_…`). */
  keyId: string;
  comment: string;
  at: string;
  /** Set when a person signed in gave it: who they are, and the groups their token named, by which it is weighed again at publish. */
  person?: { issuer: string; subject: string; email?: string; groups: string[] };
}

/** What changed from the latest published version to the proposed draft, field by field (at most `recordDiffLimit` entries). */
export interface FieldChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

export interface ChangeRequest {
  id: string;
  workspaceId: string;
  branch: string;
  entityType: EntityType;
  entityId: string;
  /** The draft proposed: an edit after this makes the request stale. */
  checksum: string;
  description: string;
  /** The version it changes ('' when never published) and its checksum. */
  baseVersion: string;
  baseChecksum: string;
  /**
   * The newest version the entity had when it was proposed, served or
   * candidate (absent on requests proposed before it was kept: their
   * baseVersion stands in). A version published after it makes the request
   * stale for good.
   */
  newestVersion?: string;
  author: { owner: string; keyId: string };
  createdAt: string;
  state: ChangeRequestState;
  /** By owner. */
  approvals: Record<string, Approval>;
  rejection?: Approval;
  /** The version it was published as. */
  publishedVersion?: string;
  closedAt?: string;
  diff: FieldChange[];
  /** The diff was cut at its limit. */
  diffTruncated: boolean;
  /** The draft's test cases, run when it was proposed. */
  tests: { total: number; failed: number; failures: { name: string; message: string }[] };
  /** For a rule with a replay gate: the replay of the draft run when it was proposed (a completed task, lib/replay/gate.ts). */
  replayTaskId?: string;
}
