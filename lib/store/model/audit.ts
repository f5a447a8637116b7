/**
 * The audit log: one record per write and per refusal, chained per workspace.
 * A write's record is stored in the same transaction as the write itself, so
 * either both exist or neither does; the store adds the sequence number, the
 * time and the hashes (`../audit-chain.ts`) when it appends.
 */

/** Who acted: the key, the person or system it belongs to, and its role at the time. */
export interface AuditActor {
  /** A person signed in with their token, a key (a personal key too), or the service's own background work; absent in records written before kinds. */
  kind?: 'person' | 'key' | 'service';
  /** The key's id; a person's id (`person_…`) for a person. */
  keyId: string;
  owner: string;
  role: string;
  /** Who the issuer says the person is, with their e-mail and name then: the person signed in, or the person of a personal key. */
  person?: { issuer: string; subject: string; email?: string; name?: string };
}

/** What was acted on: its type (rule, workflow, credential, integration, key, remote, branch, schedule, task), id and branch where it has them. */
export interface AuditTarget {
  type: string;
  id?: string;
  branch?: string;
}

export const auditOutcomes = ['ok', 'forbidden'] as const;
export type AuditOutcome = (typeof auditOutcomes)[number];

/** What an operation tells the log about itself. */
export interface AuditEvent {
  actor: AuditActor;
  /** The operation's id in the route table (createEntity, publishEntity, ...), or the background work's name (pullApplied). */
  operation: string;
  target: AuditTarget;
  requestId: string;
  outcome: AuditOutcome;
  checksumBefore?: string;
  checksumAfter?: string;
  /** A few facts particular to the operation (the version published, the permission refused, a pull's counts): never a secret. */
  detail?: Record<string, string | number | boolean>;
}

/** A stored record: the event, where it stands in its workspace's chain, when, and the hashes that bind it there. */
export interface AuditRecord extends AuditEvent {
  workspaceId: string;
  /** 1, 2, 3, ... per workspace, without gaps. */
  seq: number;
  /** When it was appended; never earlier than the record before it, so a time range is a range of the chain. */
  at: string;
  /** The hash of the record before (64 zeros for the first). */
  prevHash: string;
  /** When the record before was appended: whether it should still be kept, when it is missing. */
  prevAt?: string;
  /** SHA-256 of `prevHash` and everything else the record holds. */
  hash: string;
}

/** The newest record of a workspace's chain, kept on its own item: the next record is written on condition that it is still the newest. */
export interface AuditHead {
  seq: number;
  hash: string;
  at: string;
}

/** How long records are kept (DynamoDB's TTL deletes them after): the stack sets AUDIT_RETENTION_DAYS, 400 days unless told. */
export const defaultAuditRetentionDays = 400;
export const auditRetentionDays = (env: NodeJS.ProcessEnv = process.env) => Number(env.AUDIT_RETENTION_DAYS || defaultAuditRetentionDays);
