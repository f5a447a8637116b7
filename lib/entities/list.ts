import type { EntityType } from './schema.ts';
import type { ListQueryParams } from './queries.ts';
import type { EntityStore } from '../store/types.ts';

/** One page of a branch's rules or workflows, ordered for stable paging (name, then id). */
export async function listEntities(
  store: EntityStore,
  scope: { workspaceId: string; branch: string; entityType: EntityType },
  { pageNo, pageSize, name, type, status, sortBy, sortDir }: Partial<ListQueryParams> & Pick<ListQueryParams, 'pageNo' | 'pageSize'>,
) {
  const page = await store.listEntities({
    ...scope,
    pageNo,
    pageSize,
    name,
    kind: type,
    status,
    sortBy: sortBy ?? 'name',
    sortDir: sortDir ?? 'asc',
  });
  return { data: page.items, paging: { pageNo, pageSize, totalCount: page.totalCount } };
}
