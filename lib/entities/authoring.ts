/**
 * Authoring through the API and the CLI: create, edit, publish and delete
 * rules and workflows. Every save is validated whole before anything is
 * written (the record schema, and for rules the engine's checks), with every
 * problem listed by its path; warnings are kept with the working copy so a
 * read needs no parser. Writes are safe to retry, and an edit or publish
 * names the checksum its author last saw, so two editors never overwrite each
 * other: the store's writes are conditional on the revision read.
 */
import type { Auditor } from '../auth/auditor.ts';
import { closePublished, publishGate } from '../changes/service.ts';
import { referencedUntestedWarnings } from '../coverage/referenced.ts';
import { testCoverage, withTestCoverage } from '../coverage/tested.ts';
import { checkRule } from '../engine/authoring.ts';
import type { RuleDefinition } from '../engine/index.ts';
import { errors } from '../vocabulary/errors.ts';
import { compileDraft } from '../rules/draft.ts';
import { replayGate } from '../replay/gate.ts';
import { entityChecksum } from './checksum.ts';
import { packPrepared } from '../vocabulary/prepared-form.ts';
import type { EntityRef, EntityScope, EntityStore, Store, StoredEntity, Warning } from '../store/types.ts';
import type { CreateEntity, UpdateEntity } from './authoring-schema.ts';
import { workflowKind, type EntityType } from '../vocabulary/kinds.ts';
import { checkWorkflowIn, type StoredWorkflowCheck } from '../workflows/check.ts';
import { packWorkflow } from '../workflows/load.ts';
import type { ReferenceStore } from '../workflows/references.ts';
import { recordProblems } from './record-check.ts';
import type { EntityInput } from './schema.ts';
import { publishEntity, saveEntity, type PublishResult } from './service.ts';

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

/**
 * Publishes the draft as the next version. A rule is checked first: no
 * problems, no rows overlapping under `unique`, every reference resolving,
 * every saved test case passing (the parts of the rule no case reaches
 * are the version's warnings), and with a replay gate, the recorded
 * executions it replays not changing too much (lib/replay/gate.ts). A
 * workflow likewise: no problems, and every rule it runs has a version to
 * run, every integration and credential usable. Either keeps its parsed FEEL
 * with the version, so that running it needs no parser. A rule may be
 * published as its candidate (`candidate`), which a rollout tries before it
 * is promoted (lib/rollout).
 */
export async function publishDraft(
  store: Store,
  ref: EntityRef,
  request: { checksum?: string; changeRequestId?: string; candidate?: boolean; acknowledgeReplay?: string } | undefined,
  actor: string,
  auditor?: Auditor,
): Promise<PublishResult & { replayTaskId?: string }> {
  if (request?.candidate && ref.entityType === 'workflow') throw errors.rolloutNotSupported('candidate');
  // On a protected branch, only through an approved change request (lib/changes).
  const change = await publishGate(store, ref, request?.changeRequestId);
  const checksum = request?.checksum ?? change?.checksum;
  let replayTaskId: string | undefined;
  const published = await publishEntity(
    store,
    ref,
    actor,
    undefined,
    async (draft, newVersion) => {
      if (checksum !== undefined && checksum !== draft.checksum) throw errors.checksumMismatch(ref.entityType, ref.id);
      if (!newVersion) return;
      if (draft.type === workflowKind) {
        const { problems, check } = await checkWorkflowIn(store, ref, draft.definition, { published: true });
        if (problems.length || !check) throw errors.publishRefused(ref.entityType, ref.id, problems);
        return { prepared: packWorkflow(check.prepared) };
      }
      const { prepared, problems, publishProblems } = checkRule({ kind: draft.type, definition: draft.definition } as unknown as RuleDefinition);
      if (problems.length || publishProblems.length) throw errors.publishRefused(ref.entityType, ref.id, [...problems, ...publishProblems]);
      const { rule } = await compileDraft(store, ref, draft);
      const tested = testCoverage(prepared, rule, draft.definition);
      if (tested.failures.length) throw errors.testsFailed(ref.id, tested.failures);
      // A rule with settings.replayGate: what the draft changes of recorded outcomes (lib/replay/gate.ts).
      replayTaskId = await replayGate(store, ref, draft, request?.acknowledgeReplay);
      // Kept with the version, so that executing it needs no parser; its warnings with the test coverage of this very run.
      return { prepared: packPrepared(prepared), warnings: withTestCoverage(draft.warnings, tested) };
    },
    auditor,
    change ? { changeRequestId: change.id } : {},
    request?.candidate ? 'candidate' : 'served',
  );
  if (change) await closePublished(store, ref, change, published.version);
  return { ...published, ...(replayTaskId && { replayTaskId }) };
}
