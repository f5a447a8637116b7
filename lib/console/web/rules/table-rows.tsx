/**
 * The decision table's rows as the editor shows them beside the grid: each
 * row's header, a button by its number (and id) that opens the row's details,
 * and those details: its id, and the moves and inserts the row menu offers
 * (the grid's shortcuts do the same from the keyboard).
 */
import { rowEdits } from './grid-model.ts';
import { TextField, type Marks, type Touched } from './marks.tsx';
import type { TableDefinition } from './model.ts';
import { replaced } from './reorder.ts';
import { rowMarkOf } from './table-grid.tsx';

/** A row's header: its number and id, opening or closing its details in the panel `panelId`. */
export function RowHead(props: { r: number; id: string | undefined; open: boolean; panelId: string; onToggle(): void }) {
  return (
    <button type="button" class="row-button" aria-expanded={props.open} aria-controls={props.open ? props.panelId : undefined} onClick={props.onToggle}>
      <span class="visually-hidden">Row </span>
      {props.r + 1}
      {props.id && <span class="row-id"> {props.id}</span>}
      <span class="visually-hidden"> details</span>
    </button>
  );
}

/** A row's details: its id, and the moves and inserts the row menu offers. */
export function RowPanel(props: {
  id: string;
  definition: TableDefinition;
  r: number;
  marks: Marks;
  onEdit(next: TableDefinition, touched: Touched): void;
  onMove(to: number): void;
  onClose(): void;
  onDeleted(): void;
}) {
  const { definition, r, marks, onEdit } = props;
  const row = definition.rules[r]!;
  const path = `definition.rules[${r}].id`;
  const count = definition.rules.length;
  const rowMark = rowMarkOf(marks, r);
  return (
    <section id={props.id} class="card row-panel" aria-label={`Row ${r + 1}`}>
      <TextField
        label={`Row ${r + 1} id`}
        path={path}
        marks={marks}
        value={row.id ?? ''}
        code
        onValue={(text) => {
          const { id: _dropped, ...rest } = row;
          onEdit({ ...definition, rules: replaced(definition.rules, r, text ? { ...rest, id: text } : rest) }, path);
        }}
      />
      {rowMark.note}
      <div class="actions">
        <button type="button" class="icon secondary" aria-label={`Move row ${r + 1} up`} disabled={r === 0} onClick={() => props.onMove(r - 1)}>
          ↑
        </button>
        <button type="button" class="icon secondary" aria-label={`Move row ${r + 1} down`} disabled={r === count - 1} onClick={() => props.onMove(r + 1)}>
          ↓
        </button>
        <button type="button" class="secondary" aria-keyshortcuts="Control+Shift+Enter" onClick={() => onEdit(rowEdits.insert(definition, r), 'structure')}>
          Insert row above
        </button>
        <button type="button" class="secondary" aria-keyshortcuts="Control+Enter" onClick={() => onEdit(rowEdits.insert(definition, r + 1), 'structure')}>
          Insert row below
        </button>
        <button type="button" class="secondary" aria-keyshortcuts="Control+D" onClick={() => onEdit(rowEdits.duplicate(definition, [r]), 'structure')}>
          Duplicate row {r + 1}
        </button>
        <button
          type="button"
          class="danger"
          aria-keyshortcuts="Control+Delete"
          onClick={() => {
            props.onDeleted();
            onEdit(rowEdits.remove(definition, [r]), 'structure');
          }}
        >
          Delete row {r + 1}
        </button>
        <button type="button" class="secondary" onClick={props.onClose}>
          Close row details
        </button>
      </div>
    </section>
  );
}
