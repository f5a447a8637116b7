/**
 * Writes without transactions are conditional on the revision read, so a
 * writer that another got ahead of must read and try again. The adapters
 * throw RevisionConflict when a revision moved; the domain wraps each
 * read-modify-write in `retryOnRevisionConflict`, and lib/http answers a
 * conflict that outlasted its tries.
 */

export class RevisionConflict extends Error {
  /** `what`: the item that changed, as people name it ("rule shipping-cost"). */
  constructor(readonly what: string) {
    super(`${what} changed while it was being written`);
  }
}

/** Tries of a read-modify-write that others keep changing under it, and the longest wait between two. */
export const revisionRetries = { attempts: 10, maxDelayMs: 200 } as const;

/**
 * Runs a read-modify-write again when another writer got in between, after a
 * random wait that grows with each try (so that writers racing for one item
 * spread out instead of colliding again), `revisionRetries.attempts` times in
 * all; past that, the conflict is the caller's (lib/http answers it 409).
 */
export async function retryOnRevisionConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RevisionConflict)) throw error;
      if (i >= revisionRetries.attempts) throw new RevisionConflict(error.what);
      const ceiling = Math.min(revisionRetries.maxDelayMs, 5 * 2 ** i);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}
