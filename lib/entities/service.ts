/**
 * The entity domain: reads shaped for each API version, and retry-safe
 * writes of the working copy (the API's authoring, import, seed, pull) over
 * the store interface. It needs no rule parser, so the read functions stay
 * small; what authoring checks before a write is in lib/authoring, and the
 * publish of a version in lib/publishing.
 */
import { auditEvent, entityTarget, type Auditor } from '../auth/auditor.ts';
import { actorNames } from '../auth/actors.ts';
import { canonicalJson, entityChecksum } from './checksum.ts';
import { entityTypeOf } from '../vocabulary/kinds.ts';
import type { EntityDetail, EntityInput, EntityRecord } from './schema.ts';
import { errors } from '../vocabulary/errors.ts';
import { retryOnRevisionConflict } from '../store/revision-retry.ts';
import {
  ruleScopeOf,
  type Candidate,
  type DirectoryStore,
  type EntityRef,
  type EntityStore,
  type ScheduleStore,
  type StoredEntity,
  type StoredRuleSchedule,
  type StoredVersion,
  type Warning,
} from '../store/types.ts';

/** The record's own fields of a stored entity (what a version snapshots). */
export const recordOf = ({ id, name, description, type, status, version, tags, definition, checksum, createdAt, updatedAt }: EntityRecord): EntityRecord => ({
  id,
  name,
  description,
  type,
  status,
  version,
  tags,
  definition,
  checksum,
  createdAt,
  updatedAt,
});

/** A rule's schedule as its get shows it: as stored, with its expression (its next runs are GET .../schedule's). */
export type ScheduleSummary = Pick<StoredRuleSchedule, 'schedule' | 'expression'>;

/**
 * The working copy, or with `version` that published snapshot. `detailed`
 * (the v1 form) adds the version history (each version's publisher named for
 * people) and audit fields, and a rule's schedule and candidate when it has
 * them.
 */
export async function getEntity(
  store: EntityStore & ScheduleStore & Pick<DirectoryStore, 'getApiKeyById'>,
  ref: EntityRef,
  options: { version?: string; detailed: boolean },
): Promise<EntityRecord | (EntityDetail & { warnings: Warning[]; schedule?: ScheduleSummary; candidate?: Candidate })> {
  const [entity, snapshot, versions, schedule] = await Promise.all([
    store.getEntity(ref),
    options.version ? store.getVersion(ref, options.version) : undefined,
    options.detailed ? store.listVersions(ref) : undefined,
    options.detailed && ref.entityType === 'rule' ? store.getSchedule(ruleScopeOf(ref)) : undefined,
  ]);
  if (!entity) throw errors.entityNotFound(ref.entityType, ref.id);
  if (options.version && !snapshot) throw errors.versionNotFound(ref.entityType, ref.id, options.version);
  const record = recordOf(snapshot ? { ...snapshot, createdAt: entity.createdAt, status: 'published' } : entity);
  if (!options.detailed) return record;
  const { createdBy, updatedBy, revision } = entity;
  const names = await actorNames(
    store,
    ref.workspaceId,
    (versions ?? []).map((version) => version.publishedBy),
  );
  // One being deleted is gone for readers, as GET .../schedule has it.
  const shown = schedule && schedule.state !== 'deleting' && { schedule: schedule.schedule, expression: schedule.expression };
  return {
    ...record,
    createdBy,
    updatedBy,
    revision,
    versions: (versions ?? []).map((version) => ({ ...version, publishedByName: names.get(version.publishedBy)! })),
    warnings: (snapshot ?? entity).warnings ?? [],
    ...(shown && { schedule: shown }),
    ...(entity.candidate && { candidate: entity.candidate }),
  };
}

/**
 * The working copy that writing `input` over `existing` makes: content from
 * the input, creation and publication history (a rule's candidate and
 * rollout too) from what was there, and the update stamp moved only when the
 * content changed. Warnings are the save's, else those of unchanged content
 * (changed content drops stale ones).
 */
