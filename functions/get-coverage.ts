import { coverageRoutes } from '../lib/coverage/routes.ts';
import { ruleCoverage } from '../lib/coverage/report.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { errors } from '../lib/vocabulary/errors.ts';
import { ruleOnlyRef } from '../lib/http/params.ts';

export const handler = endpoint(coverageRoutes.getCoverage, async (call) => ({
  data: await ruleCoverage(
    call.store,
    ruleOnlyRef(call, () => errors.coverageNotSupported()),
    call.query,
  ),
}));
