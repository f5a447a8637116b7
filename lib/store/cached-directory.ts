import type { DirectoryStore } from './types.ts';

/**
 * Keeps the lookups every request makes (API key, workspace, branch) in memory
 * for `ttlMs`, so a warm function reads DynamoDB only for the data asked for.
 * Only hits are kept: a key created or a branch added works at once, while a
 * revocation or a changed expiry takes effect within `ttlMs`. A cached key
 * carries the expiry it had when read, which is checked on every call.
 */
export function cachedDirectory(directory: DirectoryStore, ttlMs: number): DirectoryStore {
  if (ttlMs <= 0) return directory;
  const entries = new Map<string, { value: unknown; until: number }>();
  const cached =
    <A extends unknown[], R>(name: string, load: (...args: A) => Promise<R | undefined>) =>
    async (...args: A): Promise<R | undefined> => {
      const key = `${name}\u0000${args.join('\u0000')}`;
      const hit = entries.get(key);
      if (hit && hit.until > Date.now()) return hit.value as R;
      const value = await load(...args);
      if (value === undefined) entries.delete(key);
      else entries.set(key, { value, until: Date.now() + ttlMs });
      return value;
    };
  return Object.assign(Object.create(directory) as DirectoryStore, {
    getApiKeyByHash: cached('key', directory.getApiKeyByHash.bind(directory)),
    getWorkspace: cached('workspace', directory.getWorkspace.bind(directory)),
    getBranch: cached('branch', directory.getBranch.bind(directory)),
  });
}
