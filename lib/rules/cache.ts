/**
 * Compiled rules (and workflows) kept by a warm function, so a version is
 * loaded and compiled once rather than on every call. Bounded twice, least recently used
 * out first: by entries, and by the size of the definitions compiled (a large
 * decision table weighs more than many small rules). A version never changes,
 * but the latest published version of a rule it refers to may: an entry
 * compiled with references is kept only `referencesTtlMs`.
 */
/** What the cache keeps: anything compiled, with its weight and whether it was compiled with references. */
export interface Cacheable {
  /** The size of the definitions compiled (JSON characters). */
  weight: number;
  /** How many other entities it was compiled with (their latest published versions may change). */
  references: number;
}

export interface CacheLimits {
  maxEntries: number;
  /** Sum of the entries' `weight` (definition JSON characters). */
  maxWeight: number;
  referencesTtlMs: number;
}

export const defaultCacheLimits: CacheLimits = { maxEntries: 200, maxWeight: 16 * 1024 * 1024, referencesTtlMs: 30_000 };

export class CompiledCache<T extends Cacheable> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  private weight = 0;

  constructor(
    private readonly limits: CacheLimits = defaultCacheLimits,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > this.now()) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.value;
    }
    if (cached) this.remove(key);
    const value = await load();
    if (this.entries.has(key)) this.remove(key);
    this.entries.set(key, { value, expiresAt: value.references ? this.now() + this.limits.referencesTtlMs : Infinity });
    this.weight += value.weight;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries && this.weight <= this.limits.maxWeight) break;
      if (oldest !== key) this.remove(oldest);
    }
    return value;
  }

  get size() {
    return this.entries.size;
  }

  private remove(key: string) {
    this.weight -= this.entries.get(key)?.value.weight ?? 0;
    this.entries.delete(key);
  }
}
