/**
 * Who may approve a change request, and which approvals count. People
 * approve: a person signed in approves as themselves (their issuer and
 * subject), and their approval counts while the workspace's mapping still
 * gives `approve` on the branch to the groups their token named or to their
 * e-mail. API keys approve only in a workspace whose mapping says so
 * (`keyApprovals`, which a mapping naming any group or person cannot say:
 * lib/workspaces/access.ts); elsewhere a key is refused (`mayApprove`), and
 * what keys approved before counts for nothing, so that turning keyApprovals
 * off ends every key's approval at once.
 *
 * Where keys approve, a key's approval is recorded under the owner of the key
 * that gave it, and counts only while that key is, now, usable as
 * authentication judges it (neither revoked nor expired, a personal key still
 * covered by its person's grants), holds `approve` on the request's branch,
 * still belongs to the owner it approved as, and neither is the author's nor
 * acts for the author.
 *
 * Whether an approval counts is weighed when the request is shown and again
 * when it is published; each counts once per person (lib/auth/vouching.ts: of
 * two approvals that are one person's, the first counts), and none under a
 * name the author goes by (`authorNames`): a person's personal key is that
 * person.
 */
import { isUsable, keyOwner, stillCovered } from '../auth/authenticate.ts';
import { actsFor, personOf } from '../auth/vouching.ts';
import { grantsOf, grantsOn, keysApprove } from '../auth/grants.ts';
import type { Person } from '../auth/person-token.ts';
import type { ApiKey, Approval, ChangeRequest, DirectoryStore, WorkspaceAccess } from '../store/types.ts';
import { errors } from '../vocabulary/errors.ts';
import { defaultRole, grants } from '../vocabulary/permissions.ts';

type Keys = Pick<DirectoryStore, 'getApiKeyById' | 'getWorkspace'>;

/**
 * Refuses an approval by an API key (403 key_cannot_approve), unless the
 * workspace's mapping lets keys approve: asked before the request is read. A
 * person (`person`, from their token) always may, as far as this goes.
 */
export async function mayApprove(store: Pick<DirectoryStore, 'getWorkspace'>, workspaceId: string, person: Person | undefined) {
  if (!person && !keysApprove((await store.getWorkspace(workspaceId))?.access)) throw errors.keyCannotApprove();
}

/** Whether `key` may still approve `request` as `approval.owner` (see above, but for the one-per-person rule). */
const usableFor = async (store: Keys, access: WorkspaceAccess | undefined, request: ChangeRequest, approval: Approval, key: ApiKey, now: number) =>
  isUsable(key, now) &&
  stillCovered(key, access) &&
  grants(key.role ?? defaultRole, 'approve') &&
  (!key.branches || key.branches.includes(request.branch)) &&
  keyOwner(key) === approval.owner &&
  !(await actsFor(store, key, request.author));

/**
 * Every name a request's author goes by, under none of which an approval
 * counts: the key (a person's id, for a person) and owner it was proposed
 * with, and the person its key approves as (lib/auth/vouching.ts), a personal
 * key's person by issuer and subject; or the owner it recorded, when that key
 * is gone.
 */
export async function authorNames(store: Keys, request: ChangeRequest): Promise<Set<string>> {
  const key = await store.getApiKeyById(request.workspaceId, request.author.keyId);
  const person = key && (await personOf(store, key));
  return new Set([request.author.keyId, request.author.owner, ...(person === undefined ? [] : [person])]);
}

/**
 * The owners whose approvals of `request` count now, oldest first.
 *
 * @example
 * await standingApprovers(store, request); // Set { 'bob@bank.example' } when carol's groups no longer give approve on the branch
 */
export async function standingApprovers(store: Keys, request: ChangeRequest, now = Date.now()): Promise<Set<string>> {
  const approvals = Object.values(request.approvals).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  if (!approvals.length) return new Set();
  const access = (await store.getWorkspace(request.workspaceId))?.access;
  // A key's approval is weighed only where keys approve now; elsewhere it counts for nobody.
  const keys = await Promise.all(
    approvals.map((approval) => (approval.person || !keysApprove(access) ? undefined : store.getApiKeyById(request.workspaceId, approval.keyId))),
  );
  const people = await authorNames(store, request);
  const standing = new Set<string>();
  for (const [at, approval] of approvals.entries()) {
    const key = keys[at];
    const person = approval.person
      ? grantsOn(grantsOf(access, approval.person), 'approve', request.branch)
        ? approval.keyId
        : undefined
      : key && (await usableFor(store, access, request, approval, key, now))
        ? await personOf(store, key)
        : undefined;
    if (person === undefined || people.has(person) || people.has(approval.owner)) continue;
    people.add(person);
    standing.add(approval.owner);
  }
  return standing;
}
