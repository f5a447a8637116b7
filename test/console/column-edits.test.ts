/** A decision table's column edits keep each row's cells under their columns: a column added, moved or deleted takes its cells along. */
import { describe, expect, it } from 'vitest';
import { columnEdits } from '../../lib/console/web/rules/column-edits.ts';
import type { TableDefinition } from '../../lib/console/web/rules/model.ts';

const table: TableDefinition = {
  hitPolicy: 'first',
  inputs: [
    { id: 'zone', expression: 'zone', type: 'string' },
    { id: 'weight', expression: 'parcel.weight', type: 'number' },
  ],
  outputs: [
    { id: 'fee', name: 'fee', type: 'number' },
    { id: 'note', name: 'note', type: 'string' },
  ],
  rules: [
    { id: 'small', when: ['"domestic"', '< 10'], then: [5, '"light"'] },
    { when: ['"abroad"', '-'], then: ['base * 2', null] },
  ],
};

describe('column edits', () => {
  it('adds a last column of each kind under a fresh id, its cells matching anything or empty', () => {
    const added = columnEdits.add(columnEdits.add(table, 'when'), 'then');
    expect(added.inputs.at(-1)).toEqual({ id: 'input3', expression: 'input3', type: 'string' });
    expect(added.outputs.at(-1)).toEqual({ id: 'output3', name: 'output3', type: 'string' });
    expect(added.rules.map((row) => [row.when.at(-1), row.then.at(-1)])).toEqual([
      ['-', null],
      ['-', null],
    ]);
    expect(added.hitPolicy).toBe('first');
    expect(added.rules[0]!.id).toBe('small');
  });

  it('moves a column with its cells, the other kind untouched', () => {
    const moved = columnEdits.move(table, 'then', 1, 0);
    expect(moved.outputs.map((output) => output.id)).toEqual(['note', 'fee']);
    expect(moved.rules.map((row) => row.then)).toEqual([
      ['"light"', 5],
      [null, 'base * 2'],
    ]);
    expect(moved.inputs).toBe(table.inputs);
    expect(moved.rules.map((row) => row.when)).toEqual(table.rules.map((row) => row.when));
    expect(columnEdits.move(table, 'when', 0, 1).rules[0]!.when).toEqual(['< 10', '"domestic"']);
  });

  it('deletes a column with its cells, and leaves the table it was given as it was', () => {
    const removed = columnEdits.remove(table, 'when', 0);
    expect(removed.inputs.map((input) => input.id)).toEqual(['weight']);
    expect(removed.rules.map((row) => row.when)).toEqual([['< 10'], ['-']]);
    expect(table.inputs).toHaveLength(2);
    expect(table.rules[0]!.when).toEqual(['"domestic"', '< 10']);
  });
});
