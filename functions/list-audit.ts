import { listAudit } from '../lib/audit/log.ts';
import { auditRoutes } from '../lib/audit/routes.ts';
import { endpoint } from '../lib/http/endpoint.ts';

export const handler = endpoint(auditRoutes.listAudit, async ({ store, principal, query }) => ({
  data: await listAudit(store, principal.workspace.id, query, principal.branches),
}));
