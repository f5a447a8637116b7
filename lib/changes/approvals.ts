/**
 * Which approvals of a change request count. An approval is recorded under
 * the owner of the key that gave it; it counts, when the request is shown and
 * again when it is published, only while that key is, now, neither revoked nor
 * expired, holds `approve` on the request's branch, still belongs to the owner
 * it approved as, and neither is the author's nor acts for the author
 * (lib/auth/vouching.ts). Approvals are kept one per owner, and a key has one
 * owner, so a key counts at most once.
 */
import { isUsable, keyOwner } from '../auth/authenticate.ts';
import { actsFor } from '../auth/vouching.ts';
import type { Approval, ChangeRequest, DirectoryStore } from '../store/types.ts';
import { defaultRole, grants } from '../vocabulary/permissions.ts';

/** Whether `approval` of `request` counts now (see above). */
async function stands(store: Pick<DirectoryStore, 'getApiKeyById'>, request: ChangeRequest, approval: Approval, now: number): Promise<boolean> {
  const key = await store.getApiKeyById(request.workspaceId, approval.keyId);
  return (
    key !== undefined &&
    isUsable(key, now) &&
    grants(key.role ?? defaultRole, 'approve') &&
    (!key.branches || key.branches.includes(request.branch)) &&
    keyOwner(key) === approval.owner &&
    !(await actsFor(store, key, request.author))
  );
}

/**
 * The owners whose approvals of `request` count now.
 *
 * @example
 * await standingApprovers(store, request); // Set { 'bob' } when carol's key was revoked after she approved
 */
export async function standingApprovers(store: Pick<DirectoryStore, 'getApiKeyById'>, request: ChangeRequest, now = Date.now()): Promise<Set<string>> {
  const approvals = Object.values(request.approvals);
  const counted = await Promise.all(approvals.map((approval) => stands(store, request, approval, now)));
  return new Set(approvals.filter((_, at) => counted[at]).map((approval) => approval.owner));
}
