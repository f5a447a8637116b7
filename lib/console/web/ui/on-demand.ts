/**
 * Code the page fetches on first use (esbuild puts each `import()` in a chunk
 * of its own), so that opening the console does not wait for the FEEL parser.
 */

/**
 * The module `load` fetches, fetched once and kept. Undefined when it cannot
 * be had (a page left open across a deployment asks for a chunk that is
 * gone): the caller goes on without it, and the next call asks again.
 *
 * @example
 * const loadRename = onDemand(() => import('../../../engine/feel/rename.ts'));
 * const rename = (await loadRename())?.renameReads;
 */
export function onDemand<T>(load: () => Promise<T>): () => Promise<T | undefined> {
  let loading: Promise<T | undefined> | undefined;
  return () =>
    (loading ??= load().catch(() => {
      loading = undefined;
      return undefined;
    }));
}
