import { createTtlCache } from './ttl-cache.ts';
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
  const entries = createTtlCache<unknown>(ttlMs, 10_000);
  const cached =
    <A extends unknown[], R>(name: string, load: (...args: A) => Promise<R | undefined>) =>
    (...args: A): Promise<R | undefined> =>
      entries.get(`${name}\u0000${args.join('\u0000')}`, () => load(...args)) as Promise<R | undefined>;
  return Object.assign(Object.create(directory) as DirectoryStore, {
    getApiKeyByHash: cached('key', directory.getApiKeyByHash.bind(directory)),
    getWorkspace: cached('workspace', directory.getWorkspace.bind(directory)),
    getBranch: cached('branch', directory.getBranch.bind(directory)),
  });
}
