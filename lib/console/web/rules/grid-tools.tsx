/**
 * What sits around the decision table's grid: the tools above it (columns
 * added; rows searched, filtered by a column and grouped by the first
 * column's value, which change what is shown, never the table; how many rows
 * show) and, under it, the keys it answers.
 */
import type { ColumnKind } from './column-edits.ts';
import type { GridColumn, RowFilter } from './grid-model.ts';

export function GridTools(props: {
  columns: readonly GridColumn[];
  /** The table's rows, and those the filter shows. */
  rows: number;
  shown: number;
  filter: RowFilter;
  onFilter(filter: RowFilter): void;
  grouped: boolean;
  onGrouped(grouped: boolean): void;
  onAddColumn(kind: ColumnKind): void;
}) {
  const { columns, filter, onFilter, rows } = props;
  return (
    <div class="actions grid-tools">
      <button type="button" class="secondary" onClick={() => props.onAddColumn('when')}>
        Add input column
      </button>
      <button type="button" class="secondary" onClick={() => props.onAddColumn('then')}>
        Add output column
      </button>
      <div class="field grid-filter">
        <label>
          Filter rows
          <input type="search" value={filter.text} placeholder="text in a cell" onInput={(event) => onFilter({ ...filter, text: event.currentTarget.value })} />
        </label>
      </div>
      <div class="field">
        <label>
          <span aria-hidden="true">in</span>
          <select
            aria-label="Filter in column"
            value={filter.column ?? ''}
            onChange={(event) => onFilter({ ...filter, column: event.currentTarget.value === '' ? undefined : Number(event.currentTarget.value) })}
          >
            <option value="">any column</option>
            {columns.map((column, c) => (
              <option key={c} value={c}>
                {column.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label class="group-toggle">
        <input type="checkbox" checked={props.grouped} onChange={(event) => props.onGrouped(event.currentTarget.checked)} /> Group by{' '}
        {columns[0]?.name ?? 'the first column'}
      </label>
      <span class="hint" role="status">
        {filter.text.trim() ? `${props.shown} of ${rows} rows` : `${rows} row${rows === 1 ? '' : 's'}`}
      </span>
    </div>
  );
}

/** The keys the grid answers, said under it and on its controls. */
const shortcuts = [
  ['Arrow keys, Tab, Home, End, Page Up, Page Down', 'move between cells (Ctrl with Home or End: first or last row)'],
  ['Shift with a move, or drag', 'select a range of cells'],
  ['Enter or F2, or type', 'edit the cell (typing replaces it); Enter keeps the text and goes down, Tab across, Escape cancels'],
  ['Ctrl+C, Ctrl+X, Ctrl+V', 'copy, cut and paste cells as tab-separated text (Excel, Google Sheets)'],
  ['Delete', 'clear the selected cells'],
  ['Ctrl+Enter, Ctrl+Shift+Enter', 'insert a row below or above'],
  ['Ctrl+D', 'duplicate the selected rows'],
  ['Ctrl+Delete', 'delete the selected rows'],
  ['Ctrl+Z, Ctrl+Shift+Z', 'undo and redo any edit of the draft'],
] as const;

export function GridShortcuts() {
  return (
    <details class="shortcuts">
      <summary>Keyboard shortcuts</summary>
      <dl>
        {shortcuts.map(([keys, what]) => (
          <div key={keys}>
            <dt>{keys}</dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
