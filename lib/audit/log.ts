/**
 * Reading the audit log: a filtered page newest first, the check of its hash
 * chain, and the export for a SIEM. Records are numbered without gaps and
 * their times never go back, so a time bound is found by a binary search over
 * the numbers (a few reads), and a page reads only the records it walks.
 */
import * as z from 'zod/mini';
import { integer, optionalInteger } from '../http/paging.ts';
import { instant } from '../http/queries.ts';
import { chainBreak } from '../store/audit-chain.ts';
import { auditOutcomes, auditRetentionDays, type AuditRecord, type AuditStore } from '../store/types.ts';

const field = z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(256, 'must be at most 256 characters'));

export const auditListQuery = z.object({
  from: z.optional(instant().register(z.globalRegistry, { description: 'records at or after this time' })),
  to: z.optional(instant().register(z.globalRegistry, { description: 'records before this time' })),
  owner: z.optional(field),
  keyId: z.optional(field),
  operation: z.optional(field),
  targetType: z.optional(field),
  targetId: z.optional(field),
  branch: z.optional(field),
  outcome: z.optional(z.enum(auditOutcomes)),
  limit: integer(1, 100, 50, 'records per page'),
  before: optionalInteger(2, Number.MAX_SAFE_INTEGER, 'the `next` of the page before: records older than it'),
});
export type AuditListQuery = z.output<typeof auditListQuery>;

export const auditExportQuery = z.object({
  from: z.optional(instant().register(z.globalRegistry, { description: 'records at or after this time' })),
  to: z.optional(instant().register(z.globalRegistry, { description: 'records before this time' })),
  after: optionalInteger(0, Number.MAX_SAFE_INTEGER, 'the Audit-Next-After of the part before: records after it'),
});

/** Where an export part says where the next starts. */
export const auditNextAfterHeader = 'audit-next-after';

/** What one page reads at most, however few records match: a filter that matches little answers a `next` to go on from. */
export const auditLimits = { pageReads: 2_000, readChunk: 200, exportRecords: 5_000, exportBytes: 5 * 1024 * 1024, verifyChunk: 1_000 };

/** The number of the first record at or after `time` (one past the newest when none is), by a binary search over the kept records. */
async function firstAtOrAfter(store: AuditStore, workspaceId: string, time: string, newest: number): Promise<number> {
  let low = 1;
  let high = newest + 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    // The first kept record from `middle` on: expired ones are gone from the start of the chain only.
    const [found] = await store.readAudit(workspaceId, { after: middle - 1, limit: 1 });
    if (!found || found.at >= time) high = middle;
    else low = found.seq + 1;
  }
  return low;
}

const matches = (record: AuditRecord, query: AuditListQuery) =>
  (!query.owner || record.actor.owner === query.owner) &&
  (!query.keyId || record.actor.keyId === query.keyId) &&
  (!query.operation || record.operation === query.operation) &&
  (!query.targetType || record.target.type === query.targetType) &&
  (!query.targetId || record.target.id === query.targetId) &&
  (!query.branch || record.target.branch === query.branch) &&
  (!query.outcome || record.outcome === query.outcome);

/**
 * One page of the workspace's records, newest first, with the filters; `next`
 * is where the next page starts (`before`), null at the end.
 *
 * @example
 * await listAudit(store, 'ws_demo', { operation: 'publishEntity', limit: 20 }); // { records: [...], next: 4711 }
 */
export async function listAudit(
  store: AuditStore,
  workspaceId: string,
  query: AuditListQuery,
  /** A key limited to branches reads only the records of its branches (none of what is workspace-wide). */
  limitedTo?: readonly string[],
): Promise<{ records: AuditRecord[]; next: number | null }> {
  const shown = (record: AuditRecord) => !limitedTo || (record.target.branch !== undefined && limitedTo.includes(record.target.branch));
  const head = await store.getAuditHead(workspaceId);
  if (!head) return { records: [], next: null };
  let before = Math.min(query.before ?? head.seq + 1, head.seq + 1);
  if (query.to) before = Math.min(before, await firstAtOrAfter(store, workspaceId, new Date(query.to).toISOString(), head.seq));
  const from = query.from && new Date(query.from).toISOString();
  const records: AuditRecord[] = [];
  for (let read = 0; read < auditLimits.pageReads && before > 1;) {
    const chunk = await store.readAudit(workspaceId, { before, limit: Math.min(auditLimits.readChunk, auditLimits.pageReads - read) });
    if (!chunk.length) return { records, next: null };
    for (const record of chunk) {
      if (from && record.at < from) return { records, next: null };
      before = record.seq;
      read++;
      if (matches(record, query) && shown(record) && records.push(record) === query.limit) return { records, next: before > 1 ? before : null };
    }
  }
  return { records, next: before > 1 ? before : null };
}

