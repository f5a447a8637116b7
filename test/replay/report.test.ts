/**
 * The replay's report, as properties over random decision tables, random
 * edits of them and random inputs: what the tally makes equals a reference
 * loop written plainly here, over the same inputs; the inputs cut into
 * shards at random points, tallied apart and merged in any order, make the
 * same report as one pass. Then the bounds: fields past the tracked ones,
 * cases larger than a case keeps, rows past the listed JSON.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, compare, divide, isNum, subtract, type Num } from '../../lib/decimal/decimal.ts';
import { checkRule } from '../../lib/engine/authoring.ts';
import { compileRule, coverageUnits, EngineError, evaluateRule, type CoverageUnit, type RuleDefinition } from '../../lib/engine/index.ts';
import type { RunnableRule } from '../../lib/rules/load.ts';
import type { Outcome } from '../../lib/engine/index.ts';
import { reportBounds } from '../../lib/replay/bounds.ts';
import { mergeParts, ReportTally, shownReport, type ReportPart } from '../../lib/replay/report.ts';
import type { ReplayRules } from '../../lib/replay/rules.ts';
import { tallyShard, type ReplayInput } from '../../lib/replay/shard.ts';

// ---------------------------------------------------------------------------------------------------------------------
// Random decision tables, edits and inputs.

const numbers = [-5, 0, 0.1, 1, 2.5, 3, 7, 10, 18, 65, 100];
const cell = fc.oneof(
  { weight: 2, arbitrary: fc.constant('-') },
  fc.constantFrom(...numbers).chain((n) => fc.constantFrom(`< ${n}`, `<= ${n}`, `> ${n}`, `>= ${n}`, `${n}`, `!= ${n}`)),
  fc.tuple(fc.constantFrom(...numbers), fc.constantFrom(...numbers)).map(([a, b]) => `[${Math.min(a, b)}..${Math.max(a, b)}]`),
);
/** The fee's cells: numbers (some that a double cannot hold, as FEEL text), computations on the inputs, null; the tier's: text or null. */
const feeCell = fc.oneof(
  fc.constantFrom(0, 0.1, 0.2, 2.5, -3, 100, 4.9),
  fc.constantFrom('12345678901234567.25', '0.1 + 0.2', 'a * 0.1', 'a + b', 'b - 1.05', 'null'),
);
const tierCell = fc.constantFrom('"gold"', '"silver"');
const outputCells = [feeCell, tierCell] as const;
const hitPolicy = fc.constantFrom('first', 'unique', 'any', 'collect', 'ruleOrder', 'priority');
const row = fc.record({ when: fc.tuple(cell, cell), then: fc.tuple(feeCell, tierCell) });

interface Table {
  hitPolicy: string;
  rows: { when: string[]; then: (string | number)[] }[];
}

const table = fc.record({ hitPolicy, rows: fc.array(row, { minLength: 1, maxLength: 50 }) }) as fc.Arbitrary<Table>;

/** One edit a rule author makes: an output or a cell changed, a row taken out or added, the hit policy changed. */
const edit = fc.oneof(
  fc.nat(1).chain((column) => fc.record({ kind: fc.constant('output' as const), at: fc.nat(), column: fc.constant(column), value: outputCells[column]! })),
  fc.record({ kind: fc.constant('cell' as const), at: fc.nat(), column: fc.nat(1), value: cell }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), row }),
  fc.record({ kind: fc.constant('hitPolicy' as const), value: hitPolicy }),
);
type Edit = typeof edit extends fc.Arbitrary<infer E> ? E : never;

function edited(base: Table, edits: Edit[]): Table {
  const result: Table = { hitPolicy: base.hitPolicy, rows: base.rows.map((r) => ({ when: [...r.when], then: [...r.then] })) };
  for (const change of edits) {
    const at = 'at' in change ? change.at % Math.max(result.rows.length, 1) : 0;
    if (change.kind === 'hitPolicy') result.hitPolicy = change.value;
    else if (change.kind === 'insert') result.rows.splice(at, 0, { when: [...change.row.when], then: [...change.row.then] });
    else if (!result.rows.length) continue;
    else if (change.kind === 'remove' && result.rows.length > 1) result.rows.splice(at, 1);
    else if (change.kind === 'output') result.rows[at]!.then[change.column] = change.value;
    else if (change.kind === 'cell') result.rows[at]!.when[change.column] = change.value;
  }
  return result;
}

