import { auditNextAfterHeader, exportAudit } from '../lib/audit/log.ts';
import { auditRoutes } from '../lib/audit/routes.ts';
import { endpoint } from '../lib/http/endpoint.ts';

export const handler = endpoint(auditRoutes.exportAudit, async ({ store, principal, query }) => {
  const { ndjson, next } = await exportAudit(store, principal.workspace.id, query);
  const headers: Record<string, string> = next === null ? {} : { [auditNextAfterHeader]: String(next) };
  return { file: { contentType: 'application/x-ndjson', body: ndjson, headers } };
});
