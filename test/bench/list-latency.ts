/**
 * Warm latency of a first-page list call at three depths, so that a gap to the
 * bare query can be put down to a layer: the whole function (handler); the
 * domain and store call it makes, without the HTTP layer (domain); one bare
 * Query for the same page (bare).
 */
import { listEntities } from '../../lib/entities/list.ts';
import type { Store } from '../../lib/store/types.ts';
import type { bareReads } from './bare-query.ts';
import { branchFor, scopeFor } from './bench-table.ts';
import { compareLatency, type LatencyOptions } from './latency.ts';
import { pageSize, type ListFunction } from './list-call.ts';

export interface LatencyFigures {
  entities: number;
  handler: number[];
  domain: number[];
  bare: number[];
}

const ids = (rows: unknown) => (rows as { id: string }[]).map((row) => row.id).join();

export async function measureListLatency(
  list: ListFunction,
  store: Store,
  bare: ReturnType<typeof bareReads>,
  entities: number,
  options: LatencyOptions,
): Promise<LatencyFigures> {
  const branch = branchFor(entities);
  const scope = scopeFor(entities);
  const probes = {
    handler: () => list.prepare(branch, { pageNo: '1', pageSize: String(pageSize) }),
    domain: () => () => listEntities(store, scope, { pageNo: 1, pageSize }),
    bare: () => bare.firstPage(scope, pageSize),
  };
  // All must fetch the same page, or the ratios compare different work.
  const pages = [(await probes.handler()()).data, (await probes.domain()()).data, await probes.bare()()];
  if (new Set(pages.map(ids)).size !== 1 || (pages[0] as unknown[]).length !== pageSize)
    throw new Error(`the probes fetched different pages, or not a full page, at ${entities}`);
  return { entities, ...(await compareLatency(probes, options)) };
}
