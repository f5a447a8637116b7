/** The answers of the integration operations (lib/integrations): an integration, and a test of a path against its provider. */
import { z } from 'zod';
import type { integrationRoutes } from '../../integrations/routes.ts';
import { integrationLimits } from '../../integrations/schema.ts';
import { timestamp, type ResponsesOf } from './shared.ts';

const integrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.literal('restApi'),
  baseUrl: z.string().describe('what step paths are joined to'),
  headers: z.record(z.string(), z.string()).describe("sent on every call, under the step's own headers"),
  credentialId: z.string().optional().describe('the credential placed on every call, when there is one'),
  timeoutMs: z.number().int(),
  description: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  revision: z.number().int().describe('1 when created, one more with each change'),
});

const integrationTestResultSchema = z.object({
  status: z.number().int().describe("the provider's HTTP status; 0 when no usable answer came"),
  ok: z.boolean(),
  durationMs: z.number(),
  message: z.string().describe('what the answer means (401: the key is wrong or revoked, 403: valid but lacking the permission), or why no usable answer came'),
  failure: z
    .enum(['dns', 'refused', 'timeout', 'tls', 'too_large', 'too_many_redirects', 'network', 'not_json'])
    .optional()
    .describe('why no usable answer came: not_json, a successful answer whose body is not JSON'),
  body: z.unknown().optional().describe("the provider's JSON answer, when it gave one (absent when empty or not JSON)"),
  bodyOmitted: z.literal(true).optional().describe(`set instead of body when the answer is larger than ${integrationLimits.testAnswerBytes} bytes as JSON`),
});

export const integrationResponses = {
  createIntegration: { data: integrationSchema, created: true },
  listIntegrations: { data: z.array(integrationSchema) },
  getIntegration: { data: integrationSchema },
  updateIntegration: { data: integrationSchema },
  deleteIntegration: { data: integrationSchema.describe('the integration as it was') },
  testIntegration: { data: integrationTestResultSchema },
} satisfies ResponsesOf<typeof integrationRoutes>;
