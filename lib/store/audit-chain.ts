/**
 * The hash chain of the audit log: how a record is sealed to the one before
 * it, and how a reader checks that it still is. A record's hash covers every
 * field it holds (the workspace, its sequence number, its time, the hash of
 * the record before, and the event), in one canonical JSON text, so editing
 * any stored field, removing a record or reordering them shows.
 */
import { createHash } from 'node:crypto';
import type { AuditEvent, AuditHead, AuditRecord } from './model/audit.ts';

export const genesisHash = '0'.repeat(64);

/** JSON with every object's keys in order, so the same record always hashes the same, whatever order its fields were written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const recordHash = ({ hash: _hash, ...sealed }: Omit<AuditRecord, 'hash'> & { hash?: string }) =>
  createHash('sha256').update(canonical(sealed)).digest('hex');

/** The record that follows `head` (none: the first): the next number, a time no earlier than the head's, and the hashes. */
export function sealRecord(workspaceId: string, event: AuditEvent, head: AuditHead | undefined, now = new Date()): AuditRecord {
  const at = head && head.at > now.toISOString() ? head.at : now.toISOString();
  const sealed = { ...event, workspaceId, seq: (head?.seq ?? 0) + 1, at, prevHash: head?.hash ?? genesisHash, ...(head && { prevAt: head.at }) };
  return { ...sealed, hash: recordHash(sealed) };
}

/**
 * Why `record` does not follow `previous`, or undefined when it does. With
 * no `previous` (the oldest record kept), the records before it must have
 * been due to expire: `keptSince` is the time before which records may be gone.
 */
export function chainBreak(record: AuditRecord, previous: AuditRecord | undefined, keptSince: string): string | undefined {
  if (recordHash(record) !== record.hash) return 'its hash does not match its content: the record was changed after it was written';
  if (!previous) {
    if (record.seq === 1) return record.prevHash === genesisHash ? undefined : 'the first record does not start the chain';
    return record.prevAt !== undefined && record.prevAt >= keptSince
      ? `record ${record.seq - 1} is missing before it, and it was not due to expire`
      : undefined;
  }
  if (record.seq !== previous.seq + 1) return `record ${previous.seq + 1} is missing before it`;
  if (record.prevHash !== previous.hash) return 'it does not hold the hash of the record before it';
  if (record.at < previous.at) return 'it is dated before the record before it';
  return undefined;
}
