/**
 * A rule's coverage as GET .../coverage answers it, per part of the rule
 * (row, entry, branch), shaped to be drawn beside the rule: which saved test
 * cases reach each part, and for a published version how often each part
 * gave the answer in production and when it last did, with the parts never
 * matched since the version was published and those not matched in the last
 * days. Production counts come from the tallies the executing functions
 * flush (lib/tallies/coverage-counts.ts), so they lag by up to the flush period, and lose
 * what a function that died unflushed had counted.
 */
import { EngineError, type PreparedRule } from '../engine/index.ts';
import { errors, ApiError } from '../vocabulary/errors.ts';
import { preparedVersion, runnable, type Prepare, type RuleSource } from '../rules/load.ts';
import { ruleScopeOf, type EntityRef, type EntityStore, type TallyStore } from '../store/types.ts';
import { coverageItemName, totals, unitTally } from '../tallies/coverage-counts.ts';
import { coverageLimits } from './limits.ts';
import { testCoverage, type TestCoverage } from './tested.ts';
import { ruleUnits, type RuleUnit } from './units.ts';

export interface CoverageQuery {
  /** A published version; the latest when absent (the draft when none is). */
  version?: string;
  /** The span of "not matched lately", in days. */
  days: number;
}

const dayMs = 24 * 60 * 60 * 1000;

/** The rule's parts, and its test cases run on it; a reference that no longer resolves leaves the tests unrun, saying why. */
async function tested(store: EntityStore, ref: EntityRef, source: RuleSource, version: string, prepare: Prepare, now: Date) {
  let prepared: PreparedRule | undefined;
  try {
    const { rule } = await runnable(store, ref, source, version, (s) => (prepared = prepare(s)));
    const coverage = testCoverage(prepared!, rule, source.definition, now);
    return { kind: prepared!.kind, units: withTests(coverage.units, coverage), coverage };
  } catch (error) {
    if (!prepared || !(error instanceof EngineError || error instanceof ApiError)) throw error;
    return { kind: prepared.kind, units: withTests(ruleUnits(prepared, source.definition)), problem: error.message };
  }
}

/** The parts with the test cases that reach them. */
const withTests = (units: RuleUnit[], coverage?: TestCoverage) =>
  units.map((unit) => {
    const reaching = coverage?.reachedBy[unit.index] ?? [];
    return { ...unit, testCases: reaching.slice(0, coverageLimits.maxTestCasesListed), testCaseCount: reaching.length };
  });

function testsPart(source: RuleSource, coverage: TestCoverage | undefined, problem: string | undefined) {
  const failed = new Set(coverage?.failures.map((failure) => failure.name));
  const cases = ((source.definition as { tests?: { name: string }[] }).tests ?? []).map(({ name }) => ({
    name,
    ...(coverage && { failed: failed.has(name) }),
  }));
  return { cases, ...(problem && { problem }) };
}

/**
 * The coverage of a published version of the rule (the latest unless
 * `query.version` names one), or of its draft when none is published (test
 * coverage only).
 */
export async function ruleCoverage(store: EntityStore & TallyStore, ref: EntityRef, query: CoverageQuery, now = new Date()) {
  const entity = await store.getEntity(ref);
  if (!entity) throw errors.entityNotFound(ref.entityType, ref.id);
  const label = query.version ?? entity.version;
  if (!label) {
    // The draft is prepared from its text: the parser loads only for a rule never published.
    const prepareDraft = (await import('../rules/draft.ts')).prepareDraft;
    const { kind, units, coverage, problem } = await tested(store, ref, entity, '', prepareDraft, now);
    return { ruleId: ref.id, kind, version: null, checksum: entity.checksum, tests: testsPart(entity, coverage, problem), units };
  }
  const [record, versions] = await Promise.all([store.getVersion(ref, label), store.listVersions(ref)]);
  if (!record) throw errors.versionNotFound(ref.entityType, ref.id, label);
  const [{ kind, units, coverage, problem }, items] = await Promise.all([
    tested(store, ref, record, label, preparedVersion, now),
    store.listTallies(ruleScopeOf(ref), coverageItemName(label, record.checksum)),
  ]);
  const counts: Record<string, number> = {};
  const latest: Record<string, string> = {};
  for (const item of items) {
    Object.assign(counts, item.counts);
    Object.assign(latest, item.latest);
  }
  const since = new Date(now.getTime() - query.days * dayMs).toISOString();
  const counted = units.map((unit) => {
    const lastMatchedAt = latest[unitTally(unit.index)];
    return { ...unit, matched: counts[unitTally(unit.index)] ?? 0, ...(lastMatchedAt && { lastMatchedAt }) };
  });
  const publishedAt = versions.find((v) => v.version === label)?.publishedAt;
  return {
    ruleId: ref.id,
    kind,
    version: label,
    checksum: record.checksum,
    ...(publishedAt && { publishedAt }),
    tests: testsPart(record, coverage, problem),
    units: counted,
    production: {
      executions: counts[totals.executions] ?? 0,
      failed: counts[totals.failed] ?? 0,
      unmatched: counts[totals.unmatched] ?? 0,
      ...(latest[totals.executions] && { lastExecutedAt: latest[totals.executions] }),
      neverMatched: counted.filter((unit) => unit.matched === 0).map((unit) => unit.index),
      notMatchedSince: { days: query.days, since, units: counted.filter((unit) => (unit.lastMatchedAt ?? '') < since).map((unit) => unit.index) },
    },
  };
}
