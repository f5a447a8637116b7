/**
 * Who did something, as the records keep it and as people read it. A write
 * made through the API stores its actor as `key:<keyId>` (a version's
 * publishedBy, a draft's createdBy and updatedBy), so that renaming a key or
 * changing its owner never rewrites history; the import and seed write their
 * own names (`seed`). People, and readers who may not list the workspace's
 * keys, need a name instead: `actorNames` resolves the ids of an answer from
 * the key records when the answer is read, so a key renamed since shows its
 * name of today, and a key gone shows its id.
 */
import type { ApiKey, DirectoryStore } from '../store/types.ts';

const keyPrefix = 'key:';

/** The actor of a write made with the key `keyId`. */
export const keyActor = (keyId: string) => `${keyPrefix}${keyId}`;

/**
 * How many distinct actors one answer names: each costs two reads (the key's
 * index entry, then the key), so a rule published by many keys names the
 * first ones met and shows the others by their key ids.
 */
export const namedActorsPerAnswer = 25;

/** A key as people know it: its owner (the person or system it belongs to), else its label. */
const keyName = (key: Pick<ApiKey, 'label' | 'owner'>) => key.owner ?? key.label;

/** The name of one actor: the key's when it is a key that was found, else its key id, else the actor as written (`seed`). */
function actorName(actor: string, keys: ReadonlyMap<string, ApiKey | undefined>): string {
  if (!actor.startsWith(keyPrefix)) return actor;
  const key = keys.get(actor);
  return key ? keyName(key) : actor.slice(keyPrefix.length);
}

/**
 * The display name of each of `actors` (repeats allowed), by actor: the key
 * records of the workspace are read once per distinct key, in parallel, the
 * first `namedActorsPerAnswer` of them.
 *
 * @example
 * const names = await actorNames(store, 'acme', ['key:key_1a2b', 'seed']); // Map { 'key:key_1a2b' => 'alice@acme.test', 'seed' => 'seed' }
 */
export async function actorNames(store: Pick<DirectoryStore, 'getApiKeyById'>, workspaceId: string, actors: readonly string[]): Promise<Map<string, string>> {
  const distinct = [...new Set(actors)];
  const looked = distinct.filter((actor) => actor.startsWith(keyPrefix)).slice(0, namedActorsPerAnswer);
  const found = await Promise.all(looked.map((actor) => store.getApiKeyById(workspaceId, actor.slice(keyPrefix.length))));
  const keys = new Map(looked.map((actor, at) => [actor, found[at]]));
  return new Map(distinct.map((actor) => [actor, actorName(actor, keys)]));
}
