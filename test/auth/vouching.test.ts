/**
 * Who a key acts for: itself and its owner, and every key up its chain of
 * vouchers; a chain too long or that loops is taken as the author's. And the
 * person it approves as: a personal key's person, by issuer and subject; its
 * owner when the operator or an unlimited admin named it, else the person of
 * the branch-limited key that did.
 */
import { describe, expect, it } from 'vitest';
import { personId } from '../../lib/auth/authenticate.ts';
import { actsFor, personOf, vouchingDepth } from '../../lib/auth/vouching.ts';
import type { ApiKey } from '../../lib/store/types.ts';

const key = (keyId: string, owner: string, vouchedBy?: string, fields: Partial<ApiKey> = {}): ApiKey => ({
  keyId,
  workspaceId: 'ws',
  label: keyId,
  owner,
  role: 'publisher',
  createdAt: '2025-01-01T00:00:00Z',
  ...(vouchedBy && { vouchedBy }),
  ...fields,
});

const directory = (keys: ApiKey[]) => ({
  getApiKeyById: async (workspaceId: string, keyId: string) => keys.find((each) => each.workspaceId === workspaceId && each.keyId === keyId),
});

describe('actsFor', () => {
  const root = key('key_root', 'ops');
  const alice = key('key_alice', 'alice', 'key_root');
  const minted = key('key_minted', 'bob', 'key_alice');
  const grandchild = key('key_grand', 'carol', 'key_minted');
  const store = directory([root, alice, minted, grandchild]);

  it('holds for the author, by key or by owner, and for every key the author vouched for, however far down', async () => {
    expect(await actsFor(store, alice, { keyId: 'key_alice', owner: 'someone else' })).toBe(true);
    expect(await actsFor(store, key('key_other', 'alice'), { keyId: 'key_alice', owner: 'alice' })).toBe(true);
    expect(await actsFor(store, minted, { keyId: 'key_alice', owner: 'alice' })).toBe(true);
    expect(await actsFor(store, grandchild, { keyId: 'key_x', owner: 'alice' })).toBe(true);
  });

  it('does not hold for a key that the author did not vouch for, though they share a voucher', async () => {
    const dave = key('key_dave', 'dave', 'key_root');
    expect(await actsFor(directory([root, alice, dave]), dave, { keyId: 'key_alice', owner: 'alice' })).toBe(false);
    expect(await actsFor(store, alice, { keyId: 'key_minted', owner: 'bob' })).toBe(false);
  });

  it('takes a key that vouched for itself, a loop, or a chain past the bound as the author', async () => {
    const selfNamed = key('key_self', 'max', 'key_self');
    expect(await actsFor(directory([selfNamed]), selfNamed, { keyId: 'key_a', owner: 'alice' })).toBe(true);
    const chain = Array.from({ length: vouchingDepth + 1 }, (_, at) => key(`key_${at}`, `owner ${at}`, at ? `key_${at - 1}` : undefined));
    expect(await actsFor(directory(chain), chain.at(-1)!, { keyId: 'key_a', owner: 'alice' })).toBe(true);
    expect(await actsFor(directory(chain), chain.at(-2)!, { keyId: 'key_a', owner: 'alice' })).toBe(false);
  });

  it('stops at a voucher that is gone', async () => {
    const orphan = key('key_orphan', 'olga', 'key_deleted');
    expect(await actsFor(directory([orphan]), orphan, { keyId: 'key_a', owner: 'alice' })).toBe(false);
  });
});

describe('personOf', () => {
  const root = key('key_root', 'ops', undefined, { role: 'admin' });
  const limited = key('key_limited', 'mallory', 'key_root', { role: 'admin', branches: ['main'] });
  const store = directory([root, limited]);

  it('is the owner of a key the operator made, or an admin limited to no branch made or renamed', async () => {
    expect(await personOf(store, root)).toBe('ops');
    expect(await personOf(store, key('key_erin', 'erin', 'key_root'))).toBe('erin');
    expect(await personOf(store, key('key_gone', 'gina', 'key_deleted'))).toBe('gina');
  });

  it('is the branch-limited maker for a key such a key made or renamed, however far down', async () => {
    expect(await personOf(store, key('key_bob', 'bob', 'key_limited'))).toBe('mallory');
    const sub = key('key_sub', 'sub', 'key_limited', { role: 'admin', branches: ['main'] });
    expect(await personOf(directory([root, limited, sub]), key('key_gus', 'gus', 'key_sub'))).toBe('mallory');
  });

  it("is a personal key's person by issuer and subject, as when they sign in, and so for a key a branch-limited personal key made", async () => {
    const ben = { issuer: 'https://idp.example', subject: 'sub-ben', email: 'ben@bank.example', groups: [] };
    const personal = key('key_ben', 'ben@bank.example', undefined, { role: 'admin', branches: ['main'], person: ben });
    expect(await personOf(store, personal)).toBe(personId(ben));
    expect(await personOf(directory([personal]), key('key_made', 'someone', 'key_ben'))).toBe(personId(ben));
  });

  it('is no one for a loop', async () => {
    const a = key('key_a', 'a', 'key_b', { role: 'admin', branches: ['main'] });
    const b = key('key_b', 'b', 'key_a', { role: 'admin', branches: ['main'] });
    expect(await personOf(directory([a, b]), a)).toBeUndefined();
  });
});
