import { z } from 'zod';
import { entityDetailSchema, entityRecordSchema, entitySummarySchema } from '../entities/schema.ts';
import type { routes } from '../http/routes.ts';

const timestamp = z.string().datetime();

const credentialSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.literal('apiKey'),
  key: z.string().describe('the header or query parameter name, exactly as the provider names it'),
  placement: z.enum(['header', 'query']),
  description: z.string(),
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

const changeCounts = z.object({ added: z.number().int(), updated: z.number().int(), deleted: z.number().int(), unchanged: z.number().int() });

const taskStateSchema = z.enum(['pending', 'in-progress', 'completed', 'failed']);

const taskSchema = z.object({
  taskId: z.string(),
  taskState: taskStateSchema,
  branch: z.string(),
  createdAt: timestamp,
  startedAt: timestamp.optional(),
  finishedAt: timestamp.optional(),
  commit: z.string().optional().describe('the commit pulled, once completed'),
  summary: z.object({ rule: changeCounts, workflow: changeCounts, ignoredFolders: z.array(z.string()) }).optional(),
  error: z.string().optional().describe('what failed, in words a user can act on'),
});

const remoteSchema = z.object({ url: z.string(), credentialId: z.string().optional(), updatedAt: timestamp });

const openApiSchema = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    servers: z.array(z.looseObject({ url: z.string() })).describe('one: the URL this document was fetched from'),
    paths: z.record(z.string(), z.unknown()),
  })
  .describe('this document (OpenAPI 3.1)');

/**
 * What `data` holds in each operation's success envelope, or the `body` an
 * operation answers instead of an envelope; every route must have an entry.
 * `created`: a new resource answers 201, a retried create 200.
 */
export const responses = {
  listEntities: { data: z.array(entitySummarySchema) },
  listEntitiesLegacy: { data: z.array(entitySummarySchema) },
  getEntity: { data: entityDetailSchema },
  getEntityLegacy: { data: entityRecordSchema },
  createCredential: { data: credentialSchema, created: true },
  listCredentials: { data: z.array(credentialSchema) },
  getCredential: { data: credentialSchema },
  updateCredential: { data: credentialSchema },
  revokeCredential: { data: credentialSchema },
  testCredential: { data: testResultSchema },
  pullRemote: { data: z.object({ taskId: z.string(), taskState: taskStateSchema }) },
  pullRemoteV1: { data: z.object({ taskId: z.string(), taskState: taskStateSchema }) },
  getPullTask: { data: taskSchema },
  getTask: { data: taskSchema },
  getRemote: { data: remoteSchema },
  putRemote: { data: remoteSchema },
  getOpenApi: { body: openApiSchema },
} satisfies Record<keyof typeof routes, { data: z.ZodType; created?: boolean } | { body: z.ZodType }>;
