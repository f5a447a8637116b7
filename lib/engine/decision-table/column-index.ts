/**
 * Indexes of a decision table's input columns, built once when the table is
 * compiled, so that evaluating a large table looks at the rows that can
 * match instead of every row. A column is indexed when every cell in it is
 * `-`, equality with literals (`"gold"`, `"DE","FR"`, `true`), or number
 * comparisons and ranges with constant ends (`< 18`, `[18..65]`): an
 * equality column by a map from value to rows, a number column by the
 * elementary intervals its cells' ends cut the number line into. A lookup
 * gives the rows, in order, whose cell can hold for the value, `-` rows
 * included; the plan still checks every cell of those rows, so an index only
 * ever skips rows that cannot match. A parity test compares with the plain
 * scan on random tables.
 */
import { compare, Decimal } from '../../decimal/decimal.ts';
import { constantNumber, type CompareOp, type Expr, type Test, type UnaryTests } from '../feel/ast.ts';
import type { FeelValue } from '../feel/values.ts';

/** Rows (ascending indexes) whose cell may hold for the looked-up value. */
export type RowList = Int32Array;

export interface ColumnIndex {
  lookup(value: FeelValue): RowList;
}

type Key = string | number | boolean;

/** An interval of numbers, each end open or closed; null ends are unbounded. */
interface Interval {
  lo: number | null;
  hi: number | null;
  loClosed: boolean;
  hiClosed: boolean;
}

/**
 * A literal as a map key. Number keys are doubles: a literal held as a
 * `Decimal` leaves the column unindexed. A `Decimal` input then finds no key,
 * rightly: a value is held as a double whenever it can be (lib/decimal), so
 * no `Decimal` equals a double.
 */
function literalKey(e: Expr): Key | undefined {
  if (e.k === 'str' || e.k === 'bool') return e.v;
  return e.k === 'num' && typeof e.v === 'number' ? e.v : undefined;
}

