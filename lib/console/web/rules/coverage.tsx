/**
 * The published version's coverage on the draft's grid: per row, how often
 * it gave the answer in production (a heat shade by quantile among the rows
 * that matched), whether it never matched since the version was published,
 * and whether no saved test case reaches it. Every mark is also said in
 * words. The counts are of the published version's rows; a draft row is
 * shown that version's counts when it is the same row there: the one of the
 * same id, or else the first one left with the same conditions. A row the
 * published version does not have shows nothing.
 */
import { useConsole } from '../context.ts';
import type { operations } from '../schema.ts';
import { useLoad } from '../ui/use-load.ts';
import { definitionOf, type RuleRecord, type TableDefinition } from './model.ts';

type Coverage = operations['getCoverage']['responses'][200]['content']['application/json']['data'];
type Row = TableDefinition['rules'][number];

/** Heat levels: 0 for a row without matches, then 1 to 4 by quartile of the rows that matched. */
const heatWords = ['no matches', 'fewest matches', 'few matches', 'many matches', 'most matches'] as const;

export interface CoveredRow {
  matched: number;
  heat: number;
  dead: boolean;
  untested: boolean;
  lastMatchedAt?: string;
}

export interface TableCoverage {
  version: string;
  executions: number;
  lastExecutedAt?: string;
  /** The draft's rows, in order: the published row's coverage, or undefined for a row the version does not have. */
  rows: (CoveredRow | undefined)[];
  reload(): void;
}

/** Each published row's coverage, with the heat of its count among the rows that matched. */
function publishedRows(coverage: Coverage): CoveredRow[] {
  const dead = new Set(coverage.production?.neverMatched ?? []);
  const counts = coverage.units.map((unit) => unit.matched ?? 0);
  const matchedCounts = counts.filter((n) => n > 0).sort((a, b) => a - b);
  // The share of matching rows at or below a count, in quarters: the busiest row is always 4, rows that tie share a level.
  const heatOf = (n: number) => (n === 0 ? 0 : Math.max(1, Math.ceil((4 * matchedCounts.filter((m) => m <= n).length) / matchedCounts.length)));
  return coverage.units.map((unit, u) => ({
    matched: counts[u]!,
    heat: heatOf(counts[u]!),
    dead: dead.has(unit.index),
    untested: unit.testCaseCount === 0,
    ...(unit.lastMatchedAt && { lastMatchedAt: unit.lastMatchedAt }),
  }));
}

const sameConditions = (a: Row, b: Row) => a.when.length === b.when.length && a.when.every((cell, c) => cell === b.when[c]);

/** The draft's rows matched to the published ones: by id, else the first one left with the same conditions. */
export function matchRows(published: Row[], covered: CoveredRow[], draft: Row[]): (CoveredRow | undefined)[] {
  const taken = new Set<number>();
  return draft.map((row) => {
    const at = row.id
      ? published.findIndex((each) => each.id === row.id)
      : published.findIndex((each, p) => !taken.has(p) && !each.id && sameConditions(each, row));
    if (at < 0 || taken.has(at)) return undefined;
    taken.add(at);
    return covered[at];
  });
}

/** The latest published version's coverage on the draft's rows; undefined for a rule never published or not a table. */
export function useTableCoverage(rule: RuleRecord | undefined, draft: TableDefinition | undefined): TableCoverage | undefined {
  const { api } = useConsole();
  const version = rule?.type === 'decisionTable' ? rule.version : undefined;
  const loaded = useLoad(async () => {
    if (!rule || !version) return undefined;
    const path = { entityType: 'rule' as const, entityId: rule.id };
    const [coverage, published] = await Promise.all([
      api.data(api.client.GET('/dev/v1/{entityType}/{entityId}/coverage', { params: { path, query: { version } } })),
      api.data(api.client.GET('/dev/v1/{entityType}/{entityId}', { params: { path, query: { version } } })),
    ]);
    return { coverage, rows: (definitionOf(published) as TableDefinition).rules };
  }, [rule?.id, version]);
  const value = loaded.value;
  if (!value || !draft || !value.coverage.production) return undefined;
  return {
    version: value.coverage.version ?? '',
    executions: value.coverage.production.executions,
    ...(value.coverage.production.lastExecutedAt && { lastExecutedAt: value.coverage.production.lastExecutedAt }),
    rows: matchRows(value.rows, publishedRows(value.coverage), draft.rules),
    reload: loaded.reload,
  };
}

/** What the heat column counts, above the grid, with a way to read it again. */
export function CoverageSummary({ coverage }: { coverage: TableCoverage }) {
  return (
    <p class="coverage-summary">
      Production column: matches per row in {coverage.executions} execution{coverage.executions === 1 ? '' : 's'} of {coverage.version}
      {coverage.lastExecutedAt ? `, the last at ${new Date(coverage.lastExecutedAt).toLocaleString()}` : ''}. Counts lag by a few seconds.{' '}
      <button type="button" class="secondary" onClick={coverage.reload}>
        Refresh coverage
      </button>
    </p>
  );
}

export function CoverageCell({ covered, r }: { covered: CoveredRow | undefined; r: number }) {
  if (!covered)
    return (
      <td class="coverage-cell">
        <span class="visually-hidden">Row {r + 1} is not in the published version</span>
      </td>
    );
  return (
    <td class={`coverage-cell heat-${covered.heat}`}>
      <span class="coverage-count">{covered.matched}</span>
      <span class="visually-hidden">
        {' '}
        {covered.matched === 1 ? 'match' : 'matches'} in production ({heatWords[covered.heat]})
      </span>
      {covered.dead && <span class="badge dead">never matched</span>}
      {covered.untested && <span class="badge untested">untested</span>}
    </td>
  );
}
