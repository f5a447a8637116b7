/**
 * Property tests of the decision-table plan on random tables and inputs:
 * the indexed evaluation answers exactly what the plain scan answers, and
 * both agree with a reference interpretation written here independently:
 * every cell judged by feelin (the FEEL reference) and the hit policy
 * applied naively, as the DMN standard words it.
 */
import fc from 'fast-check';
import { unaryTest } from 'feelin';
import { describe, expect, it } from 'vitest';
import { indexColumn } from '../../../lib/engine/decision-table/column-index.ts';
import { compileDecisionTable } from '../../../lib/engine/decision-table/plan.ts';
import type { DecisionTableDefinition, HitPolicy } from '../../../lib/engine/definitions.ts';
import { hitPolicies } from '../../../lib/engine/definitions.ts';
import { EngineError } from '../../../lib/engine/errors.ts';
import { prepareRule } from '../../../lib/engine/prepare.ts';
import type { PreparedDecisionTable } from '../../../lib/engine/prepared.ts';

const numbers = [-5, 0, 1, 2.5, 3, 7, 10, 18, 65, 100];
const strings = ['gold', 'silver', 'bronze', 'x y'];

/** Cells a column index can answer for: `-`, comparisons and ranges with constant ends, literal lists. */
const indexableNumberCell = fc.oneof(
  fc.constant('-'),
  fc.constant(''),
  fc.constantFrom(...numbers).chain((n) => fc.constantFrom(`< ${n}`, `<= ${n}`, `> ${n}`, `>= ${n}`, `= ${n}`, `${n}`)),
  fc
    .tuple(fc.constantFrom(...numbers), fc.constantFrom(...numbers), fc.constantFrom('[', '(', ']'), fc.constantFrom(']', ')', '['))
    .map(([a, b, open, close]) => `${open}${Math.min(a, b)}..${Math.max(a, b)}${close}`),
  fc.subarray(numbers, { minLength: 1, maxLength: 3 }).map((ns) => ns.join(', ')),
);
/** Every form, the unindexable ones too (`!=`, `?` expressions, null, not). */
const numberCell = fc.oneof(
  indexableNumberCell,
  fc.constantFrom(...numbers).map((n) => `!= ${n}`),
  fc.constantFrom(...numbers).map((n) => `? > ${n}`),
  fc.constant('null'),
  fc.constantFrom(...numbers).map((n) => `not(${n})`),
);

const indexableStringCell = fc.oneof(
  fc.constant('-'),
  fc.subarray(strings, { minLength: 1, maxLength: 2 }).map((ss) => ss.map((s) => JSON.stringify(s)).join(', ')),
  fc.constantFrom(...strings).map((s) => `= ${JSON.stringify(s)}`),
);
const stringCell = fc.oneof(
  indexableStringCell,
  fc.constantFrom(...strings).map((s) => `not(${JSON.stringify(s)})`),
  fc.constant('null'),
  fc.constantFrom(...strings).map((s) => `starts with(?, ${JSON.stringify(s.slice(0, 1))})`),
);

/** A column's cells: most columns indexable throughout, so that the indexes are exercised; the rest of any form. */
const cellOf = (type: 'number' | 'string', indexable: boolean) =>
  type === 'number' ? (indexable ? indexableNumberCell : numberCell) : indexable ? indexableStringCell : stringCell;

type ColumnType = 'number' | 'string';

const tableArbitrary = fc
  .record({
    types: fc.array(fc.constantFrom<ColumnType>('number', 'string'), { minLength: 1, maxLength: 3 }),
    indexable: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    rowCount: fc.integer({ min: 0, max: 25 }),
    hitPolicy: fc.constantFrom<HitPolicy>(...hitPolicies),
    aggregation: fc.constantFrom(undefined, 'sum', 'min', 'max', 'count'),
  })
  .chain(({ types, indexable, rowCount, hitPolicy, aggregation }) =>
    fc.record({
      types: fc.constant(types),
      hitPolicy: fc.constant(hitPolicy),
      aggregation: fc.constant(hitPolicy === 'collect' ? aggregation : undefined),
      rows: fc.array(fc.tuple(...types.map((t, c) => cellOf(t, indexable[c]!))), { minLength: rowCount, maxLength: rowCount }),
      outputs: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: rowCount, maxLength: rowCount }),
    }),
  );

const inputValue = (type: ColumnType) =>
  fc.oneof(type === 'number' ? fc.constantFrom(...numbers, 4, 50, -10) : fc.constantFrom(...strings, 'other'), fc.constant(null));

type RandomTable = typeof tableArbitrary extends fc.Arbitrary<infer T> ? T : never;

function definitionOf(table: RandomTable): DecisionTableDefinition {
  return {
    hitPolicy: table.hitPolicy,
    ...(table.aggregation && { aggregation: table.aggregation as 'sum' }),
    inputs: table.types.map((type, i) => ({ id: `in${i}`, expression: `in${i}`, type })),
    // Allowed values ranked 3, 2, 1, 0 for the priority policies.
    outputs: [{ id: 'out', name: 'out', type: 'number', allowedValues: [3, 2, 1, 0] }],
    rules: table.rows.map((cells, r) => ({ id: `r${r}`, when: [...cells], then: [table.outputs[r]!] })),
  };
}

