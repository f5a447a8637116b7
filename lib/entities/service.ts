/**
 * The entity domain: reads shaped for each API version, and retry-safe
 * writes (import, seed, and later pull) over the store interface.
 */
import { entityChecksum } from './checksum.ts';
import { entityTypeOf } from './kinds.ts';
import type { EntityDetail, EntityInput, EntityRecord } from './schema.ts';
import { errors } from '../http/errors.ts';
import { RevisionConflict, describeRef, retryOnRevisionConflict, type EntityRef, type EntityStore, type StoredEntity } from '../store/types.ts';

const recordOf = ({ id, name, description, type, status, version, tags, definition, checksum, createdAt, updatedAt }: EntityRecord): EntityRecord => ({
  id, name, description, type, status, version, tags, definition, checksum, createdAt, updatedAt,
});

/**
 * The working copy, or with `version` that published snapshot. `detailed`
 * (the v1 form) adds the version history and audit fields.
 */
export async function getEntity(store: EntityStore, ref: EntityRef, options: { version?: string; detailed: boolean }): Promise<EntityRecord | EntityDetail> {
  const [entity, snapshot, versions] = await Promise.all([
    store.getEntity(ref),
    options.version ? store.getVersion(ref, options.version) : undefined,
    options.detailed ? store.listVersions(ref) : undefined,
  ]);
  if (!entity) throw errors.entityNotFound(ref.entityType, ref.id);
  if (options.version && !snapshot) throw errors.versionNotFound(ref.entityType, ref.id, options.version);
  const record = recordOf(snapshot ? { ...snapshot, createdAt: entity.createdAt, status: 'published' } : entity);
  if (!options.detailed) return record;
  const { createdBy, updatedBy, revision } = entity;
  return { ...record, createdBy, updatedBy, revision, versions: versions ?? [] };
}

/**
 * The working copy that writing `input` over `existing` makes: content from
 * the input, creation and publication history from what was there, and the
 * update stamp moved only when the content changed.
 */
export function nextWorkingCopy(input: EntityInput, checksum: string, existing: StoredEntity | undefined, actor: string, timestamp: string): StoredEntity {
  const publishedChecksum = existing?.publishedChecksum ?? '';
  const contentUnchanged = existing?.checksum === checksum;
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
  };
}

export interface WriteResult {
  entity: StoredEntity;
  outcome: 'created' | 'updated' | 'unchanged';
}

/**
 * Creates or updates the working copy of an entity. Writing the same content
 * again changes nothing, so a retried import or pull is harmless.
 */
export function saveEntity(
  store: EntityStore,
  target: Omit<EntityRef, 'entityType' | 'id'>,
  input: EntityInput,
  actor: string,
  now = () => new Date().toISOString(),
): Promise<WriteResult> {
  const ref: EntityRef = { ...target, entityType: entityTypeOf(input.type), id: input.id };
  const checksum = entityChecksum(input);
  return retryOnRevisionConflict(async () => {
    const existing = await store.getEntity(ref);
    if (existing && existing.checksum === checksum && existing.countedAs === input.type) return { entity: existing, outcome: 'unchanged' };
    const entity = nextWorkingCopy(input, checksum, existing, actor, now());
    await store.putEntity(ref, entity, existing?.revision ?? 0, input.type);
    return { entity, outcome: !existing ? 'created' : existing.checksum === checksum ? 'unchanged' : 'updated' };
  });
}

const versionNumber = (label: string) => (label ? Number(label.slice(1)) : 0);

/**
 * Publishes the working copy as the next version `vN`. Publishing content that
 * is already the latest version returns that version instead of a new one.
 */
export function publishEntity(store: EntityStore, ref: EntityRef, actor: string, now = () => new Date().toISOString()) {
  return retryOnRevisionConflict(async () => {
    const entity = await store.getEntity(ref);
    if (!entity) throw new Error(`${ref.entityType} ${ref.id} does not exist on ${ref.branch}`);
    if (entity.version && entity.publishedChecksum === entity.checksum) return entity.version;
    const version = `v${versionNumber(entity.version) + 1}`;
    const publishedAt = now();
    const snapshot: EntityRecord = { ...recordOf(entity), status: 'published', version, updatedAt: entity.updatedAt };
    const created = await store.putVersion(ref, snapshot, { version, checksum: entity.checksum, publishedAt, publishedBy: actor });
    if (!created) {
      // A publish that stopped after the snapshot: finish it, unless the snapshot holds other content.
      const existing = await store.getVersion(ref, version);
      if (existing?.checksum !== entity.checksum) throw new RevisionConflict(describeRef(ref));
    }
    await store.putEntity(
      ref,
      { ...entity, version, status: 'published', publishedChecksum: entity.checksum, revision: entity.revision + 1 },
      entity.revision,
      entity.type as EntityInput['type'],
    );
    return version;
  });
}
