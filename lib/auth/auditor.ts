/**
 * Who is acting in a call, for the audit log: the key, its owner and role
 * (for a person signed in, their id, e-mail and role, and who the issuer says they are),
 * the operation and the request. A write hands the store an event made here
 * with what it wrote (target, checksums, facts), and the store records it in
 * the same transaction as the write (lib/store/dynamo/audit.ts).
 */
import { auditActorOf, type Principal } from './authenticate.ts';
import type { AuditActor, AuditEvent, AuditTarget, EntityRef } from '../store/types.ts';

export interface Auditor {
  actor: AuditActor;
  operation: string;
  requestId: string;
}

export const auditorOf = (principal: Principal, operation: string, requestId: string): Auditor => ({
  actor: auditActorOf(principal),
  operation,
  requestId,
});

export type AuditFacts = Pick<AuditEvent, 'checksumBefore' | 'checksumAfter' | 'detail'>;

/**
 * The event of `auditor`'s write to `target`; undefined when nobody audits
 * the writer (the CLI and the seed, which an operator runs against the table).
 */
export function auditEvent(auditor: Auditor | undefined, target: AuditTarget, facts: AuditFacts = {}): AuditEvent | undefined {
  if (!auditor) return undefined;
  return {
    ...auditor,
    target,
    outcome: 'ok',
    ...(facts.checksumBefore && { checksumBefore: facts.checksumBefore }),
    ...(facts.checksumAfter && { checksumAfter: facts.checksumAfter }),
    ...(facts.detail && { detail: facts.detail }),
  };
}

/** What the audit log names a rule or workflow by. */
export const entityTarget = (ref: EntityRef): AuditTarget => ({ type: ref.entityType, id: ref.id, branch: ref.branch });
