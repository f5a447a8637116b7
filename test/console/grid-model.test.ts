/**
 * The grid's cells apart from their drawing: reading and writing a cell of
 * each kind, several writes as one edit that grows the table, the row edits
 * of the shortcuts, the rows a filter and a grouping show (never reordering
 * the table), and a selection's rows and columns.
 */
import { describe, expect, it } from 'vitest';
import {
  blankRow,
  cellPath,
  cellText,
  gridColumns,
  gridItems,
  rowEdits,
  selectedRange,
  withCell,
  withCells,
  type GridItem,
} from '../../lib/console/web/rules/grid-model.ts';
import type { TableDefinition } from '../../lib/console/web/rules/model.ts';

const table: TableDefinition = {
  inputs: [
    { id: 'zone', expression: 'zone', type: 'string' },
    { id: 'weight', label: 'Weight (kg)', expression: 'parcel.weight', type: 'number' },
  ],
  outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
  rules: [
    { id: 'small', when: ['"domestic"', '< 10'], then: [5] },
    { when: ['"abroad"', '-'], then: ['base * 2'], description: 'Anything abroad' },
    { when: ['"domestic"', '>= 10'], then: [null] },
  ],
};
const columns = gridColumns(table);

describe('grid cells', () => {
  it('names columns by label, else expression, and ends with the rows’ descriptions', () => {
    expect(columns.map((column) => [column.kind, column.name])).toEqual([
      ['when', 'zone'],
      ['when', 'Weight (kg)'],
      ['then', 'fee'],
      ['description', 'Description'],
    ]);
    expect(columns.map((column) => cellPath(1, column))).toEqual([
      'definition.rules[1].when[0]',
      'definition.rules[1].when[1]',
      'definition.rules[1].then[0]',
      'definition.rules[1].description',
    ]);
  });

  it('reads each kind of cell: an output null as empty, FEEL as its text, a literal as JSON', () => {
    expect(columns.map((column) => cellText(table.rules[0]!, column))).toEqual(['"domestic"', '< 10', '5', '']);
    expect(columns.map((column) => cellText(table.rules[1]!, column))).toEqual(['"abroad"', '-', 'base * 2', 'Anything abroad']);
    expect(cellText(table.rules[2]!, columns[2]!)).toBe('');
  });

  it('writes cells back: empty output is null, empty description goes, a number a double cannot hold stays exact FEEL text', () => {
    expect(withCell(table.rules[0]!, columns[2]!, '').then).toEqual([null]);
    expect(withCell(table.rules[0]!, columns[2]!, '7.5').then).toEqual([7.5]);
    expect(withCell(table.rules[0]!, columns[2]!, '0.1234567890123456789').then).toEqual(['0.1234567890123456789']);
    expect(withCell(table.rules[1]!, columns[3]!, '')).not.toHaveProperty('description');
    expect(withCell(table.rules[0]!, columns[1]!, '[1..5]').when).toEqual(['"domestic"', '[1..5]']);
    // The row it came from is left as it was.
    expect(table.rules[0]!.when).toEqual(['"domestic"', '< 10']);
  });

  it('writes many cells as one edit, adding blank rows for writes past the end', () => {
    const next = withCells(table, columns, [
      { r: 0, c: 0, text: '"island"' },
      { r: 4, c: 2, text: '9' },
    ]);
    expect(next.rules).toHaveLength(5);
    expect(next.rules[0]!.when[0]).toBe('"island"');
    expect(next.rules[3]).toEqual(blankRow(table));
    expect(next.rules[4]).toEqual({ when: ['-', '-'], then: [9] });
    expect(table.rules).toHaveLength(3);
  });

  it('inserts, duplicates (without the unique id) and removes rows', () => {
    expect(rowEdits.insert(table, 1).rules[1]).toEqual({ when: ['-', '-'], then: [null] });
    const duplicated = rowEdits.duplicate(table, [0, 2]).rules;
    expect(duplicated).toHaveLength(5);
    expect(duplicated[1]).toEqual({ when: ['"domestic"', '< 10'], then: [5] });
    expect(duplicated[4]).toEqual(table.rules[2]);
    expect(rowEdits.remove(table, [2, 0]).rules).toEqual([table.rules[1]]);
  });
});

describe('rows shown', () => {
  const rows = (items: GridItem[]) => items.map((item) => (item.kind === 'row' ? item.r : `${item.value}${item.collapsed ? ' (closed)' : ''}`));

  it('filters by text in any column or in one, any case, keeping the table order', () => {
    expect(rows(gridItems(table, columns, { text: 'DOMESTIC' }))).toEqual([0, 2]);
    expect(rows(gridItems(table, columns, { text: 'abroad' }))).toEqual([1]);
    expect(rows(gridItems(table, columns, { text: 'abroad', column: 0 }))).toEqual([1]);
    expect(rows(gridItems(table, columns, { text: 'abroad', column: 2 }))).toEqual([]);
    expect(rows(gridItems(table, columns, { text: '  ' }))).toEqual([0, 1, 2]);
  });

  it('groups by the first column in the order groups first appear, and a closed group shows its head alone', () => {
    expect(rows(gridItems(table, columns, { text: '' }, { collapsed: new Set() }))).toEqual(['"domestic"', 0, 2, '"abroad"', 1]);
    expect(rows(gridItems(table, columns, { text: '' }, { collapsed: new Set(['"domestic"']) }))).toEqual(['"domestic" (closed)', '"abroad"', 1]);
    expect(rows(gridItems(table, columns, { text: '< 10' }, { collapsed: new Set() }))).toEqual(['"domestic"', 0]);
  });

  it('gives a selection’s rows in the order shown, skipping group heads, and its columns', () => {
    const items = gridItems(table, columns, { text: '' }, { collapsed: new Set() });
    const range = selectedRange(items, { item: 4, c: 2 }, { item: 1, c: 1 });
    expect(range.rows).toEqual([0, 2, 1]);
    expect(range.columns).toEqual([1, 2]);
  });
});