/** Inputs: numbers, nothing, and text where a number is declared (invalid_params on both sides). */
const inputValue = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...numbers, 4, 50, -10, 1.05) }, fc.constant(null), fc.constant('text'));
const inputs = fc.array(fc.record({ a: inputValue, b: inputValue }, { requiredKeys: [] }), { maxLength: 120 });

interface Compiled {
  runnable: RunnableRule;
  units: CoverageUnit[];
}

function compiled(t: Table): Compiled {
  const definition = {
    hitPolicy: t.hitPolicy,
    parameters: [
      { name: 'a', type: 'number' },
      { name: 'b', type: 'number' },
    ],
    inputs: [
      { id: 'a', expression: 'a', type: 'number' },
      { id: 'b', expression: 'b', type: 'number' },
    ],
    outputs: [
      { id: 'fee', name: 'fee', type: 'number' },
      // Ranked for the hit policy priority.
      { id: 'tier', name: 'tier', type: 'string', allowedValues: ['gold', 'silver'] },
    ],
    rules: t.rows.map((r, i) => ({ id: `r${i}`, when: r.when, then: r.then })),
  };
  const { prepared, problems } = checkRule({ kind: 'decisionTable', definition } as unknown as RuleDefinition);
  expect(problems).toEqual([]);
  const runnable = { rule: compileRule(prepared), id: 'fee', version: '', checksum: '', recordExecutions: false, references: 0, weight: 0 };
  return { runnable, units: coverageUnits(prepared) };
}

const rulesOf = (baseline: Compiled, candidate: Compiled): ReplayRules => ({
  baseline: baseline.runnable,
  candidate: candidate.runnable,
  units: { baseline: baseline.units, candidate: candidate.units },
});

const clock = new Date('2026-05-01T10:00:00.000Z');
const replayInputs = (params: unknown[]): ReplayInput[] => params.map((p, i) => ({ params: p, clock, executionId: `exec_${i}` }));

// ---------------------------------------------------------------------------------------------------------------------
// The reference: the report computed plainly, input by input.

function run(rule: Compiled, params: unknown): { output?: unknown; error?: { code: string; message: string }; hits: number[] } {
  try {
    const { output, hits } = evaluateRule(rule.runnable.rule, params, { hits: true, clock });
    return { output, hits: hits! };
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return { error: { code: error.code, message: error.message }, hits: [] };
  }
}

const fieldsOf = (value: unknown): [string, unknown][] =>
  Array.isArray(value)
    ? value.map((item, i) => [`[${i}]`, item])
    : value !== null && typeof value === 'object' && !isNum(value)
      ? Object.entries(value)
      : [['(answer)', value]];

