/**
 * Authoring through the API and the CLI: create and edit rules and
 * workflows (publishing them is lib/publishing). Every save is validated whole before anything is
 * written (the record schema, and for rules the engine's checks), with every
 * problem listed by its path; warnings are kept with the working copy so a
 * read needs no parser. Writes are safe to retry, and an edit or publish
 * names the checksum its author last saw, so two editors never overwrite each
 * other: the store's writes are conditional on the revision read.
 */
import type { Auditor } from '../auth/auditor.ts';
import { referencedUntestedWarnings } from '../coverage/referenced.ts';
import { errors } from '../vocabulary/errors.ts';
import { entityChecksum } from '../entities/checksum.ts';
import type { EntityRef, EntityScope, EntityStore, StoredEntity, Warning } from '../store/types.ts';
import type { CreateEntity, UpdateEntity } from '../entities/authoring-schema.ts';
import { workflowKind, type EntityType } from '../vocabulary/kinds.ts';
import { checkWorkflowIn, type StoredWorkflowCheck } from '../workflows/check.ts';
import type { ReferenceStore } from '../workflows/references.ts';
import { recordProblems } from './record-check.ts';
import type { EntityInput } from '../entities/schema.ts';
import { saveEntity } from '../entities/service.ts';

/** What a save answers: enough to edit again (the checksum) and what it should look at. */
export interface Saved {
  id: string;
  checksum: string;
  warnings: Warning[];
}

/**
 * Validates the whole record a save would store, as an entity of
 * `entityType` (`recordProblems`). Throws one 400 listing every problem;
 * returns the record and, for a rule, its warnings.
 */
export function validateRecord(
  entityType: EntityType,
  candidate: Record<string, unknown>,
  workflow?: StoredWorkflowCheck,
): { input: EntityInput; warnings: Warning[] } {
  const { input, issues, warnings } = recordProblems(entityType, candidate, workflow);
  if (issues.length || !input) throw errors.invalidRequest(issues);
  return { input, warnings };
}

/** A workflow's definition checked with what it names as the branch and workspace hold it now (what a save adds to the record's own checks). */
const workflowProblems = (store: ReferenceStore, scope: EntityScope, candidate: Record<string, unknown>) =>
  candidate.type === workflowKind ? checkWorkflowIn(store, scope, candidate.definition, { graphProblems: false }) : undefined;

/**
 * The record as a save checks it: its own check (`validateRecord`), then what
 * it names as the branch holds it now (a workflow's rules, integrations and
 * credentials; the rules a rule set refers to, for its test coverage).
 */
async function checkedSave(store: EntityStore & ReferenceStore, scope: EntityScope, candidate: Record<string, unknown>) {
  const { input, warnings } = validateRecord(scope.entityType, candidate, await workflowProblems(store, scope, candidate));
  const referenced = await referencedUntestedWarnings(store, { ...scope, id: input.id }, input as { type: string; definition: Record<string, unknown> });
  return { input, warnings: [...warnings, ...referenced] };
}

const saved = (entity: StoredEntity): Saved => ({ id: entity.id, checksum: entity.checksum, warnings: entity.warnings ?? [] });

/**
 * Creates a draft from a record (a request body, or a file the CLI read). The
 * same create again (a retry) answers what the first made; the same id with
 * other content is a conflict.
 */
export async function createEntity(
  store: EntityStore & ReferenceStore,
  scope: EntityScope,
  body: CreateEntity | Record<string, unknown>,
  actor: string,
  auditor?: Auditor,
) {
  const { input, warnings } = await checkedSave(store, scope, body);
  const { entity, outcome } = await saveEntity(store, scope, input, actor, undefined, {
    warnings,
    auditor,
    guard: (existing, checksum) => {
      if (existing && existing.checksum !== checksum) throw errors.entityExists(scope.entityType, input.id);
    },
  });
  return { saved: saved(entity), created: outcome === 'created' };
}

/**
 * Edits the draft: the fields given replace the draft's, if the draft is
 * still what `checksum` says the author read, or already holds what the edit
 * makes of it (a retry of an edit whose first attempt was applied, its answer
 * lost: answered as that attempt would have been).
 */
export async function updateEntity(
  store: EntityStore & ReferenceStore,
  ref: EntityRef,
  { checksum, ...change }: UpdateEntity,
  actor: string,
  auditor?: Auditor,
): Promise<Saved> {
  const edited = async (current: StoredEntity) => {
    const { name, description, tags, type, definition } = current;
    return checkedSave(store, ref, { name, description, tags, type, definition, ...change, id: ref.id });
  };
  const current = await store.getEntity(ref);
  if (!current) throw errors.entityNotFound(ref.entityType, ref.id);
  if (current.checksum !== checksum) {
    const applied = await edited(current).then(
      ({ input }) => entityChecksum(input) === current.checksum,
      () => false,
    );
    if (applied) return saved(current);
    throw errors.checksumMismatch(ref.entityType, ref.id);
  }
  // The content the checksum names is what the edit applies to, so the edited record is the same on every attempt.
  const { input, warnings } = await edited(current);
  const { entity } = await saveEntity(store, ref, input, actor, undefined, {
    warnings,
    auditor,
    guard: (existing, editedChecksum) => {
      if (!existing) throw errors.entityNotFound(ref.entityType, ref.id);
      if (existing.checksum !== checksum && existing.checksum !== editedChecksum) throw errors.checksumMismatch(ref.entityType, ref.id);
    },
  });
  return saved(entity);
}
