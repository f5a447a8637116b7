/**
 * What a change of what a protected branch serves must show (lib/changes is
 * where change requests are proposed, reviewed and approved). A publish, plain
 * or as a candidate (./publish.ts): an open, fresh change request with enough
 * approvals, which is closed with the version it made. A rollout of a
 * candidate, started, changed or promoted (lib/rollout/service.ts): a
 * candidate that such a request published, whose approval covers its rollout
 * and promotion. A push (lib/remote/push-run.ts): every rule and workflow it
 * would send is what the branch serves, so that no unapproved draft leaves
 * through the remote. A delete, through the API or by a pull
 * (lib/publishing/delete.ts, lib/remote/pull-run.ts): nothing the branch
 * serves or was approved to roll out, since no change request deletes. Ending
 * a rollout stays free: it only takes the served version back.
 */
import { standingApprovers } from '../changes/approvals.ts';
import { loadChangeRequest, mustBeOpen } from '../changes/service.ts';
import { errors } from '../vocabulary/errors.ts';
import type { Candidate, ChangeRequest, DirectoryStore, EntityRef, Store, StoredEntity } from '../store/types.ts';
import { entityTypeOf, entityTypes, type EntityKind, type EntityType } from '../vocabulary/kinds.ts';

/**
 * What a publish on `ref`'s branch must show: nothing on an unprotected
 * branch without a request; else an open, fresh request with enough
 * approvals. Answers the request it publishes, if any.
 */
export async function publishGate(store: Store, ref: EntityRef, changeRequestId: string | undefined): Promise<ChangeRequest | undefined> {
  if (!changeRequestId) {
    const branch = await store.getBranch(ref.workspaceId, ref.branch);
    if (branch?.protection) throw errors.branchProtected(ref.branch);
    return undefined;
  }
  const { request, draft, protection } = await loadChangeRequest(store, ref, changeRequestId);
  // A retry of the publish that closed the request, its draft still the request's content: the publish answers the version it made
  // and makes no other (publishDraft publishes only the request's checksum).
  if (
    request.state === 'published' &&
    draft?.checksum === request.checksum &&
    (draft.publishedChecksum === request.checksum || draft.candidate?.checksum === request.checksum)
  )
    return request;
  mustBeOpen(request, draft);
  const approvals = (await standingApprovers(store, request)).size;
  const required = protection?.requiredApprovals ?? 0;
  if (approvals < required) throw errors.approvalsMissing(changeRequestId, approvals, required);
  return request;
}

/** Closes a published request with the version it became. */
export async function closePublished(store: Store, ref: EntityRef, request: ChangeRequest, version: string) {
  if (request.state === 'open')
    await store.closeChangeRequest(ref, request.id, { state: 'published', closedAt: new Date().toISOString(), publishedVersion: version });
}

/** Refuses, on a protected branch, to roll out or promote a candidate that no approved change request published. */
export async function rolloutGate(store: Pick<DirectoryStore, 'getBranch'>, ref: EntityRef, candidate: Candidate): Promise<void> {
  if (candidate.changeRequestId) return;
  const branch = await store.getBranch(ref.workspaceId, ref.branch);
  if (branch?.protection) throw errors.candidateNotApproved(ref.branch, candidate.version);
}

/**
 * Refuses a push from a protected branch while any of its rules and workflows
 * holds a draft other than what it serves (never published, or edited since):
 * a push sends the branch as it is, and there only approved content leaves.
 */
export async function pushGate(store: Pick<DirectoryStore, 'getBranch'>, workspaceId: string, branch: string, entities: Record<EntityType, StoredEntity[]>) {
  const drafts = entityTypes.flatMap((type) => entities[type].filter((e) => !e.version || e.publishedChecksum !== e.checksum).map((e) => `${type} ${e.id}`));
  if (!drafts.length) return;
  if ((await store.getBranch(workspaceId, branch))?.protection) throw errors.pushUnapproved(branch, drafts);
}

/**
 * Refuses, on a protected branch, to delete any of `entities` that it serves
 * (a published version) or was approved to roll out (a candidate): their
 * versions run, or may, and no change request deletes.
 */
export async function deleteGate(
  store: Pick<DirectoryStore, 'getBranch'>,
  workspaceId: string,
  branch: string,
  entities: readonly (StoredEntity | undefined)[],
) {
  const kept = entities.filter((e): e is StoredEntity => Boolean(e && (e.version || e.candidate)));
  if (!kept.length) return;
  if ((await store.getBranch(workspaceId, branch))?.protection)
    throw errors.deleteProtected(
      branch,
      kept.map((e) => `${entityTypeOf(e.type as EntityKind)} ${e.id}`),
    );
}