export interface ChainCheck {
  intact: boolean;
  /** How many records were checked, and the first and last of them. */
  checked: number;
  first: number | null;
  last: number | null;
  head: { seq: number; hash: string } | null;
  /** The first record that does not fit, and why. */
  break?: { seq: number; reason: string };
}

/**
 * Recomputes the chain from its oldest kept record to its head: each
 * record's hash, its link to the one before, and the head's link to the
 * newest. Names the first record that does not fit.
 */
export async function verifyAudit(store: AuditStore, workspaceId: string, now = Date.now()): Promise<ChainCheck> {
  const head = await store.getAuditHead(workspaceId);
  const keptSince = new Date(now - auditRetentionDays() * 86_400_000).toISOString();
  let previous: AuditRecord | undefined;
  let first: number | null = null;
  let checked = 0;
  const answer = (fault?: { seq: number; reason: string }): ChainCheck => ({
    intact: !fault,
    checked,
    first,
    last: previous?.seq ?? null,
    head: head ? { seq: head.seq, hash: head.hash } : null,
    ...(fault && { break: fault }),
  });
  for (;;) {
    const chunk = await store.readAudit(workspaceId, { after: previous?.seq ?? 0, limit: auditLimits.verifyChunk });
    for (const record of chunk) {
      const reason = chainBreak(record, previous, keptSince);
      if (reason) return answer({ seq: record.seq, reason });
      first ??= record.seq;
      previous = record;
      checked++;
    }
    if (chunk.length < auditLimits.verifyChunk) break;
  }
  if (!head) return previous ? answer({ seq: previous.seq, reason: 'the chain has records but no head' }) : answer();
  if (!previous || previous.seq < head.seq)
    return answer({ seq: (previous?.seq ?? 0) + 1, reason: `records up to ${head.seq} are missing from the end of the chain` });
  if (previous.seq > head.seq || previous.hash !== head.hash)
    return answer({ seq: previous.seq, reason: 'the head of the chain does not name the newest record' });
  return answer();
}

/**
 * The records from `after` (or from `from`) in order, as NDJSON, up to
 * `auditLimits.exportRecords` records or `exportBytes` of text; `next` is
 * the `after` of the next part, null when this is the last.
 */
export async function exportAudit(
  store: AuditStore,
  workspaceId: string,
  query: z.output<typeof auditExportQuery>,
): Promise<{ ndjson: string; count: number; next: number | null }> {
  const head = await store.getAuditHead(workspaceId);
  if (!head) return { ndjson: '', count: 0, next: null };
  let after = query.after ?? 0;
  if (query.from) after = Math.max(after, (await firstAtOrAfter(store, workspaceId, new Date(query.from).toISOString(), head.seq)) - 1);
  const to = query.to && new Date(query.to).toISOString();
  const lines: string[] = [];
  let bytes = 0;
  while (after < head.seq) {
    const chunk = await store.readAudit(workspaceId, { after, limit: Math.min(auditLimits.readChunk, auditLimits.exportRecords - lines.length) });
    if (!chunk.length) break;
    for (const record of chunk) {
      if (to && record.at >= to) return { ndjson: lines.join(''), count: lines.length, next: null };
      const line = `${JSON.stringify(record)}\n`;
      bytes += Buffer.byteLength(line);
      if (bytes > auditLimits.exportBytes) return { ndjson: lines.join(''), count: lines.length, next: after };
      lines.push(line);
      after = record.seq;
      if (lines.length === auditLimits.exportRecords) return { ndjson: lines.join(''), count: lines.length, next: after < head.seq ? after : null };
    }
  }
  return { ndjson: lines.join(''), count: lines.length, next: null };
}
