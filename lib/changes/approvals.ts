/**
 * Which approvals of a change request count. An approval is recorded under
 * the owner of the key that gave it; it counts, when the request is shown and
 * again when it is published, only while that key is, now, neither revoked nor
 * expired, holds `approve` on the request's branch, still belongs to the owner
 * it approved as, and neither is the author's nor acts for the author; and
 * once per person (lib/auth/vouching.ts): of two approvals that are one
 * person's (two keys a branch-limited admin minted), the first counts. A
 * person signed in approves as themselves (their issuer and subject), while
 * the workspace's mapping still gives `approve` on the branch to the groups
 * their token named or to their e-mail.
 */
import { isUsable, keyOwner } from '../auth/authenticate.ts';
import { actsFor, personOf } from '../auth/vouching.ts';
import { grantsOf, grantsOn } from '../auth/grants.ts';
import type { ApiKey, Approval, ChangeRequest, DirectoryStore } from '../store/types.ts';
import { defaultRole, grants } from '../vocabulary/permissions.ts';

type Keys = Pick<DirectoryStore, 'getApiKeyById' | 'getWorkspace'>;

/** Whether `key` may still approve `request` as `approval.owner` (see above, but for the one-per-person rule). */
const usableFor = async (store: Keys, request: ChangeRequest, approval: Approval, key: ApiKey | undefined, now: number): Promise<boolean> =>
  key !== undefined &&
  isUsable(key, now) &&
  grants(key.role ?? defaultRole, 'approve') &&
  (!key.branches || key.branches.includes(request.branch)) &&
  keyOwner(key) === approval.owner &&
  !(await actsFor(store, key, request.author));

/** The person a request's author is: the person of the key that proposed it, or the owner it recorded when that key is gone. */
export async function authorPerson(store: Keys, request: ChangeRequest): Promise<string | undefined> {
  const key = await store.getApiKeyById(request.workspaceId, request.author.keyId);
  return key ? personOf(store, key) : request.author.owner;
}

/**
 * The owners whose approvals of `request` count now, oldest first.
 *
 * @example
 * await standingApprovers(store, request); // Set { 'bob' } when carol's key was revoked after she approved
 */
export async function standingApprovers(store: Keys, request: ChangeRequest, now = Date.now()): Promise<Set<string>> {
  const approvals = Object.values(request.approvals).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const keys = await Promise.all(approvals.map((approval) => (approval.person ? undefined : store.getApiKeyById(request.workspaceId, approval.keyId))));
  const access = approvals.some((approval) => approval.person) ? (await store.getWorkspace(request.workspaceId))?.access : undefined;
  // The author, as a key's person and by their id (a person's is `person_…`).
  const people = new Set([await authorPerson(store, request), request.author.keyId]);
  const standing = new Set<string>();
  for (const [at, approval] of approvals.entries()) {
    const key = keys[at];
    // A person's approval stands while the mapping still gives approve on the branch to their groups or e-mail; a key's, as above.
    const person = approval.person
      ? grantsOn(grantsOf(access, approval.person), 'approve', request.branch)
        ? approval.keyId
        : undefined
      : key && (await usableFor(store, request, approval, key, now))
        ? await personOf(store, key)
        : undefined;
    if (person === undefined || people.has(person)) continue;
    people.add(person);
    standing.add(approval.owner);
  }
  return standing;
}
