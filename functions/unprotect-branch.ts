import { setProtection } from '../lib/changes/service.ts';
import { changeRoutes } from '../lib/changes/routes.ts';
import { endpoint } from '../lib/http/endpoint.ts';

export const handler = endpoint(changeRoutes.unprotectBranch, async ({ store, principal, path, auditor }) => ({
  data: await setProtection(store, principal, path.branch ?? '', null, auditor),
}));