function referenceReport(baseline: Compiled, candidate: Compiled, params: unknown[]) {
  const counts = { inputs: 0, same: 0, changed: 0, newlyFailing: 0, newlySucceeding: 0, bothFailing: 0 };
  const baselineHits = baseline.units.map(() => 0);
  const candidateHits = candidate.units.map(() => 0);
  const fields = new Map<string, { changed: number; deltas: Num[] }>();
  const sample: unknown[] = [];
  const side = (outcome: ReturnType<typeof run>, units: CoverageUnit[]) => ({
    ...(outcome.error ? { error: outcome.error } : { output: outcome.output }),
    hits: outcome.hits.slice(0, 10).map((i) => units[i]!.name),
    ...(outcome.hits.length > 10 && { moreHits: outcome.hits.length - 10 }),
  });
  params.forEach((input, index) => {
    const [b, c] = [run(baseline, input), run(candidate, input)];
    counts.inputs++;
    for (const h of b.hits) baselineHits[h]!++;
    for (const h of c.hits) candidateHits[h]!++;
    let verdict: keyof typeof counts;
    // Two failures are the same answer only with the same code (lib/engine/outcome.ts).
    if (b.error && c.error) verdict = b.error.code === c.error.code ? 'bothFailing' : 'changed';
    else if (b.error) verdict = 'newlySucceeding';
    else if (c.error) verdict = 'newlyFailing';
    else if (isDeepStrictEqual(b.output, c.output)) verdict = 'same';
    else verdict = 'changed';
    counts[verdict]++;
    if (verdict === 'changed' && !b.error && !c.error) {
      const [was, is] = [new Map(fieldsOf(b.output)), new Map(fieldsOf(c.output))];
      for (const field of new Set([...was.keys(), ...is.keys()])) {
        const [x, y] = [was.get(field), is.get(field)];
        if (isDeepStrictEqual(x, y)) continue;
        const tally = fields.get(field) ?? { changed: 0, deltas: [] };
        fields.set(field, tally);
        tally.changed++;
        if (isNum(x) && isNum(y)) tally.deltas.push(subtract(y, x)!);
      }
    }
    if (verdict !== 'same' && verdict !== 'bothFailing' && sample.length < 20)
      sample.push({ inputIndex: index, executionId: `exec_${index}`, input, baseline: side(b, baseline.units), candidate: side(c, candidate.units) });
  });
  const listed = (units: CoverageUnit[], hits: number[]) => units.map((u) => ({ name: u.name, ...(u.id && { id: u.id }), hits: hits[u.index]! }));
  return {
    counts,
    hits: { baseline: listed(baseline.units, baselineHits), candidate: listed(candidate.units, candidateHits) },
    fields: [...fields.entries()]
      .sort(([a, x], [b, y]) => y.changed - x.changed || (a < b ? -1 : 1))
      .map(([field, { changed, deltas }]) => {
        if (!deltas.length) return { field, changed };
        const sum = deltas.reduce((s, d) => add(s, d)!);
        const pick = (better: number) => deltas.reduce((m, d) => (compare(d, m) === better ? d : m));
        return { field, changed, delta: { count: deltas.length, mean: divide(sum, deltas.length)!, min: pick(-1), max: pick(1) } };
      }),
    sample,
  };
}

// ---------------------------------------------------------------------------------------------------------------------

/** `items` cut at `cuts` (positions, any order, repeats allowed) into consecutive chunks. */
function chunks<T>(items: T[], cuts: number[]): T[][] {
  const at = [...new Set(cuts.map((c) => c % (items.length + 1)))].sort((a, b) => a - b);
  return [...at, items.length].map((end, i) => items.slice(i ? at[i - 1] : 0, end));
}

/** Parts merged as the worker merges them: one at a time, in the order they come. */
const mergedInOrder = (parts: ReportPart[]) => parts.slice(1).reduce((merged, part) => mergeParts([merged, part]), parts[0]!);

