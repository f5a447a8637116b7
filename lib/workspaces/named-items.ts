/**
 * What credentials and integrations share as things a workspace names: a
 * name unique in the workspace (case-insensitive), claimed before what bears
 * it is written, which makes a retried create safe; and lists by name.
 */
import type { ApiError } from '../vocabulary/errors.ts';
import { RevisionConflict } from '../store/revision-retry.ts';
import type { NameClaimStore, NamedKind } from '../store/types.ts';

export interface Named {
  id: string;
  name: string;
}

export interface ClaimOptions<T extends Named> {
  kind: NamedKind;
  /** The item of this kind with this id, if it exists. */
  read: (id: string) => Promise<T | undefined>;
  /** Whether an item still uses its name; a revoked credential does not. Always, unless given. */
  usesName?: (item: T) => boolean;
  /** What to throw when a create of the name stays under way past the wait. */
  busy: (name: string) => ApiError;
}

/**
 * How long a name claim without its item is taken for a create still under
 * way, not one that died: a little longer than a create's function may run
 * (10 s), so that a client retrying a create that failed half-way succeeds
 * soon after.
 */
const claimGraceMs = 12_000;
const claimWaitMs = 100;
const claimAttempts = 30;

/**
 * Claims `name` for the item `id`. A holder that no longer uses the name
 * (renamed since, revoked, or a create that died) is taken over; a create
 * still under way is waited for, so that two identical creates at once make
 * one item. Returns the item that holds the name, if another does.
 */
export async function claimName<T extends Named>(
  store: NameClaimStore,
  workspaceId: string,
  name: string,
  id: string,
  options: ClaimOptions<T>,
): Promise<T | undefined> {
  for (let attempt = 0; attempt < claimAttempts; attempt++) {
    const claim = await store.claimName(options.kind, workspaceId, name, id);
    if (claim.holderId === id) return undefined;
    const other = await options.read(claim.holderId);
    if (other && (options.usesName?.(other) ?? true) && other.name.toLowerCase() === name.toLowerCase()) return other;
    if (!other && Date.now() - Date.parse(claim.claimedAt) < claimGraceMs) {
      await new Promise((resolve) => setTimeout(resolve, claimWaitMs));
      continue;
    }
    if ((await store.claimName(options.kind, workspaceId, name, id, claim.holderId)).holderId === id) return undefined;
  }
  throw options.busy(name);
}

/**
 * Writes a new item under the fresh id its name was claimed for. The write is
 * conditional on no item having that id, so a conflict can only be this
 * write's own first try, sent again by the SDK after its answer was lost:
 * then the item is there, and the create is done.
 */
export async function putNew(put: () => Promise<void>, isThere: () => Promise<boolean>): Promise<void> {
  try {
    await put();
  } catch (error) {
    if (!(error instanceof RevisionConflict && (await isThere()))) throw error;
  }
}

/** One page of a workspace's items by name (case-insensitive), ties by id. */
export function pageByName<T extends Named, V>(items: T[], page: { pageNo: number; pageSize: number }, view: (item: T) => V) {
  const sorted = items.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a.id < b.id ? -1 : 1));
  const offset = (page.pageNo - 1) * page.pageSize;
  return { data: sorted.slice(offset, offset + page.pageSize).map(view), paging: { ...page, totalCount: sorted.length } };
}
