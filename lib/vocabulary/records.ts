/**
 * Rule and workflow records as the API serves them: the response schemas of
 * the OpenAPI document and the types of the domain and store. Full zod, for
 * `.describe` and `.extend`; no function bundles this (responses are not
 * validated at run time), so its size costs nothing there.
 */
import { z } from 'zod';
import { entityIdPattern, entityStatuses } from './kinds.ts';

/** An entity id, as the document states path parameters. */
export const entityIdSchema = z.string().regex(entityIdPattern, 'letters, digits, ".", "_" or "-", starting with a letter or digit, at most 128 characters');

const timestamp = z.string().datetime();

export const entitySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  status: z.enum(entityStatuses).describe('published when the working copy is the latest published version'),
  version: z.string().describe('latest published version label, or empty when never published'),
  tags: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type EntitySummary = z.infer<typeof entitySummarySchema>;

export const entityRecordSchema = entitySummarySchema.extend({
  definition: z.record(z.string(), z.unknown()),
  checksum: z.string().describe('sha256 of the canonical JSON of name, description, type, tags and definition'),
});
export type EntityRecord = z.infer<typeof entityRecordSchema>;

export const auditSchema = z.object({
  createdBy: z.string(),
  updatedBy: z.string(),
  revision: z.number().int().describe('increases by one with each change of the working copy'),
});
export type Audit = z.infer<typeof auditSchema>;

export const versionInfoSchema = z.object({
  version: z.string(),
  checksum: z.string(),
  publishedAt: timestamp,
  publishedBy: z.string(),
});
export type VersionInfo = z.infer<typeof versionInfoSchema>;

/** A version as a read shows it: with who published it named for people (lib/auth/actors.ts). */
export const versionViewSchema = versionInfoSchema.extend({
  publishedByName: z
    .string()
    .describe(
      "who published it, for people: the owner of the key publishedBy names, else the key's label; the key id when the key is gone; publishedBy itself when no key published it (seed)",
    ),
});
export type VersionView = z.infer<typeof versionViewSchema>;

export const entityDetailSchema = entityRecordSchema.extend({ ...auditSchema.shape, versions: z.array(versionViewSchema) });
export type EntityDetail = z.infer<typeof entityDetailSchema>;