describe('a replay report', () => {
  it('equals a reference loop over the same inputs, for random tables, edits and inputs', async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.array(edit, { minLength: 1, maxLength: 4 }), inputs, async (base, edits, params) => {
        const [baseline, candidate] = [compiled(base), compiled(edited(base, edits))];
        const report = shownReport(await tallyShard(rulesOf(baseline, candidate), 0, replayInputs(params)), {
          baseline: baseline.units,
          candidate: candidate.units,
        });
        expect(report).toEqual(referenceReport(baseline, candidate, params));
      }),
      { numRuns: 100 },
    );
  });

  it('is the same split into shards at random points and merged in any order as in one pass', async () => {
    await fc.assert(
      fc.asyncProperty(
        table,
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        inputs,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.nat(),
        async (base, edits, params, cuts, seed) => {
          const [baseline, candidate] = [compiled(base), compiled(edited(base, edits))];
          const rules = rulesOf(baseline, candidate);
          const whole = shownReport(await tallyShard(rules, 0, replayInputs(params)), rules.units);
          const parts = await Promise.all(chunks(replayInputs(params), cuts).map((chunk, shard) => tallyShard(rules, shard, chunk)));
          // The order the shards finish in: any.
          const order = parts.map((part, i) => ({ part, key: (i * 7919 + seed) % 104729 })).sort((a, b) => a.key - b.key);
          expect(shownReport(mergedInOrder(order.map((o) => o.part)), rules.units)).toEqual(whole);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('the bounds of a report', () => {
  const units = { baseline: [], candidate: [] };
  const outcome = (output: unknown): Outcome => ({ output, hits: [] });

  it('tallies the first fields in text order only, and the same ones whole however the inputs are split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 499 }), { maxLength: 60 }), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (changes, cuts) => {
          // Each input changes the fields it names, from 0 to 1.
          const cases = changes.map((names) => [outcome({}), outcome(Object.fromEntries(names.map((n) => [`f${String(n).padStart(3, '0')}`, 1])))] as const);
          const tallied = (from: (typeof cases)[number][], shard: number) => {
            const tally = new ReportTally(shard, units);
            for (const [b, c] of from) tally.add({}, b, c);
            return tally.part();
          };
          const whole = shownReport(tallied(cases, 0), units);
          const split = shownReport(mergedInOrder(chunks(cases, cuts).map(tallied).reverse()), units);
          expect(split).toEqual(whole);
          const distinct = new Set(changes.flat()).size;
          expect(whole.fieldsNotTracked === true).toBe(distinct > reportBounds.trackedFields);
          expect(whole.fields.length + (whole.moreFields ?? 0)).toBe(Math.min(distinct, reportBounds.trackedFields));
          const tracked = [...new Set(changes.flat())].sort((a, b) => a - b).slice(0, reportBounds.trackedFields);
          for (const { field, changed } of whole.fields) {
            expect(tracked).toContain(Number(field.slice(1)));
            expect(changed).toBe(changes.filter((names) => names.includes(Number(field.slice(1)))).length);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('leaves out the input and answers of a case larger than a case keeps, and names at most 10 rows a side', () => {
    const tally = new ReportTally(0, {
      baseline: Array.from({ length: 30 }, (_, index) => ({ index, kind: 'row' as const, name: `row ${index + 1}` })),
      candidate: [],
    });
    tally.add(
      { text: 'x'.repeat(reportBounds.caseBytes) },
      { output: { fee: 1 }, hits: Array.from({ length: 30 }, (_, i) => i) },
      { error: { code: 'evaluation_failed', message: 'no' }, hits: [] },
      'exec_1',
    );
    tally.add({ small: true }, outcome({ fee: 1 }), outcome({ fee: 2 }));
    const [large, small] = shownReport(tally.part(), { baseline: [], candidate: [] }).sample;
    expect(large).toEqual({
      inputIndex: 0,
      executionId: 'exec_1',
      baseline: { hits: Array.from({ length: 10 }, (_, i) => `row ${i + 1}`), moreHits: 20 },
      candidate: { error: { code: 'evaluation_failed' }, hits: [] },
      omitted: true,
    });
    expect(small).toEqual({ inputIndex: 1, input: { small: true }, baseline: { output: { fee: 1 }, hits: [] }, candidate: { output: { fee: 2 }, hits: [] } });
  });

  it('lists the rows of a side up to its JSON bound, counting the rest, and keeps a report of the largest tables under 400 KB', () => {
    const rows = Array.from({ length: 10_000 }, (_, index) => ({ index, kind: 'row' as const, name: `row ${index + 1}`, id: `r-${'x'.repeat(100)}-${index}` }));
    const sides = { baseline: rows, candidate: rows };
    const tally = new ReportTally(0, sides);
    const big = { text: 'y'.repeat(5_000) };
    for (let i = 0; i < 100; i++)
      tally.add(big, outcome(Object.fromEntries(Array.from({ length: 400 }, (_, f) => [`field-${f}-${'z'.repeat(40)}`, i]))), outcome({ ...big, i }));
    const report = shownReport(tally.part(), sides);
    expect(report.hits.baseline.length).toBeLessThan(rows.length);
    expect(report.hits.notListed).toEqual({ baseline: rows.length - report.hits.baseline.length, candidate: rows.length - report.hits.candidate.length });
    expect(Buffer.byteLength(JSON.stringify(report.hits.baseline))).toBeLessThanOrEqual(reportBounds.listedUnitsBytes);
    expect(report.fields).toHaveLength(reportBounds.listedFields);
    expect(report.fieldsNotTracked).toBe(true);
    expect(report.sample).toHaveLength(reportBounds.sampleCases);
    expect(Buffer.byteLength(JSON.stringify(report))).toBeLessThan(260 * 1024);
    expect(Buffer.byteLength(JSON.stringify(tally.part()))).toBeLessThan(330 * 1024);
  });
});
