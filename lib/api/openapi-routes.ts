/** The contract itself: this service's OpenAPI document, served by the API it describes. */
import { emptyQuery } from '../http/queries.ts';
import type { Route } from '../http/route.ts';

export const contractRoutes = {
  getOpenApi: {
    operationId: 'getOpenApi',
    permission: 'public',
    method: 'GET',
    path: '/openapi.json',
    handler: 'get-openapi',
    summary: 'This OpenAPI document',
    description:
      'The OpenAPI 3.1 document of this API, with `servers` set to the URL it was fetched from. It needs no API key, and it is the document itself, not in the envelope.',
    branch: 'none',
    query: emptyQuery,
    tableAccess: 'none',
  },
} satisfies Record<string, Route>;