export function nextWorkingCopy(
  input: EntityInput,
  checksum: string,
  existing: StoredEntity | undefined,
  actor: string,
  timestamp: string,
  warnings?: Warning[],
): StoredEntity {
  const publishedChecksum = existing?.publishedChecksum ?? '';
  const contentUnchanged = existing?.checksum === checksum;
  const kept = warnings ?? (contentUnchanged ? existing.warnings : undefined);
  return {
    id: input.id,
    name: input.name,
    description: input.description,
    type: input.type,
    tags: input.tags,
    definition: input.definition as Record<string, unknown>,
    checksum,
    status: publishedChecksum === checksum ? 'published' : 'draft',
    version: existing?.version ?? '',
    publishedChecksum,
    createdAt: existing?.createdAt ?? timestamp,
    createdBy: existing?.createdBy ?? actor,
    updatedAt: contentUnchanged ? existing.updatedAt : timestamp,
    updatedBy: contentUnchanged ? existing.updatedBy : actor,
    revision: (existing?.revision ?? 0) + 1,
    ...(kept && { warnings: kept }),
    ...(existing?.candidate && { candidate: existing.candidate }),
    ...(existing?.rollout && { rollout: existing.rollout }),
  };
}

export interface WriteResult {
  entity: StoredEntity;
  outcome: 'created' | 'updated' | 'unchanged';
}

export interface SaveOptions {
  /** The save's analysis, stored with the working copy (absent: the writer did not analyse it). */
  warnings?: Warning[];
  /** Refuses the write given what is stored, by throwing; asked again on every attempt. */
  guard?: (existing: StoredEntity | undefined, checksum: string) => void;
  /** Who writes, when the write is recorded in the audit log (with it, in one transaction). */
  auditor?: Auditor;
}

/** Compared whatever the order of their fields: DynamoDB keeps a map's entries in no order, so a warning read back may list them otherwise. */
const sameWarnings = (a: Warning[] | undefined, b: Warning[] | undefined) => canonicalJson(a ?? []) === canonicalJson(b ?? []);

/**
 * Creates or updates the working copy of an entity. Writing the same content
 * again changes nothing, so a retried write, import or pull is harmless. The
 * write is conditional on the revision read, so a concurrent writer is never
 * overwritten: the attempt is made again on what that writer left.
 */
export function saveEntity(
  store: EntityStore,
  target: Omit<EntityRef, 'entityType' | 'id'>,
  input: EntityInput,
  actor: string,
  now = () => new Date().toISOString(),
  options: SaveOptions = {},
): Promise<WriteResult> {
  const ref: EntityRef = { ...target, entityType: entityTypeOf(input.type), id: input.id };
  const checksum = entityChecksum(input);
  return retryOnRevisionConflict(async () => {
    const existing = await store.getEntity(ref);
    options.guard?.(existing, checksum);
    const warningsKept = options.warnings === undefined || sameWarnings(existing?.warnings, options.warnings);
    if (existing && existing.checksum === checksum && existing.countedAs === input.type && warningsKept) return { entity: existing, outcome: 'unchanged' };
    const entity = nextWorkingCopy(input, checksum, existing, actor, now(), options.warnings);
    // Recorded when the content changes: a write that only finishes the bookkeeping of an earlier one (its counters, after a retry) is no change of its own.
    const audit =
      existing?.checksum === checksum
        ? undefined
        : auditEvent(options.auditor, entityTarget(ref), { checksumBefore: existing?.checksum, checksumAfter: checksum });
    await store.putEntity(ref, entity, existing?.revision ?? 0, input.type, audit);
    return { entity, outcome: !existing ? 'created' : existing.checksum === checksum ? 'unchanged' : 'updated' };
  });
}

/** What a publish check may keep with a new version: a rule's prepared form, and its warnings when the check found them anew. */
export type VersionExtras = Pick<StoredVersion, 'prepared' | 'warnings'>;

/** A version label's number (`v12` → 12; '' → 0). */
export const versionNumber = (label: string | undefined) => (label ? Number(label.slice(1)) : 0);

/** The newest version an entity has, served or candidate ('' when it has none): the next one is numbered after it, and a change request goes stale once it moves. */
export const newestVersionOf = (entity: Pick<StoredEntity, 'version' | 'candidate'>) =>
  versionNumber(entity.candidate?.version) > versionNumber(entity.version) ? entity.candidate!.version : entity.version;
