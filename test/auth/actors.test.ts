/** Actors named for people: a key by its owner or label, a key gone by its id, other actors as written; each key read once, and no more than the bound. */
import { describe, expect, it } from 'vitest';
import { actorNames, keyActor, namedActorsPerAnswer } from '../../lib/auth/actors.ts';
import type { ApiKey } from '../../lib/store/types.ts';

const key = (keyId: string, fields: Partial<ApiKey> = {}): ApiKey => ({
  keyId,
  workspaceId: 'ws',
  label: `label of ${keyId}`,
  createdAt: '2025-01-01T00:00:00Z',
  ...fields,
});

/** A directory holding `keys` of workspace ws, counting its reads. */
function directory(keys: ApiKey[]) {
  const reads: string[] = [];
  return {
    reads,
    getApiKeyById: async (workspaceId: string, keyId: string) => {
      reads.push(keyId);
      return keys.find((each) => each.workspaceId === workspaceId && each.keyId === keyId);
    },
  };
}

describe('actorNames', () => {
  it('names a key by its owner, else its label; a key gone by its id; an actor that is no key as written', async () => {
    const store = directory([key('key_owned', { owner: 'alice@example.com' }), key('key_labelled', { label: 'ci deploys' })]);
    const names = await actorNames(store, 'ws', [keyActor('key_owned'), keyActor('key_labelled'), keyActor('key_gone'), 'seed']);
    expect(Object.fromEntries(names)).toEqual({
      'key:key_owned': 'alice@example.com',
      'key:key_labelled': 'ci deploys',
      'key:key_gone': 'key_gone',
      seed: 'seed',
    });
  });

  it("reads each key once however often it acts, and only the workspace's", async () => {
    const store = directory([key('key_a', { owner: 'alice' }), key('key_b', { owner: 'bob', workspaceId: 'other' })]);
    const names = await actorNames(store, 'ws', [keyActor('key_a'), keyActor('key_b'), keyActor('key_a'), keyActor('key_a')]);
    expect(store.reads).toEqual(['key_a', 'key_b']);
    expect(names.get(keyActor('key_a'))).toBe('alice');
    expect(names.get(keyActor('key_b'))).toBe('key_b');
  });

  it(`reads at most ${namedActorsPerAnswer} keys; the others show their ids`, async () => {
    const many = Array.from({ length: namedActorsPerAnswer + 5 }, (_, n) => key(`key_${n}`, { owner: `owner ${n}` }));
    const store = directory(many);
    const names = await actorNames(
      store,
      'ws',
      many.map((each) => keyActor(each.keyId)),
    );
    expect(store.reads).toHaveLength(namedActorsPerAnswer);
    expect(names.get(keyActor('key_0'))).toBe('owner 0');
    expect(names.get(keyActor(`key_${namedActorsPerAnswer}`))).toBe(`key_${namedActorsPerAnswer}`);
    expect(names.size).toBe(many.length);
  });

  it('reads nothing for an answer without keys', async () => {
    const store = directory([]);
    expect(await actorNames(store, 'ws', [])).toEqual(new Map());
    expect(Object.fromEntries(await actorNames(store, 'ws', ['seed', 'seed']))).toEqual({ seed: 'seed' });
    expect(store.reads).toEqual([]);
  });
});
