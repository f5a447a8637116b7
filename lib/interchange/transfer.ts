/**
 * Rules in and out of files: the import and export operations. A file is
 * read and checked (./read.ts), and nothing is written unless every record of
 * every file passes: an import never leaves a branch half imported. An import replaces an existing draft only with the
 * draft's checksum, as an edit does, so it never overwrites unseen work.
 */
import type { Auditor } from '../auth/auditor.ts';
import { createEntity, updateEntity } from '../authoring/save.ts';
import { entityChecksum } from '../entities/checksum.ts';
import type { EntityInput, EntityType } from '../entities/schema.ts';
import { errors, type PathProblem } from '../vocabulary/errors.ts';
import type { EntityStore, Store, Warning } from '../store/types.ts';
import { readRuleFile, type CheckedFile } from './read.ts';
import type { ReferenceStore } from '../workflows/references.ts';
import {
  formatOfContentType,
  ImportBoundExceeded,
  importContentTypes,
  type Format,
  type FormatName,
  type WriteOptions,
  type WrittenFile,
} from './format-contract.ts';
import { formats } from './format-registry.ts';

/** A bound a file passed, as the API answers it: 413 when too large to read, else 400 naming the bound. */
export const boundRefusal = (error: ImportBoundExceeded) =>
  error.status === 413 ? errors.fileTooLarge(error.message) : errors.fileRefused(error.bound, error.message);

/** A file to import: its name (for the problems' paths) and its format. */
export interface ImportedFile {
  name: string;
  bytes: Uint8Array;
  format: Format;
}

export interface ImportRequest {
  files: ImportedFile[];
  dryRun?: boolean;
  /** The checksums of the drafts the import may replace, by id (`parseChecksums`). */
  checksums: Record<string, string>;
}

export type ImportAction = 'create' | 'replace' | 'unchanged';

export interface ImportedRecord {
  entityType: EntityType;
  id: string;
  type: EntityInput['type'];
  name: string;
  action: ImportAction;
  /** The checksum the record has once imported. */
  checksum: string;
  /** The draft's checksum before, for a replacement. */
  previousChecksum?: string;
  warnings: Warning[];
  /** A dry run's replacement without the draft's checksum: the import itself would be refused (409 checksum_required). */
  checksumRequired?: boolean;
  /** In a dry run: the record as it would be saved, to compare with the draft. */
  record?: EntityInput;
}

export interface ImportAnswer {
  dryRun: boolean;
  records: ImportedRecord[];
  /** A dry run's problems (a real import with problems is refused: 400 import_refused). */
  problems: PathProblem[];
  notCarried: PathProblem[];
}

/** The key of `ImportRequest.checksums` that a bare `?checksum=` (no id) goes by: it applies when the file holds one record. */
export const soleRecord = '';

/** Parses `?checksum=`: `id:checksum` pairs separated by commas, or one bare checksum when the file holds one record. */
export function parseChecksums(text: string | undefined): Record<string, string> {
  const checksums: Record<string, string> = Object.create(null);
  if (!text) return checksums;
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length === 1 && !parts[0]!.includes(':')) return Object.assign(checksums, { [soleRecord]: parts[0]! });
  for (const part of parts) {
    const at = part.lastIndexOf(':');
    if (at <= 0) throw errors.invalidRequest([{ in: 'query', field: 'checksum', message: `"${part.slice(0, 80)}" is not id:checksum` }]);
    checksums[part.slice(0, at)] = part.slice(at + 1);
  }
  return checksums;
}

/** A request body's format: the one named, else the one its content type says (415 for another type). */
export function formatOfUpload(contentType: string, named?: FormatName): Format {
  if (named) return formats[named];
  const format = formatOfContentType(contentType);
  if (!format) throw errors.unsupportedFile(contentType, importContentTypes);
  return formats[format];
}

/**
 * Imports files' rules (and the workflows a JDM graph may yield) as drafts of
 * the branch: every record of every file is checked first, and with `dryRun`
 * nothing is written and the answer says what would be. A draft that exists
 * with other content is replaced only when the request names its checksum.
 */
export async function importFiles(
  store: EntityStore & ReferenceStore,
  target: { workspaceId: string; branch: string },
  request: ImportRequest,
  actor: string,
  auditor?: Auditor,
): Promise<ImportAnswer> {
  const file: CheckedFile = { records: [], problems: [], notCarried: [] };
  for (const { name, bytes, format } of request.files) {
    try {
      const checked = await readRuleFile(name, bytes, format);
      file.records.push(...checked.records);
      file.problems.push(...checked.problems);
      file.notCarried.push(...checked.notCarried);
    } catch (error) {
      throw error instanceof ImportBoundExceeded ? boundRefusal(error) : error;
    }
  }
  const seen = new Set<string>();
  for (const { entityType, input } of file.records) {
    const key = `${entityType}/${input.id}`;
    if (seen.has(key)) file.problems.push({ path: input.id, message: `two records of the import are the ${entityType} "${input.id}"` });
    seen.add(key);
  }
  const dryRun = request.dryRun ?? false;
  if (file.problems.length && !dryRun) throw errors.importRefused(file.problems, file.notCarried);
  const bareChecksum = file.records.length === 1 ? request.checksums[soleRecord] : undefined;
  const planned = await Promise.all(
    file.records.map(async ({ entityType, input, warnings }) => {
      const ref = { ...target, entityType, id: input.id };
      const existing = await store.getEntity(ref);
      const checksum = entityChecksum(input);
      const given = request.checksums[input.id] ?? bareChecksum;
      const base = { entityType, id: input.id, type: input.type, name: input.name, checksum, warnings, ...(dryRun && { record: input }) };
      if (!existing) return { ...base, action: 'create' as const };
      if (existing.checksum === checksum) return { ...base, action: 'unchanged' as const };
      const replacement = { ...base, action: 'replace' as const, previousChecksum: existing.checksum };
      if (given === undefined) {
        if (!dryRun) throw errors.importWouldReplace(entityType, input.id);
        return { ...replacement, checksumRequired: true };
      }
      if (given !== existing.checksum) throw errors.checksumMismatch(entityType, input.id);
      return replacement;
    }),
  );
  if (!dryRun)
    for (const [i, record] of planned.entries()) {
      const { entityType, input } = file.records[i]!;
      const { id, name, description, tags, type, definition } = input;
      const scope = { ...target, entityType };
      if (record.action === 'create') await createEntity(store, scope, input, actor, auditor);
      if (record.action === 'replace')
        await updateEntity(store, { ...scope, id }, { checksum: record.previousChecksum!, name, description, tags, type, definition }, actor, auditor);
    }
  return { dryRun, records: planned, problems: file.problems, notCarried: file.notCarried };
}

/** The rule (its draft, or a published version) as a file of `format`. */
export async function exportEntity(
  store: Pick<Store, 'getEntity' | 'getVersion'>,
  ref: { workspaceId: string; branch: string; entityType: EntityType; id: string },
  formatName: FormatName,
  version?: string,
  options: WriteOptions = {},
): Promise<WrittenFile> {
  const stored = version ? await store.getVersion(ref, version) : await store.getEntity(ref);
  if (!stored) throw version ? errors.versionNotFound(ref.entityType, ref.id, version) : errors.entityNotFound(ref.entityType, ref.id);
  const { id, name, description, tags, type, definition } = stored;
  const entity = { id, name, description, tags, type, definition } as EntityInput;
  const format = formats[formatName];
  const reason = format.cannotHold(entity);
  if (reason) throw errors.formatCannotHold(formatName, id, reason);
  return format.write(entity, options);
}
