/**
 * Who answers for a key's owner. Until people sign in with an identity the
 * issuer verified, a key's owner is a label that a `manage` key writes, so a
 * second label is not a second person. Two rules keep a label from standing
 * in for one:
 *
 * - a key remembers the key that vouched for its owner (`vouchedBy`: the key
 *   that made it, or last changed its owner), and whatever it approves is the
 *   work of every key up that chain too. A key made by a request's author, or
 *   by a key the author made (or owns), approves as the author: it is refused;
 * - a key limited to branches vouches for no second person: a key it made or
 *   renamed is counted as the person of that key (`personOf`), so that two
 *   keys it mints are one approval, not two. The operator and the keys that
 *   govern the workspace (admins limited to no branch, who could lift the
 *   protection anyway) name people;
 * - a key's owner is fixed once the key has proposed or approved a change
 *   request (`ownerFixedAt`), so the same key cannot approve again under a new
 *   name, nor an author's key become someone else's.
 *
 * A key made by the operator (the CLI or the seed) has no voucher: the
 * operator answers for it.
 */
import type { ApiKey, DirectoryStore } from '../store/types.ts';
import { defaultRole } from '../vocabulary/permissions.ts';
import { keyOwner, personId } from './authenticate.ts';

/** How far up a chain of vouching keys an approval is traced; a longer chain is taken as the author's work (refused). */
export const vouchingDepth = 16;

/** A key as a change request names its author: by key, and by owner as it was then. */
export interface Identity {
  keyId: string;
  owner: string;
}

/**
 * Whether `key` acts for `author`: it is the author's key or owned by the
 * author, or a key up its chain of vouchers is. A chain longer than
 * `vouchingDepth`, or that loops, counts as the author's.
 *
 * @example
 * await actsFor(store, key, { keyId: 'key_a1', owner: 'alice' }); // true when alice's key made `key`
 */
export async function actsFor(store: Pick<DirectoryStore, 'getApiKeyById'>, key: ApiKey, author: Identity): Promise<boolean> {
  const seen = new Set<string>();
  for (
    let current: ApiKey | undefined = key;
    current;
    current = current.vouchedBy ? await store.getApiKeyById(key.workspaceId, current.vouchedBy) : undefined
  ) {
    if (current.keyId === author.keyId || keyOwner(current) === author.owner) return true;
    if (seen.has(current.keyId) || seen.size >= vouchingDepth) return true;
    seen.add(current.keyId);
  }
  return false;
}

/** Whether a key may name who another key belongs to: the operator's word, or an admin's limited to no branch. */
const namesPeople = (voucher: ApiKey) => (voucher.role ?? defaultRole) === 'admin' && !voucher.branches;

/**
 * The person whose approval a key gives: a personal key's person, by their
 * issuer and subject (their id, as when they call signed in); its owner, when
 * the operator made it or a key that names people made or renamed it last;
 * else the person of the key that did. undefined (no one: the approval counts for nobody) when the
 * chain loops or runs past `vouchingDepth`.
 *
 * @example
 * await personOf(store, keyMintedByALimitedAdmin); // the limited admin's owner, whatever owner the minted key shows
 */
export async function personOf(store: Pick<DirectoryStore, 'getApiKeyById'>, key: ApiKey): Promise<string | undefined> {
  const seen = new Set<string>();
  for (let current = key; seen.size < vouchingDepth && !seen.has(current.keyId);) {
    seen.add(current.keyId);
    if (current.person) return personId(current.person);
    const voucher = current.vouchedBy ? await store.getApiKeyById(key.workspaceId, current.vouchedBy) : undefined;
    if (!voucher || namesPeople(voucher)) return keyOwner(current);
    current = voucher;
  }
  return undefined;
}
