/**
 * A decision table's column edits: an input or output column added, moved or
 * deleted together with its cell in every row, so that each row's cells stay
 * under their columns. The editor's column panel and its toolbar make them;
 * the rows' own edits are the grid's (`grid-model.ts`).
 */
import type { TableDefinition } from './model.ts';
import { freshName, moved, without } from './reorder.ts';

/** An input column (its cells are the rows' `when`) or an output column (their `then`). */
export type ColumnKind = 'when' | 'then';

/** The definition with the columns of one kind, and their cells in every row, changed alike. */
function withColumns(definition: TableDefinition, kind: ColumnKind, change: <T>(items: readonly T[]) => T[]): TableDefinition {
  return kind === 'when'
    ? { ...definition, inputs: change(definition.inputs), rules: definition.rules.map((row) => ({ ...row, when: change(row.when) })) }
    : { ...definition, outputs: change(definition.outputs), rules: definition.rules.map((row) => ({ ...row, then: change(row.then) })) };
}

export const columnEdits = {
  /** A new last column of the kind, a string under a fresh id, its cells matching anything (an input's) or empty (an output's). */
  add(definition: TableDefinition, kind: ColumnKind): TableDefinition {
    const { inputs, outputs, rules } = definition;
    if (kind === 'when') {
      const id = freshName(
        'input',
        inputs.map((input) => input.id),
      );
      return { ...definition, inputs: [...inputs, { id, expression: id, type: 'string' }], rules: rules.map((row) => ({ ...row, when: [...row.when, '-'] })) };
    }
    const id = freshName(
      'output',
      outputs.map((output) => output.id),
    );
    return { ...definition, outputs: [...outputs, { id, name: id, type: 'string' }], rules: rules.map((row) => ({ ...row, then: [...row.then, null] })) };
  },
  move: (definition: TableDefinition, kind: ColumnKind, from: number, to: number) => withColumns(definition, kind, (items) => moved(items, from, to)),
  remove: (definition: TableDefinition, kind: ColumnKind, at: number) => withColumns(definition, kind, (items) => without(items, at)),
};