/** The equality keys of a cell, or undefined when the cell is not a list of literals. */
function equalityKeys(cell: UnaryTests): Key[] | undefined {
  if (cell.k !== 'tests' || cell.not) return undefined;
  const keys: Key[] = [];
  for (const test of cell.tests) {
    const key = test.k === 'expr' ? literalKey(test.e) : test.op === '=' ? literalKey(test.r) : undefined;
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return keys;
}

function comparisonInterval(op: CompareOp, n: number): Interval | undefined {
  switch (op) {
    case '<':
      return { lo: null, hi: n, loClosed: false, hiClosed: false };
    case '<=':
      return { lo: null, hi: n, loClosed: false, hiClosed: true };
    case '>':
      return { lo: n, hi: null, loClosed: false, hiClosed: false };
    case '>=':
      return { lo: n, hi: null, loClosed: true, hiClosed: false };
    case '=':
      return { lo: n, hi: n, loClosed: true, hiClosed: true };
    default:
      return undefined;
  }
}

function testInterval(test: Test): Interval | undefined {
  if (test.k === 'cmp') {
    const n = constantNumber(test.r);
    return typeof n === 'number' ? comparisonInterval(test.op, n) : undefined;
  }
  const e = test.e;
  if (e.k === 'num') return typeof e.v === 'number' ? { lo: e.v, hi: e.v, loClosed: true, hiClosed: true } : undefined;
  if (e.k !== 'range') return undefined;
  const [lo, hi] = [constantNumber(e.lo), constantNumber(e.hi)];
  // Ends are doubles, so that looking up a double compares doubles: a `Decimal` end leaves the column unindexed.
  if (lo === undefined || hi === undefined || lo instanceof Decimal || hi instanceof Decimal) return undefined;
  return { lo, hi, loClosed: e.loClosed, hiClosed: e.hiClosed };
}

/** The number intervals of a cell, or undefined when it is not made of number comparisons and ranges. */
function cellIntervals(cell: UnaryTests): Interval[] | undefined {
  if (cell.k !== 'tests' || cell.not) return undefined;
  const intervals: Interval[] = [];
  for (const test of cell.tests) {
    const interval = testInterval(test);
    if (!interval) return undefined;
    intervals.push(interval);
  }
  return intervals;
}

/** Merges ascending row lists into one ascending list without duplicates. */
function mergeRows(lists: number[][]): RowList {
  const all = lists.flat().sort((a, b) => a - b);
  const out: number[] = [];
  for (const row of all) if (out[out.length - 1] !== row) out.push(row);
  return Int32Array.from(out);
}

/** How many row entries all of a column's lookup lists may hold together: past it the column is left unindexed. */
const entryBudget = (rows: number) => Math.max(50_000, rows * 20);

function equalityIndex(cells: UnaryTests[]): ColumnIndex | undefined {
  const byKey = new Map<Key, number[]>();
  const anyRows: number[] = [];
  for (let row = 0; row < cells.length; row++) {
    const cell = cells[row]!;
    if (cell.k === 'any') {
      anyRows.push(row);
      continue;
    }
    const keys = equalityKeys(cell);
    if (!keys) return undefined;
    for (const key of keys) {
      const rows = byKey.get(key) ?? [];
      if (rows[rows.length - 1] !== row) rows.push(row);
      byKey.set(key, rows);
    }
  }
  if (byKey.size * anyRows.length > entryBudget(cells.length)) return undefined;
  const lists = new Map<Key, RowList>([...byKey].map(([key, rows]) => [key, mergeRows([rows, anyRows])]));
  const others = Int32Array.from(anyRows);
  return { lookup: (value) => (value !== null && typeof value !== 'object' ? (lists.get(value) ?? others) : others) };
}

function numberIndex(cells: UnaryTests[]): ColumnIndex | undefined {
  const anyRows: number[] = [];
  const rowIntervals: [number, Interval][] = [];
  for (let row = 0; row < cells.length; row++) {
    const cell = cells[row]!;
    if (cell.k === 'any') {
      anyRows.push(row);
      continue;
    }
    const intervals = cellIntervals(cell);
    if (!intervals) return undefined;
    for (const interval of intervals) rowIntervals.push([row, interval]);
  }
  // The distinct ends cut the line into segments: (-inf, p0), [p0], (p0, p1), [p1], ..., (pk, +inf): segment 2i+1 is the point pi.
  const points = [...new Set(rowIntervals.flatMap(([, i]) => [i.lo, i.hi]).filter((p): p is number => p !== null))].sort((a, b) => a - b);
  const segmentCount = points.length * 2 + 1;
  const pointIndex = new Map(points.map((p, i) => [p, i]));
  const segments: number[][] = Array.from({ length: segmentCount }, () => []);
  let entries = 0;
  for (const [row, { lo, hi, loClosed, hiClosed }] of rowIntervals) {
    const first = lo === null ? 0 : pointIndex.get(lo)! * 2 + (loClosed ? 1 : 2);
    const last = hi === null ? segmentCount - 1 : pointIndex.get(hi)! * 2 + (hiClosed ? 1 : 0);
    entries += Math.max(0, last - first + 1);
    if (entries + segmentCount * anyRows.length > entryBudget(cells.length)) return undefined;
    for (let s = first; s <= last; s++) {
      const rows = segments[s]!;
      if (rows[rows.length - 1] !== row) rows.push(row);
    }
  }
  const lists = segments.map((rows) => mergeRows([rows, anyRows]));
  const others = Int32Array.from(anyRows);
  return {
    lookup: (value) => {
      if (typeof value === 'number') return lists[segmentOf(points, (point) => (point < value ? -1 : point > value ? 1 : 0))]!;
      return value instanceof Decimal ? lists[segmentOf(points, (point) => compare(point, value))]! : others;
    },
  };
}

/** The segment a value lies in: the last point not above it found by binary search, `order` telling a point's place against it. */
function segmentOf(points: number[], order: (point: number) => -1 | 0 | 1): number {
  let lo = 0;
  let hi = points.length - 1;
  let at = -1;
  let exact = false;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const o = order(points[mid]!);
    if (o <= 0) {
      at = mid;
      exact = o === 0;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return at < 0 ? 0 : exact ? at * 2 + 1 : at * 2 + 2;
}

/**
 * An index for one column's cells (one per row), or undefined when the column
 * has cells an index cannot answer for, or every cell is `-` (nothing to skip).
 */
export function indexColumn(cells: UnaryTests[]): ColumnIndex | undefined {
  if (cells.every((c) => c.k === 'any')) return undefined;
  return equalityIndex(cells) ?? numberIndex(cells);
}
