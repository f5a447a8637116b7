/** The answers of the audit log's operations (lib/audit): a page of records, the chain's check, and the export. */
import { z } from 'zod';
import type { auditRoutes } from '../../audit/routes.ts';
import { timestamp, type ResponsesOf } from './shared.ts';

const auditRecordSchema = z.object({
  workspaceId: z.string(),
  seq: z.number().int().describe('1, 2, 3, ... without gaps'),
  at: timestamp.describe('when it was recorded; never before the record before it'),
  actor: z
    .object({
      kind: z
        .enum(['person', 'key', 'service'])
        .optional()
        .describe("a person signed in with their token, a key (a personal key too), or the service's own work; absent in records written before kinds"),
      keyId: z.string(),
      owner: z.string(),
      role: z.string(),
      person: z
        .object({ issuer: z.string(), subject: z.string(), email: z.string().optional(), name: z.string().optional() })
        .optional()
        .describe("who the issuer says the person is, with their e-mail and name then: the person signed in, or a personal key's person"),
    })
    .describe('the key, its owner and its role then; for a person signed in, their id, e-mail, role and who the issuer says they are'),
  operation: z.string().describe("the operation's id (createEntity, publishEntity, ...), as in this document"),
  target: z.object({ type: z.string(), id: z.optional(z.string()), branch: z.optional(z.string()) }),
  requestId: z.string(),
  outcome: z.enum(['ok', 'forbidden']),
  checksumBefore: z.optional(z.string()),
  checksumAfter: z.optional(z.string()),
  detail: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).describe('facts of the operation: never a secret')),
  prevHash: z.string().describe('the hash of the record before (64 zeros for the first)'),
  prevAt: z.optional(timestamp.describe('when the record before was recorded')),
  hash: z.string().describe('SHA-256 (hex) of the canonical JSON of every other field (keys sorted, no spaces)'),
});

export const auditResponses = {
  listAudit: {
    data: z.object({
      records: z.array(auditRecordSchema),
      next: z.number().int().nullable().describe('the `before` of the next page; null at the end'),
    }),
  },
  verifyAudit: {
    data: z.object({
      intact: z.boolean(),
      checked: z.number().int().describe('records checked'),
      first: z.number().int().nullable().describe('the oldest kept record'),
      last: z.number().int().nullable().describe('the newest record checked'),
      head: z.object({ seq: z.number().int(), hash: z.string() }).nullable().describe('the head of the chain'),
      break: z.optional(z.object({ seq: z.number().int(), reason: z.string() }).describe('the first record that does not fit, and why')),
    }),
  },
  exportAudit: {
    file: {
      contentType: 'application/x-ndjson',
      description: 'the records, oldest first, one JSON object per line (each line holds one record, of this schema)',
      schema: auditRecordSchema,
      headers: { 'Audit-Next-After': { description: 'when more records follow: the `after` of the next part', schema: { type: 'integer' } } },
    },
  },
} satisfies ResponsesOf<typeof auditRoutes>;