/** The table evaluated the naive way: every row's cells judged by feelin, then the hit policy as DMN words it. */
function reference(table: PreparedDecisionTable, definition: DecisionTableDefinition, input: Record<string, unknown>): unknown {
  const values = definition.inputs.map((i) => input[i.expression] ?? null);
  const matches = definition.rules.flatMap((row, r) =>
    row.when.every((cell, c) => (cell.trim() === '' ? true : unaryTest(cell, { '?': values[c] }).value === true)) ? [r] : [],
  );
  const out = (r: number) => ({ out: definition.rules[r]!.then[0] });
  const rank = (r: number) => [3, 2, 1, 0].indexOf(definition.rules[r]!.then[0] as number);
  const name = (r: number) => `row ${r + 1} (r${r})`;
  switch (table.hitPolicy) {
    case 'first':
      return matches.length ? out(matches[0]!) : null;
    case 'unique':
      if (matches.length > 1) return { error: matches.map(name).join(' and ') };
      return matches.length ? out(matches[0]!) : null;
    case 'any': {
      const differing = matches.find((r) => definition.rules[r]!.then[0] !== definition.rules[matches[0]!]!.then[0]);
      if (differing !== undefined) return { error: `${name(matches[0]!)} and ${name(differing)}` };
      return matches.length ? out(matches[0]!) : null;
    }
    case 'priority':
      return matches.length ? out([...matches].sort((a, b) => rank(a) - rank(b) || a - b)[0]!) : null;
    case 'ruleOrder':
      return matches.map(out);
    case 'outputOrder':
      return [...matches].sort((a, b) => rank(a) - rank(b) || a - b).map(out);
    case 'collect': {
      const outs = matches.map((r) => definition.rules[r]!.then[0] as number);
      switch (table.aggregation) {
        case 'count':
          return { out: outs.length };
        case 'sum':
          return { out: outs.length ? outs.reduce((a, b) => a + b, 0) : null };
        case 'min':
          return { out: outs.length ? Math.min(...outs) : null };
        case 'max':
          return { out: outs.length ? Math.max(...outs) : null };
        default:
          return matches.map(out);
      }
    }
  }
}

/** An answer or the rows an evaluation error names, comparable with the reference's. */
function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return { error: error.message.match(/row \d+ \(r\d+\)(?:(?: and |, )row \d+ \(r\d+\))*/)?.[0] };
  }
}

describe('a decision table compiled into a plan', () => {
  it('answers with its indexes exactly what a scan of every row answers, and what feelin and the standard say', () => {
    let tables = 0;
    let evaluations = 0;
    let indexedColumns = 0;
    fc.assert(
      fc.property(
        tableArbitrary.chain((table) => fc.tuple(fc.constant(table), fc.array(fc.tuple(...table.types.map(inputValue)), { minLength: 1, maxLength: 8 }))),
        ([table, inputs]) => {
          const definition = definitionOf(table);
          const { prepared, problems } = prepareRule({ kind: 'decisionTable', definition });
          expect(problems).toEqual([]);
          const plan = compileDecisionTable(prepared as PreparedDecisionTable);
          tables++;
          indexedColumns += (prepared as PreparedDecisionTable).inputs.filter((_, c) =>
            indexColumn((prepared as PreparedDecisionTable).rows.map((r) => r.cells[c]!)),
          ).length;
          for (const values of inputs) {
            const params = Object.fromEntries(values.map((v, i) => [`in${i}`, v]));
            const indexed = outcome(() => plan.evaluate(params));
            expect(indexed).toEqual(outcome(() => plan.scan(params)));
            expect(indexed).toEqual(reference(prepared as PreparedDecisionTable, definition, params));
            expect(outcome(() => plan.trace(params).output)).toEqual(indexed);
            // The rows that gave the answer (coverage, replay): the same whichever way the table was read, and what the trace says matched.
            const hits = { indexed: [] as number[], scanned: [] as number[], traced: [] as number[] };
            outcome(() => plan.evaluate(params, { hits: hits.indexed }));
            outcome(() => plan.scan(params, { hits: hits.scanned }));
            const traced = outcome(() => plan.trace(params, { hits: hits.traced }).trace) as { rows?: { row: number; matched: boolean }[] };
            expect(hits.indexed).toEqual(hits.scanned);
            expect(hits.traced).toEqual(hits.indexed);
            if (traced.rows) {
              const matched = traced.rows.filter((r) => r.matched).map((r) => r.row - 1);
              expect(hits.traced).toEqual(table.hitPolicy === 'first' ? matched.slice(0, 1) : matched);
            }
            evaluations++;
          }
        },
      ),
      // Sized for a busy machine: each run prepares a table and asks feelin for every input, about 10 ms a run alone.
      { numRuns: 150 },
    );
    console.log(`decision-table parity: ${tables} random tables, ${evaluations} evaluations, ${indexedColumns} indexed columns`);
    expect(indexedColumns).toBeGreaterThan(tables / 4);
  });

  it('keeps the row order of its candidates on large equality tables (first hit and collect)', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ when: [`"k${i % 500}"`, i % 7 === 0 ? '-' : `< ${i % 100}`], then: [i] }));
    const definition = (hitPolicy: HitPolicy): DecisionTableDefinition => ({
      hitPolicy,
      inputs: [
        { id: 'key', expression: 'key', type: 'string' },
        { id: 'n', expression: 'n', type: 'number' },
      ],
      outputs: [{ id: 'out', name: 'out', type: 'number' }],
      rules: rows,
    });
    for (const policy of ['first', 'collect', 'ruleOrder'] as const) {
      const plan = compileDecisionTable(prepareRule({ kind: 'decisionTable', definition: definition(policy) }).prepared as PreparedDecisionTable);
      for (const params of [
        { key: 'k3', n: 50 },
        { key: 'k499', n: 0 },
        { key: 'none', n: 5 },
        { key: 'k0', n: null },
      ])
        expect(plan.evaluate(params)).toEqual(plan.scan(params));
    }
  });
});
