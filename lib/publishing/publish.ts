/**
 * Publishing a draft: the checks a new version must pass (a rule's problems,
 * overlaps, references, saved tests and replay gate; a workflow's problems
 * and what it runs), the protected branch's change request, and the write
 * of the version itself, which is safe to retry.
 */
import type { Auditor } from '../auth/auditor.ts';
import { closePublished, publishGate } from './gate.ts';
import { testCoverage, withTestCoverage } from '../coverage/tested.ts';
import { checkRule } from '../engine/authoring.ts';
import type { RuleDefinition } from '../engine/index.ts';
import { auditEvent, entityTarget } from '../auth/auditor.ts';
import { errors } from '../vocabulary/errors.ts';
import { compileDraft } from '../rules/draft.ts';
import { replayGate } from '../replay/gate.ts';
import { packPrepared } from '../vocabulary/prepared-form.ts';
import { RevisionConflict, retryOnRevisionConflict } from '../store/revision-retry.ts';
import { describeRef, type EntityRef, type EntityStore, type Store, type StoredEntity } from '../store/types.ts';
import { workflowKind } from '../vocabulary/kinds.ts';
import { checkWorkflowIn } from '../workflows/check.ts';
import { packWorkflow } from '../workflows/load.ts';
import type { EntityInput } from '../entities/schema.ts';
import { newestVersionOf, recordOf, versionNumber, type VersionExtras } from '../entities/service.ts';
import { promoted, stopped } from './candidate-record.ts';

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
  // Through a change request, exactly the content it proposed: a checksum in the body must name that content.
  if (change && request?.checksum !== undefined && request.checksum !== change.checksum) throw errors.checksumMismatch(ref.entityType, ref.id);
  const checksum = change?.checksum ?? request?.checksum;
  let replayTaskId: string | undefined;
  const published = await publishEntity(
    store,
    ref,
    actor,
    undefined,
    async (draft, newVersion) => {
      if (change && change.checksum !== draft.checksum) throw errors.changeRequestStale(change.id);
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
    change?.id,
    request?.candidate ? 'candidate' : 'served',
  );
  if (change) await closePublished(store, ref, change, published.version);
  return { ...published, ...(replayTaskId && { replayTaskId }) };
}

/** The label of the next version: after the served version and the candidate, so that no number is given twice. */
const nextVersion = (entity: StoredEntity) => `v${versionNumber(newestVersionOf(entity)) + 1}`;

/** What a publish makes of the draft: the version executions get by default, or a rule's candidate, which they get only once promoted. */
export type PublishAs = 'served' | 'candidate';

export interface PublishResult {
  version: string;
  checksum: string;
  /** False when the content was already the served version or the candidate, which is returned instead. */
  created: boolean;
  /** Set when the version is the rule's candidate. */
  candidate?: true;
}

/**
 * Publishes the working copy as the next version `vN`: the version executions
 * get by default, or (`as: 'candidate'`) the rule's candidate, which they get
 * only by naming it, or through a rollout, until it is promoted. A new version
 * supersedes the candidate there was (and stops a rollout of it). Publishing
 * content that is already the served version returns that version; content
 * that is the candidate returns the candidate, or, published to be served,
 * promotes it. `check` may refuse by throwing, given the working copy and
 * whether a new version would be made of it, and gives what the version
 * keeps besides the record; it is asked again on every attempt.
 */
export function publishEntity(
  store: EntityStore,
  ref: EntityRef,
  actor: string,
  now = () => new Date().toISOString(),
  check?: (entity: StoredEntity, newVersion: boolean) => Promise<VersionExtras | void>,
  auditor?: Auditor,
  /** The approved change request it carries out (publishGate's): named in the audit record, and kept with a candidate it makes. */
  changeRequestId?: string,
  as: PublishAs = 'served',
): Promise<PublishResult> {
  return retryOnRevisionConflict(async () => {
    const entity = await store.getEntity(ref);
    if (!entity) throw errors.entityNotFound(ref.entityType, ref.id);
    const published = Boolean(entity.version) && entity.publishedChecksum === entity.checksum;
    const candidate = entity.candidate?.checksum === entity.checksum ? entity.candidate : undefined;
    const extras = await check?.(entity, !published && !candidate);
    if (published) return { version: entity.version, checksum: entity.checksum, created: false };
    const kind = entity.type as EntityInput['type'];
    const audit = (version: string, detail: Record<string, string> = {}) =>
      auditEvent(auditor, entityTarget(ref), {
        checksumBefore: entity.publishedChecksum,
        checksumAfter: entity.checksum,
        detail: { version, ...detail, ...(changeRequestId && { changeRequestId }) },
      });
    if (candidate && as === 'candidate') return { version: candidate.version, checksum: entity.checksum, created: false, candidate: true };
    if (candidate) {
      const next = { ...promoted({ ...entity, candidate }, actor, now()), revision: entity.revision + 1 };
      await store.putEntity(ref, next, entity.revision, kind, audit(candidate.version, { promoted: 'candidate' }));
      return { version: candidate.version, checksum: entity.checksum, created: false };
    }
    const version = nextVersion(entity);
    const publishedAt = now();
    const snapshot = {
      ...recordOf(entity),
      status: 'published' as const,
      version,
      updatedAt: entity.updatedAt,
      ...(entity.warnings && { warnings: entity.warnings }),
      ...extras,
    };
    const created = await store.putVersion(ref, snapshot, { version, checksum: entity.checksum, publishedAt, publishedBy: actor });
    if (!created) {
      // A publish that stopped after the snapshot: finish it, unless the snapshot holds other content.
      const existing = await store.getVersion(ref, version);
      if (existing?.checksum !== entity.checksum) throw new RevisionConflict(describeRef(ref));
    }
    // The candidate there was is superseded either way: by this one, or by this version served instead.
    const rest = { ...entity, candidate: undefined, rollout: stopped(entity.rollout, 'superseded', actor, publishedAt), revision: entity.revision + 1 };
    const next: StoredEntity =
      as === 'candidate'
        ? { ...rest, candidate: { version, checksum: entity.checksum, ...(changeRequestId && { changeRequestId }) } }
        : { ...rest, version, status: 'published', publishedChecksum: entity.checksum };
    await store.putEntity(ref, next, entity.revision, kind, audit(version, as === 'candidate' ? { candidate: 'true' } : {}));
    return { version, checksum: entity.checksum, created: true, ...(as === 'candidate' && { candidate: true as const }) };
  });
}
