/**
 * Save-time analysis of a decision table, the checks users of other tools
 * keep asking for: rows that overlap under `unique` (an error at publish),
 * rows an earlier row shadows under `first` (they can never be the answer),
 * rows with a cell that accepts nothing, and gaps (input combinations no row
 * covers). Each cell is read as a set of values it accepts: an interval
 * union for number cells, a finite or co-finite set for string and boolean
 * literal cells, everything for `-`. A cell of another form (an expression,
 * a date, a `?` test, a number of 16 digits or more) cannot be read so: the
 * checks that need that column say nothing rather than guess. Rows are compared pair by pair, each cell as
 * runs of its column's input classes (see `Runs`), so a pair costs as much as
 * its cells' runs, not as the classes, which grow with the rows.
 */
import { Decimal } from '../../decimal/decimal.ts';
import { constantNumber, type CompareOp, type UnaryTests } from '../feel/ast.ts';
import type { PreparedDecisionTable } from '../prepared.ts';

export interface Finding {
  path: string;
  message: string;
}

export interface TableAnalysis {
  /** Shown with the save and the v1 get. */
  warnings: Finding[];
  /** Refused at publish: overlapping rows under `unique`. */
  publishErrors: Finding[];
}

/** How many input combinations the gap search walks at most, and how many gaps it names. */
export const analysisLimits = { maxCombinations: 20_000, maxGapsReported: 5, maxRowsCompared: 2_000 } as const;

type Bound = { v: number; closed: boolean } | null;
interface Interval {
  lo: Bound;
  hi: Bound;
}

/** The values a cell accepts, in one of the domains the analysis reads; undefined when it cannot be read. */
type CellSet = { k: 'all' } | { k: 'numbers'; intervals: Interval[] } | { k: 'values'; values: Set<string | boolean>; negated: boolean };

function comparison(op: CompareOp, n: number): Interval[] | undefined {
  switch (op) {
    case '<':
      return [{ lo: null, hi: { v: n, closed: false } }];
    case '<=':
      return [{ lo: null, hi: { v: n, closed: true } }];
    case '>':
      return [{ lo: { v: n, closed: false }, hi: null }];
    case '>=':
      return [{ lo: { v: n, closed: true }, hi: null }];
    case '=':
      return [{ lo: { v: n, closed: true }, hi: { v: n, closed: true } }];
    case '!=':
      return [
        { lo: null, hi: { v: n, closed: false } },
        { lo: { v: n, closed: false }, hi: null },
      ];
  }
}

function readCell(cell: UnaryTests): CellSet | undefined {
  if (cell.k === 'any') return { k: 'all' };
  const intervals: Interval[] = [];
  const values = new Set<string | boolean>();
  for (const test of cell.tests) {
    if (test.k === 'cmp') {
      const n = constantNumber(test.r);
      if (n instanceof Decimal) return undefined;
      if (n === undefined || n === null) {
        if (test.op === '=' && (test.r.k === 'str' || test.r.k === 'bool')) values.add(test.r.v);
        else return undefined;
      } else intervals.push(...comparison(test.op, n)!);
      continue;
    }
    const e = test.e;
    const n = constantNumber(e);
    if (typeof n === 'number') intervals.push({ lo: { v: n, closed: true }, hi: { v: n, closed: true } });
    else if (e.k === 'str' || e.k === 'bool') values.add(e.v);
    else if (e.k === 'range') {
      const [lo, hi] = [constantNumber(e.lo), constantNumber(e.hi)];
      if (lo === undefined || hi === undefined || lo instanceof Decimal || hi instanceof Decimal) return undefined;
      intervals.push({ lo: lo === null ? null : { v: lo, closed: e.loClosed }, hi: hi === null ? null : { v: hi, closed: e.hiClosed } });
    } else return undefined;
  }
  if (intervals.length && values.size) return undefined;
  if (intervals.length) {
    if (cell.not) return undefined;
    return { k: 'numbers', intervals };
  }
  return { k: 'values', values, negated: cell.not };
}

type Representative = { k: 'number'; v: number; text: string } | { k: 'value'; v: string | boolean } | { k: 'other' };

