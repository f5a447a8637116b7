/** The answer of the contract's operation (lib/api/openapi-routes.ts): this document itself, not an envelope. */
import { z } from 'zod';
import type { contractRoutes } from '../../api/openapi-routes.ts';
import type { ResponsesOf } from './shared.ts';

const openApiSchema = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    servers: z.array(z.looseObject({ url: z.string() })).describe('one: the URL this document was fetched from'),
    paths: z.record(z.string(), z.unknown()),
  })
  .describe('this document (OpenAPI 3.1)');

export const contractResponses = {
  getOpenApi: { body: openApiSchema },
} satisfies ResponsesOf<typeof contractRoutes>;
