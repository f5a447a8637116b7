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
 * - a key's owner is fixed once the key has proposed or approved a change
 *   request (`ownerFixedAt`), so the same key cannot approve again under a new
 *   name, nor an author's key become someone else's.
 *
 * A key made by the operator (the CLI or the seed) has no voucher: the
 * operator answers for it.
 */
import type { ApiKey, DirectoryStore } from '../store/types.ts';
import { keyOwner } from './authenticate.ts';

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