/** A column's representatives: for numbers, sorted by value; for literals, each listed value, then "any other". */
interface Domain {
  points: Representative[];
  /** The numbers' values, in order, for binary search. */
  values: number[];
  /** Each listed literal's index. */
  index: Map<string | boolean, number>;
}

/**
 * Values standing for every class of input a column's cells tell apart: for
 * numbers, each end and a point between (and beyond) consecutive ends; for
 * literals, each listed value and "any other". Two inputs of one class are
 * accepted by exactly the same cells.
 */
function domainOf(sets: CellSet[]): Domain | undefined {
  const kinds = new Set(sets.filter((s) => s.k !== 'all').map((s) => s.k));
  if (kinds.size > 1) return undefined;
  let points: Representative[];
  if (kinds.has('numbers')) {
    const ends = [
      ...new Set(sets.flatMap((s) => (s.k === 'numbers' ? s.intervals.flatMap((i) => [i.lo?.v, i.hi?.v]) : [])).filter((v): v is number => v !== undefined)),
    ].sort((a, b) => a - b);
    points = ends.length === 0 ? [{ k: 'number', v: 0, text: 'any number' }] : [{ k: 'number', v: ends[0]! - 1, text: `< ${ends[0]}` }];
    ends.forEach((end, i) => {
      points.push({ k: 'number', v: end, text: `${end}` });
      const next = ends[i + 1];
      points.push(next === undefined ? { k: 'number', v: end + 1, text: `> ${end}` } : { k: 'number', v: (end + next) / 2, text: `(${end}..${next})` });
    });
  } else {
    const listed = [...new Set(sets.flatMap((s) => (s.k === 'values' ? [...s.values] : [])))];
    points = [...listed.map((v): Representative => ({ k: 'value', v })), { k: 'other' }];
  }
  return {
    points,
    values: points.flatMap((p) => (p.k === 'number' ? [p.v] : [])),
    index: new Map(points.flatMap((p, i) => (p.k === 'value' ? [[p.v, i] as const] : []))),
  };
}

const describe = (r: Representative) => (r.k === 'number' ? r.text : r.k === 'value' ? JSON.stringify(r.v) : 'any other value');

/**
 * The representatives a cell accepts, as runs of their indices: sorted,
 * disjoint and not touching, flat (`[from, to, from, to, ...]`, ends
 * included). A number interval accepts one run of the sorted
 * representatives, found by binary search; so a cell is read in time
 * logarithmic in its column's domain, and two cells are compared in time
 * linear in their runs, not in the domain, which grows with the rows.
 */
type Runs = number[];

/** The first index whose value is `past` (`values.length` when none is), the values sorted: a lower-bound binary search. */
function firstPast(values: number[], past: (v: number) => boolean): number {
  let [a, b] = [0, values.length];
  while (a < b) {
    const m = (a + b) >> 1;
    if (past(values[m]!)) b = m;
    else a = m + 1;
  }
  return a;
}

/** The indices of the sorted values an interval holds, as one span (empty when `from > to`). */
const spanOf = (values: number[], { lo, hi }: Interval): [number, number] => [
  lo === null ? 0 : firstPast(values, (v) => v > lo.v || (lo.closed && v === lo.v)),
  hi === null ? values.length - 1 : firstPast(values, (v) => v > hi.v || (!hi.closed && v === hi.v)) - 1,
];

function merged(spans: [number, number][]): Runs {
  const runs: Runs = [];
  for (const [from, to] of spans.sort((x, y) => x[0] - y[0])) {
    if (from > to) continue;
    if (runs.length > 0 && from <= runs[runs.length - 1]! + 1) runs[runs.length - 1] = Math.max(runs[runs.length - 1]!, to);
    else runs.push(from, to);
  }
  return runs;
}

function runsOf(set: CellSet, domain: Domain): Runs {
  const last = domain.points.length - 1;
  if (set.k === 'all') return [0, last];
  if (set.k === 'numbers') return merged(set.intervals.map((interval) => spanOf(domain.values, interval)));
  const listed = [...set.values].map((v) => domain.index.get(v)!).sort((a, b) => a - b);
  if (!set.negated) return merged(listed.map((i) => [i, i]));
  // Everything but the listed values: the gaps between them, "any other" included.
  return merged([...listed, last + 1].map((i, n) => [n === 0 ? 0 : listed[n - 1]! + 1, i - 1]));
}

