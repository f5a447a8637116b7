/** The audit log's operations: a page of records, the check of the chain, the export. All need `manage`. */
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';
import { auditExportQuery, auditListQuery } from './log.ts';

const recorded =
  'Every write (rules and workflows, publishes, keys, credentials, integrations, the remote, schedules, pulls) and every refusal (403) leaves one record: when, who (key, owner, role), the operation, the target, the checksums before and after, the request id and the outcome. A write and its record are stored in one transaction. Records are kept for the retention the stack sets (400 days unless told).';

const onAudit = { permission: 'manage', branch: 'none', tableAccess: 'read' } as const;

export const auditRoutes = {
  listAudit: {
    ...onAudit,
    operationId: 'listAudit',
    method: 'GET',
    path: '/dev/v1/audit',
    handler: 'list-audit',
    summary: "The workspace's audit log, newest first",
    description: `A page of records, newest first, filtered by time (from, to), owner, keyId, operation, targetType, targetId, branch and outcome; \`next\` is the \`before\` of the next page (null at the end). A page walks at most 2,000 records, so a filter that matches few may answer fewer than \`limit\` with a \`next\`. ${recorded}`,
    query: auditListQuery,
  },
  verifyAudit: {
    ...onAudit,
    operationId: 'verifyAudit',
    method: 'GET',
    path: '/dev/v1/audit/verify',
    handler: 'verify-audit',
    summary: "Check the audit log's hash chain",
    description:
      'Recomputes the hash of every kept record and its link to the one before, and the head of the chain: `intact`, how many records were checked, and the first record that does not fit with the reason (changed, missing, out of order). Records past the retention are expected to be gone; a missing record that was not due to expire is a break.',
    query: emptyQuery,
  },
  exportAudit: {
    ...onAudit,
    operationId: 'exportAudit',
    workspaceWide: true,
    method: 'GET',
    path: '/dev/v1/audit/export',
    handler: 'export-audit',
    summary: 'Export the audit log as NDJSON',
    description:
      'The records from `from` (or after `after`) to `to`, oldest first, one JSON object per line (application/x-ndjson), each with its hashes so that the chain can be checked outside. A part holds at most 5,000 records or 5 MB; when more follow, the Audit-Next-After header gives the `after` of the next part.',
    query: auditExportQuery,
  },
} satisfies Record<string, Route>;
