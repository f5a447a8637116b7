import { verifyAudit } from '../lib/audit/log.ts';
import { auditRoutes } from '../lib/audit/routes.ts';
import { endpoint } from '../lib/http/endpoint.ts';

export const handler = endpoint(auditRoutes.verifyAudit, async ({ store, principal }) => ({ data: await verifyAudit(store, principal.workspace.id) }));
