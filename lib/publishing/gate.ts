/**
 * What a publish on a branch must show (lib/changes is where change requests
 * are proposed, reviewed and approved): on a protected branch, an open,
 * fresh change request with enough approvals; and once the version is made,
 * the request closed with it. Every publish passes here (./publish.ts).
 */
import { loadChangeRequest, mustBeOpen } from '../changes/service.ts';
import { errors } from '../vocabulary/errors.ts';
import type { ChangeRequest, EntityRef, Store } from '../store/types.ts';

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
  // A retry of a publish that closed its request: the publish answers the version it made.
  if (request.state === 'published' && draft?.publishedChecksum === request.checksum) return request;
  mustBeOpen(request, draft);
  const approvals = Object.keys(request.approvals).length;
  const required = protection?.requiredApprovals ?? 0;
  if (approvals < required) throw errors.approvalsMissing(changeRequestId, approvals, required);
  return request;
}

/** Closes a published request with the version it became. */
export async function closePublished(store: Store, ref: EntityRef, request: ChangeRequest, version: string) {
  if (request.state === 'open')
    await store.closeChangeRequest(ref, request.id, { state: 'published', closedAt: new Date().toISOString(), publishedVersion: version });
}
