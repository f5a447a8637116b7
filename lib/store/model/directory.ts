/** What every request is checked against before it reads or writes anything (lib/auth; kept warm by ../cached-directory.ts): the workspace, its branches, the API keys that open it. */
import type { Role } from '../../vocabulary/permissions.ts';
import type { BranchProtection } from './change-requests.ts';

export interface Workspace {
  id: string;
  name: string;
  defaultBranch: string;
  createdAt: string;
  /** Who among the people the issuer signs in may do what here (lib/workspaces/access.ts); absent, no one. */
  access?: WorkspaceAccess;
}

/** A role, limited or not to some branches, as a key has one. */
export interface Grant {
  role: Role;
  branches?: string[];
}

/** The people of a workspace: IdP groups and single people (by verified e-mail), each given a role. */
export interface WorkspaceAccess {
  groups: (Grant & { group: string })[];
  people: (Grant & { email: string })[];
  /** Whether API keys still approve change requests here: only in a workspace whose mapping names no group or person yet (lib/changes/approvals.ts); absent, they do not. */
  keyApprovals?: boolean;
  updatedAt: string;
}

export interface Branch {
  workspaceId: string;
  name: string;
  createdAt: string;
  /** Set on a protected branch: nothing is published there but through an approved change request. */
  protection?: BranchProtection;
}

export interface ApiKey {
  keyId: string;
  workspaceId: string;
  label: string;
  /** What it may do (lib/vocabulary/permissions.ts); a key made before roles has none stored, and is an admin. */
  role?: Role;
  /** The person or system it belongs to: approvals and the audit log name owners. */
  owner?: string;
  /** The branches it is limited to; absent, every branch. */
  branches?: string[];
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
  /** The key that made it or last changed its owner, which answers for that owner (lib/auth/vouching.ts); absent for a key the operator made. */
  vouchedBy?: string;
  /** When it first proposed or approved a change request: from then on its owner cannot change. */
  ownerFixedAt?: string;
  /** Set on a personal key: the person who made it, signed in, and the groups their token named then; it works while their grants still cover it. */
  person?: { issuer: string; subject: string; email?: string; groups: string[] };
}

/** What an update may change in a key: a field given null is taken away. */
export type ApiKeyChange = { [F in 'label' | 'owner' | 'role' | 'branches' | 'expiresAt' | 'revokedAt' | 'vouchedBy' | 'ownerFixedAt']?: ApiKey[F] | null };
