import { setProtection } from '../lib/changes/service.ts';
import { changeRoutes } from '../lib/changes/routes.ts';
import { endpoint } from '../lib/http/endpoint.ts';

export const handler = endpoint(changeRoutes.protectBranch, async ({ store, principal, path, body, auditor }) => ({
  data: await setProtection(store, principal, path.branch ?? '', body.requiredApprovals, auditor),
}));
