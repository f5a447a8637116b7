/**
 * The decision-table grid as cells, apart from how it is drawn: the columns
 * (inputs then outputs, then the rows' descriptions), each cell's text and
 * how a text is written back, the rows shown (filtered and grouped, a view
 * only: the table's row order is its meaning under a first or priority hit
 * policy, so neither reorders it), and the row edits the keyboard makes. The
 * grid edits through these functions, so a paste, a typed cell and a row
 * shortcut change the definition the same way, as one edit each.
 */
import type { ValueType } from '../../../engine/definitions.ts';
import { entryOf, entryText, type TableDefinition } from './model.ts';

type Row = TableDefinition['rules'][number];

/** A column of the grid: an input's unary tests, an output's entries, or the rows' descriptions (plain text, no FEEL). */
export interface GridColumn {
  kind: 'when' | 'then' | 'description';
  /** Its place among the inputs or outputs (0 for the description). */
  index: number;
  /** What its header shows: an input's label or expression, an output's name. */
  name: string;
  type: ValueType;
}

export function gridColumns(definition: TableDefinition): GridColumn[] {
  return [
    ...definition.inputs.map((input, index): GridColumn => ({ kind: 'when', index, name: input.label || input.expression || input.id, type: input.type })),
    ...definition.outputs.map((output, index): GridColumn => ({ kind: 'then', index, name: output.name, type: output.type })),
    { kind: 'description', index: 0, name: 'Description', type: 'string' },
  ];
}

/** The path a save's problems name a cell by. */
export function cellPath(r: number, column: GridColumn): string {
  if (column.kind === 'description') return `definition.rules[${r}].description`;
  return `definition.rules[${r}].${column.kind}[${column.index}]`;
}

/** A cell as the grid writes it: an empty output is null, shown empty; a missing input cell matches anything. */
export function cellText(row: Row, column: GridColumn): string {
  if (column.kind === 'when') return row.when[column.index] ?? '-';
  if (column.kind === 'description') return row.description ?? '';
  const entry = row.then[column.index];
  return entry === null || entry === undefined ? '' : entryText(entry);
}

/** The row with one cell written: empty output text is null, an empty description is left out. */
export function withCell(row: Row, column: GridColumn, text: string): Row {
  if (column.kind === 'when') return { ...row, when: row.when.map((cell, c) => (c === column.index ? text : cell)) };
  if (column.kind === 'description') {
    const { description: _dropped, ...rest } = row;
    return text ? { ...rest, description: text } : rest;
  }
  const entry = text.trim() === '' ? null : entryOf(text, row.then[column.index]);
  return { ...row, then: row.then.map((cell, c) => (c === column.index ? entry : cell)) };
}

/** A cell's text as it is when cleared: an input matches anything, an output is null, a description goes. */
export const clearedText = (column: GridColumn) => (column.kind === 'when' ? '-' : '');

/** A row of the table's shape that matches anything and answers null. */
export const blankRow = (definition: TableDefinition): Row => ({ when: definition.inputs.map(() => '-'), then: definition.outputs.map(() => null) });

export interface CellWrite {
  r: number;
  c: number;
  text: string;
}

/** The definition with these cells written, rows added at the end for writes past it: one edit, however many cells. */
export function withCells(definition: TableDefinition, columns: readonly GridColumn[], writes: readonly CellWrite[]): TableDefinition {
  const rules = [...definition.rules];
  const blank = blankRow(definition);
  for (const { r, c, text } of writes) {
    while (rules.length <= r) rules.push(blank);
    rules[r] = withCell(rules[r]!, columns[c]!, text);
  }
  return { ...definition, rules };
}

/** Row edits the grid's shortcuts and row menu make; `rows` are indexes into the table, in any order. */
export const rowEdits = {
  insert(definition: TableDefinition, at: number): TableDefinition {
    const rules = [...definition.rules];
    rules.splice(at, 0, blankRow(definition));
    return { ...definition, rules };
  },
  duplicate(definition: TableDefinition, rows: readonly number[]): TableDefinition {
    const copies = new Set(rows);
    // A copy goes right after its row, without the row's id, which must stay unique.
    return {
      ...definition,
      rules: definition.rules.flatMap((row, r) => {
        if (!copies.has(r)) return [row];
        const { id: _id, ...copy } = row;
        return [row, structuredClone(copy)];
      }),
    };
  },
  remove(definition: TableDefinition, rows: readonly number[]): TableDefinition {
    const removed = new Set(rows);
    return { ...definition, rules: definition.rules.filter((_, r) => !removed.has(r)) };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// The rows shown

export interface RowFilter {
  /** Text the cell must contain, any case; empty shows every row. */
  text: string;
  /** The column whose cell is searched (an index into the grid's columns), or every column. */
  column?: number | undefined;
}

/** What the grid lists, in order: rows, and with grouping the head of each group. */
export type GridItem = { kind: 'row'; r: number } | { kind: 'group'; value: string; rows: number; collapsed: boolean };

/**
 * The rows that pass the filter, in the table's order; with `groupBy` on,
 * gathered under their first column's text, groups in the order their
 * first row comes, each row keeping its number. A collapsed group shows its
 * head alone.
 */
export function gridItems(
  definition: TableDefinition,
  columns: readonly GridColumn[],
  filter: RowFilter,
  grouping?: { collapsed: ReadonlySet<string> },
): GridItem[] {
  const needle = filter.text.trim().toLowerCase();
  const searched = filter.column === undefined ? columns : [columns[filter.column]!];
  const passes = (row: Row) => !needle || searched.some((column) => cellText(row, column).toLowerCase().includes(needle));
  const shown = definition.rules.flatMap((row, r) => (passes(row) ? [r] : []));
  if (!grouping) return shown.map((r) => ({ kind: 'row', r }));
  const groups = new Map<string, number[]>();
  for (const r of shown) {
    const value = cellText(definition.rules[r]!, columns[0]!);
    groups.set(value, [...(groups.get(value) ?? []), r]);
  }
  return [...groups].flatMap(([value, rows]): GridItem[] => {
    const collapsed = grouping.collapsed.has(value);
    return [{ kind: 'group', value, rows: rows.length, collapsed }, ...(collapsed ? [] : rows.map((r): GridItem => ({ kind: 'row', r })))];
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Selection

/** A cell of the grid by its place in the list shown (`item`) and its column. */
export interface GridPoint {
  item: number;
  c: number;
}

/** The rectangle between two corners, as the rows (table indexes, in the order shown) and columns it spans. */
export function selectedRange(items: readonly GridItem[], anchor: GridPoint, focus: GridPoint) {
  const [top, bottom] = [Math.min(anchor.item, focus.item), Math.max(anchor.item, focus.item)];
  const [left, right] = [Math.min(anchor.c, focus.c), Math.max(anchor.c, focus.c)];
  const rows = items.slice(top, bottom + 1).flatMap((item) => (item.kind === 'row' ? [item.r] : []));
  return { top, bottom, left, right, rows, columns: Array.from({ length: right - left + 1 }, (_, i) => left + i) };
}