/** Whether some input satisfies both cells. */
function intersects(a: Runs, b: Runs): boolean {
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return true;
  }
  return false;
}

/** Whether every input `inner` accepts, `outer` accepts too (an inner run lies within one outer run, since outer runs do not touch). */
function covers(outer: Runs, inner: Runs): boolean {
  let i = 0;
  for (let j = 0; j < inner.length; j += 2) {
    while (i < outer.length && outer[i + 1]! < inner[j]!) i += 2;
    if (i >= outer.length || outer[i]! > inner[j]! || outer[i + 1]! < inner[j + 1]!) return false;
  }
  return true;
}

function accepts(runs: Runs, index: number): boolean {
  for (let i = 0; i < runs.length && runs[i]! <= index; i += 2) if (index <= runs[i + 1]!) return true;
  return false;
}

/**
 * Analyses a prepared decision table.
 *
 * @example
 * analyzeDecisionTable(prepared).warnings; // [{ path: 'definition.rules[3]', message: 'can never match: row 2 ...' }]
 */
export function analyzeDecisionTable(table: PreparedDecisionTable): TableAnalysis {
  const warnings: Finding[] = [];
  const publishErrors: Finding[] = [];
  const columns = table.inputs.map((_, c) => table.rows.map((row) => readCell(row.cells[c]!)));
  const domains = columns.map((cells) => (cells.every((c) => c !== undefined) ? domainOf(cells as CellSet[]) : undefined));
  if (!domains.every((d) => d !== undefined) || table.rows.length > analysisLimits.maxRowsCompared) return { warnings, publishErrors };
  const cells = table.rows.map((_, r) => columns.map((column, c) => runsOf(column[r]!, domains[c]!)));
  const rowName = (r: number) => `row ${r + 1}${table.rows[r]!.id ? ` (${table.rows[r]!.id})` : ''}`;

  for (let j = 0; j < cells.length; j++) {
    const b = cells[j]!;
    const empty = b.findIndex((runs) => runs.length === 0);
    if (empty >= 0) {
      warnings.push({ path: `definition.rules[${j}]`, message: `can never match: its ${table.inputs[empty]!.label} cell accepts no value` });
      continue;
    }
    for (let i = 0; i < j; i++) {
      const a = cells[i]!;
      if (table.hitPolicy === 'unique' && a.every((runs, c) => intersects(runs, b[c]!)))
        publishErrors.push({
          path: `definition.rules[${j}]`,
          message: `overlaps ${rowName(i)}: some input matches both, which the hit policy "unique" forbids`,
        });
      if (table.hitPolicy === 'first' && a.every((runs, c) => covers(runs, b[c]!))) {
        warnings.push({ path: `definition.rules[${j}]`, message: `can never be the answer: every input it matches, ${rowName(i)} above it matches first` });
        break;
      }
    }
  }
  if (!table.outputs.some((o) => o.default)) warnings.push(...gaps(table, cells, domains as Domain[]));
  return { warnings, publishErrors };
}

/** Input combinations (by class) that no row covers. */
function gaps(table: PreparedDecisionTable, cells: Runs[][], domains: Domain[]): Finding[] {
  const combinations = domains.reduce((n, d) => n * d.points.length, 1);
  if (combinations > analysisLimits.maxCombinations) return [];
  const found: string[] = [];
  const pick: number[] = [];
  const walk = (c: number): void => {
    if (found.length >= analysisLimits.maxGapsReported) return;
    if (c === domains.length) {
      const covered = cells.some((row) => row.every((runs, col) => accepts(runs, pick[col]!)));
      if (!covered) found.push(pick.map((p, col) => `${table.inputs[col]!.label} ${describe(domains[col]!.points[p]!)}`).join(', '));
      return;
    }
    for (let p = 0; p < domains[c]!.points.length; p++) {
      pick[c] = p;
      walk(c + 1);
    }
  };
  walk(0);
  return found.map((combination) => ({ path: 'definition.rules', message: `no row covers ${combination}` }));
}
