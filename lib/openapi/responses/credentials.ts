/** The answers of the credential operations (lib/credentials): a credential as shown (never its value), and a test against its provider. */
import { z } from 'zod';
import type { credentialRoutes } from '../../credentials/routes.ts';
import { credentialPlacements } from '../../store/types.ts';
import { timestamp, type ResponsesOf } from './shared.ts';

const credentialSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.literal('apiKey'),
  key: z.string().describe('the header or query parameter name, exactly as the provider names it'),
  placement: z.enum(credentialPlacements),
  description: z.string(),
  allowedHosts: z
    .array(z.string())
    .describe(
      'the hosts it may be sent to (api.example.com, *.example.com, with an optional :port). A credential made before hosts were required shows those of the integrations and remote that use it, which its first use binds it to; empty when nothing uses it, which sends it nowhere until they are set',
    ),
  valueHint: z.string().describe('the last characters of the value at most; the value itself is never returned'),
  status: z.enum(['active', 'revoked']),
  createdAt: timestamp,
  updatedAt: timestamp,
  rotatedAt: timestamp.optional(),
  revokedAt: timestamp.optional(),
});

const testResultSchema = z.object({
  status: z.number().int().describe("the provider's HTTP status; 0 when no answer came"),
  ok: z.boolean(),
  durationMs: z.number(),
  message: z.string().describe('what the answer means for the key: 401 wrong or revoked, 403 valid but lacking the permission'),
  failure: z.enum(['dns', 'refused', 'timeout', 'tls', 'too_large', 'too_many_redirects', 'network']).optional(),
});

export const credentialResponses = {
  createCredential: { data: credentialSchema, created: true },
  listCredentials: { data: z.array(credentialSchema) },
  getCredential: { data: credentialSchema },
  updateCredential: { data: credentialSchema },
  revokeCredential: { data: credentialSchema },
  testCredential: { data: testResultSchema },
} satisfies ResponsesOf<typeof credentialRoutes>;
