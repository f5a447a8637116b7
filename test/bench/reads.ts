/** DynamoDB requests, bytes and capacity that one warm list call costs. */
import type { capacityReplayer } from './capacity.ts';
import { filterWord } from './entities.ts';
import { pageSize, type ListFunction, type ListQueryString } from './list-call.ts';
import type { meterRequests } from './request-meter.ts';

interface ReadScenario {
  /** The same for every size, so that sizes can be compared row by row. */
  name: 'first page' | 'first page, descending' | 'middle page' | 'name filter';
  query: ListQueryString;
  /** The totalCount a correct answer reports. */
  expectedTotal: number;
}

/** The unfiltered first page in each direction, a page half-way through, and a name filter matching one entity in ten. */
function scenarios(entities: number): ReadScenario[] {
  const page = { pageSize: String(pageSize) };
  const middlePage = Math.floor(entities / 2 / pageSize) + 1;
  return [
    { name: 'first page', query: { ...page, pageNo: '1' }, expectedTotal: entities },
    { name: 'first page, descending', query: { ...page, pageNo: '1', sortDir: 'desc' }, expectedTotal: entities },
    { name: 'middle page', query: { ...page, pageNo: String(middlePage) }, expectedTotal: entities },
    { name: 'name filter', query: { ...page, pageNo: '1', name: filterWord }, expectedTotal: Math.ceil(entities / 10) },
  ];
}

export interface ReadFigures {
  entities: number;
  scenario: ReadScenario['name'];
  /** The call's query string. */
  query: string;
  requests: number;
  /** Requests by DynamoDB operation. */
  operations: Record<string, number>;
  responseBytes: number;
  itemsRead: number;
  capacityUnits: number;
  /** Wall time of the one metered call: indicative only. */
  ms: number;
}

/**
 * Meters one call per scenario. A first, unmetered call warms the function's
 * directory cache, so the figures are those of a warm function; a cold one
 * adds the key, workspace and branch lookups (three GetItems) once.
 */
export async function measureReads(
  list: ListFunction,
  meter: ReturnType<typeof meterRequests>,
  replayer: ReturnType<typeof capacityReplayer>,
  branch: string,
  entities: number,
): Promise<ReadFigures[]> {
  const figures: ReadFigures[] = [];
  for (const { name, query, expectedTotal } of scenarios(entities)) {
    await list.prepare(branch, query)();
    const call = list.prepare(branch, query);
    meter.start();
    const started = performance.now();
    const envelope = await call();
    const ms = performance.now() - started;
    const requests = meter.stop();
    if (envelope.totalCount !== expectedTotal || (envelope.data as unknown[]).length !== pageSize)
      throw new Error(`${name} at ${entities}: expected ${pageSize} of ${expectedTotal}, got ${(envelope.data as unknown[]).length} of ${envelope.totalCount}`);
    const operations: Record<string, number> = {};
    for (const { operation } of requests) operations[operation] = (operations[operation] ?? 0) + 1;
    figures.push({
      entities,
      scenario: name,
      query: new URLSearchParams(query).toString(),
      requests: requests.length,
      operations,
      responseBytes: requests.reduce((sum, r) => sum + r.responseBytes, 0),
      ...(await replayer.costOf(requests)),
      ms,
    });
  }
  return figures;
}
