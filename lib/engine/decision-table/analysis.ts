/**
 * Save-time analysis of a decision table, the checks users of other tools
 * keep asking for: rows that overlap under `unique` (an error at publish),
 * rows an earlier row shadows under `first` (they can never be the answer),
 * and gaps (input combinations no row covers). Each cell is read as a set of
 * values it accepts: an interval union for number cells, a finite or
 * co-finite set for string and boolean literal cells, everything for `-`.
 * A cell of another form (an expression, a date, a `?` test) cannot be read
 * so: the checks that need that column say nothing rather than guess.
 */
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
type CellSet =
  | { k: 'all' }
  | { k: 'numbers'; intervals: Interval[] }
  | { k: 'values'; values: Set<string | boolean>; negated: boolean };

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
      if (lo === undefined || hi === undefined) return undefined;
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

/** Whether a number lies in an interval. */
const inInterval = (x: number, { lo, hi }: Interval) =>
  (lo === null || x > lo.v || (lo.closed && x === lo.v)) && (hi === null || x < hi.v || (hi.closed && x === hi.v));

/** A cell's accepted set tested against one representative value of its column's domain. */
function accepts(set: CellSet, value: Representative): boolean {
  if (set.k === 'all') return true;
  if (set.k === 'numbers') return value.k === 'number' && set.intervals.some((i) => inInterval(value.v, i));
  if (value.k === 'number') return false;
  const listed = value.k === 'value' && set.values.has(value.v);
  return set.negated ? !listed : listed;
}

type Representative = { k: 'number'; v: number; text: string } | { k: 'value'; v: string | boolean } | { k: 'other' };

/**
 * Values standing for every class of input a column's cells tell apart: for
 * numbers, each end and a point between (and beyond) consecutive ends; for
 * literals, each listed value and "any other". Two inputs of one class are
 * accepted by exactly the same cells.
 */
function representatives(sets: CellSet[]): Representative[] | undefined {
  const kinds = new Set(sets.filter((s) => s.k !== 'all').map((s) => s.k));
  if (kinds.size > 1) return undefined;
  if (kinds.has('numbers')) {
    const ends = [...new Set(sets.flatMap((s) => (s.k === 'numbers' ? s.intervals.flatMap((i) => [i.lo?.v, i.hi?.v]) : [])).filter((v): v is number => v !== undefined))].sort((a, b) => a - b);
    if (ends.length === 0) return [{ k: 'number', v: 0, text: 'any number' }];
    const points: Representative[] = [{ k: 'number', v: ends[0]! - 1, text: `< ${ends[0]}` }];
    ends.forEach((end, i) => {
      points.push({ k: 'number', v: end, text: `${end}` });
      const next = ends[i + 1];
      points.push(next === undefined ? { k: 'number', v: end + 1, text: `> ${end}` } : { k: 'number', v: (end + next) / 2, text: `(${end}..${next})` });
    });
    return points;
  }
  const listed = [...new Set(sets.flatMap((s) => (s.k === 'values' ? [...s.values] : [])))];
  return [...listed.map((v): Representative => ({ k: 'value', v })), { k: 'other' }];
}

const describe = (r: Representative) => (r.k === 'number' ? r.text : r.k === 'value' ? JSON.stringify(r.v) : 'any other value');

/** Whether some input satisfies both cells. */
function intersects(a: CellSet, b: CellSet, domain: Representative[]): boolean {
  return domain.some((r) => accepts(a, r) && accepts(b, r));
}

/** Whether every input `inner` accepts, `outer` accepts too. */
function covers(outer: CellSet, inner: CellSet, domain: Representative[]): boolean {
  return domain.every((r) => !accepts(inner, r) || accepts(outer, r));
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
  const domains = columns.map((cells) => (cells.every((c) => c !== undefined) ? representatives(cells as CellSet[]) : undefined));
  const readable = domains.every((d) => d !== undefined);
  if (!readable || table.rows.length > analysisLimits.maxRowsCompared) return { warnings, publishErrors };
  const sets = (row: number) => columns.map((cells) => cells[row]!) as CellSet[];
  const rowName = (r: number) => `row ${r + 1}${table.rows[r]!.id ? ` (${table.rows[r]!.id})` : ''}`;

  for (let j = 1; j < table.rows.length; j++) {
    const b = sets(j);
    for (let i = 0; i < j; i++) {
      const a = sets(i);
      if (table.hitPolicy === 'unique' && a.every((cell, c) => intersects(cell, b[c]!, domains[c]!)))
        publishErrors.push({ path: `definition.rules[${j}]`, message: `overlaps ${rowName(i)}: some input matches both, which the hit policy "unique" forbids` });
      if (table.hitPolicy === 'first' && a.every((cell, c) => covers(cell, b[c]!, domains[c]!))) {
        warnings.push({ path: `definition.rules[${j}]`, message: `can never be the answer: every input it matches, ${rowName(i)} above it matches first` });
        break;
      }
    }
  }
  if (!table.outputs.some((o) => o.default)) warnings.push(...gaps(table, columns as CellSet[][], domains as Representative[][]));
  return { warnings, publishErrors };
}

/** Input combinations (by class) that no row covers. */
function gaps(table: PreparedDecisionTable, columns: CellSet[][], domains: Representative[][]): Finding[] {
  const combinations = domains.reduce((n, d) => n * d.length, 1);
  if (combinations > analysisLimits.maxCombinations) return [];
  const found: string[] = [];
  const pick: Representative[] = [];
  const walk = (c: number): void => {
    if (found.length >= analysisLimits.maxGapsReported) return;
    if (c === domains.length) {
      const covered = table.rows.some((_, r) => columns.every((cells, col) => accepts(cells[r]!, pick[col]!)));
      if (!covered) found.push(pick.map((r, col) => `${table.inputs[col]!.label} ${describe(r)}`).join(', '));
      return;
    }
    for (const r of domains[c]!) {
      pick[c] = r;
      walk(c + 1);
    }
  };
  walk(0);
  return found.map((combination) => ({ path: 'definition.rules', message: `no row covers ${combination}` }));
}
