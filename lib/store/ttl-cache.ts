/**
 * A warm function's memory of reads that rarely change: each hit is kept for
 * `ttlMs`, so that what changed elsewhere (another function, another
 * instance) is seen within that bound; misses are never kept, so that what
 * was just made is found at once. Bounded in entries (the oldest go first).
 * A write made in this process forgets its entry at once.
 */
export interface TtlCache<T> {
  get(key: string, load: () => Promise<T | undefined>): Promise<T | undefined>;
  forget(key: string): void;
}

export function createTtlCache<T>(ttlMs: number, maxEntries = 1_000, now: () => number = Date.now): TtlCache<T> {
  const entries = new Map<string, { value: T; until: number }>();
  return {
    async get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.until > now()) return hit.value;
      const value = await load();
      entries.delete(key);
      if (value !== undefined && ttlMs > 0) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { value, until: now() + ttlMs });
      }
      return value;
    },
    forget: (key) => void entries.delete(key),
  };
}
