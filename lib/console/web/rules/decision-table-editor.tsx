/**
 * The decision table editor: a spreadsheet grid (./table-grid.tsx) with one
 * compact header per column, its type as a tag, and the hit policy in the
 * corner, as DMN draws a table. A column's details and a row's open in one
 * panel from its header (`table-columns.tsx`, `table-rows.tsx`), so the grid
 * shows rows, not forms; the tools above the grid (`grid-tools.tsx`) search,
 * filter and group rows, which change what is shown, never the table. This
 * module holds what joins them: which panel is open, the view's filter and
 * grouping, and where the focus goes after a move or Add row.
 */
import { useId, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { parameterNames } from '../feel/names.ts';
import { columnEdits, type ColumnKind } from './column-edits.ts';
import { CoverageSummary, type TableCoverage } from './coverage.tsx';
import { GridShortcuts, GridTools } from './grid-tools.tsx';
import { gridColumns, gridItems, rowEdits, type RowFilter } from './grid-model.ts';
import { HitPolicyCorner, HitPolicyNote } from './hit-policy.tsx';
import type { Marks, Touched } from './marks.tsx';
import type { TableDefinition } from './model.ts';
import { moved } from './reorder.ts';
import { columnActionName, ColumnHead, ColumnPanel, hasDetails, type DetailedColumn } from './table-columns.tsx';
import { TableGrid } from './table-grid.tsx';
import { RowHead, RowPanel } from './table-rows.tsx';
import './table-grid.css';

interface Props {
  definition: TableDefinition;
  marks: Marks;
  onEdit(next: TableDefinition, touched: Touched): void;
  /** The published version's production coverage, shown in a column of its own. */
  coverage?: TableCoverage | undefined;
}

/** The one details panel, a column's or a row's. */
const panelId = 'table-details';

export function DecisionTableEditor({ definition, marks, onEdit, coverage }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const hitPolicyNote = useId();
  // After a move, focus follows the moved row or column: the button of the same action at its new place.
  const focusNext = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    const button = root.current?.querySelector<HTMLButtonElement>(`button[aria-label="${focusNext.current}"]`);
    focusNext.current = undefined;
    button?.focus();
  });
  const [openColumn, setOpenColumn] = useState<number>();
  const [openRow, setOpenRow] = useState<number>();
  const [filter, setFilter] = useState<RowFilter>({ text: '' });
  const [grouped, setGrouped] = useState(false);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState('');
  /** The row Add row made: the grid's cursor goes to it, and the focus with it, so a paste lands there. */
  const [addedRow, setAddedRow] = useState<{ r: number }>();

  const { inputs, outputs, rules } = definition;
  const columns = useMemo(() => gridColumns(definition), [inputs, outputs]);
  const grouping = useMemo(() => (grouped ? { collapsed } : undefined), [grouped, collapsed]);
  const shownRows = useMemo(() => (filter.text.trim() ? gridItems(definition, columns, filter).length : rules.length), [rules, columns, filter]);
  // FEEL completes the rule's declared inputs; without them, the names its input columns read.
  const cellNames = useMemo(
    () =>
      definition.parameters ? parameterNames(definition.parameters) : inputs.map((input) => ({ name: input.expression, detail: `column: ${input.type}` })),
    [definition.parameters, inputs],
  );

  /** Focus after a move: the same button at the moved item's new place, or its opposite when that one is disabled at an end. */
  const focusAfterMove = (what: string, to: number, count: number, toward: 'up' | 'down' | 'left' | 'right') => {
    const backward = toward === 'up' || toward === 'left';
    const opposite = { up: 'down', down: 'up', left: 'right', right: 'left' }[toward];
    const atEnd = backward ? to === 0 : to === count - 1;
    focusNext.current = `Move ${what} ${atEnd ? opposite : toward}`;
  };

  /** Where a column of the kind sits among the grid's columns: inputs first, then outputs. */
  const gridIndex = (kind: ColumnKind, at: number) => (kind === 'when' ? at : inputs.length + at);

  const moveRow = (r: number, to: number) => {
    onEdit({ ...definition, rules: moved(rules, r, to) }, 'structure');
    setOpenRow(to);
    focusAfterMove(`row ${to + 1}`, to, rules.length, to < r ? 'up' : 'down');
  };
  const moveColumn = (column: DetailedColumn, to: number) => {
    onEdit(columnEdits.move(definition, column.kind, column.index, to), 'structure');
    setOpenColumn(gridIndex(column.kind, to));
    const count = column.kind === 'when' ? inputs.length : outputs.length;
    focusAfterMove(`column ${columnActionName(definition, column)}`, to, count, to < column.index ? 'left' : 'right');
  };
  const addColumn = (kind: ColumnKind) => {
    onEdit(columnEdits.add(definition, kind), 'structure');
    setOpenColumn(gridIndex(kind, kind === 'when' ? inputs.length : outputs.length));
  };

  const open = openColumn !== undefined ? columns[openColumn] : undefined;
  const closePanel = () => {
    setOpenColumn(undefined);
    setOpenRow(undefined);
  };

  return (
    <div class="table-editor" ref={root}>
      <GridTools
        columns={columns}
        rows={rules.length}
        shown={shownRows}
        filter={filter}
        onFilter={setFilter}
        grouped={grouped}
        onGrouped={setGrouped}
        onAddColumn={addColumn}
      />
      {coverage && <CoverageSummary coverage={coverage} />}
      {hasDetails(open) && (
        <ColumnPanel
          id={panelId}
          column={open}
          definition={definition}
          marks={marks}
          names={cellNames}
          onEdit={onEdit}
          onMove={(to) => moveColumn(open, to)}
          onClose={closePanel}
        />
      )}
      {openRow !== undefined && rules[openRow] && (
        <RowPanel
          id={panelId}
          definition={definition}
          r={openRow}
          marks={marks}
          onEdit={onEdit}
          onMove={(to) => moveRow(openRow, to)}
          onClose={closePanel}
          onDeleted={() => setOpenRow(undefined)}
        />
      )}
      <HitPolicyNote definition={definition} id={hitPolicyNote} />
      <TableGrid
        definition={definition}
        columns={columns}
        marks={marks}
        onEdit={onEdit}
        filter={filter}
        grouping={grouping}
        onToggleGroup={(value) => {
          const next = new Set(collapsed);
          if (!next.delete(value)) next.add(value);
          setCollapsed(next);
        }}
        corner={<HitPolicyCorner definition={definition} marks={marks} noteId={hitPolicyNote} onEdit={onEdit} />}
        columnHead={(c) => (
          <ColumnHead
            column={columns[c]!}
            marks={marks}
            open={openColumn === c}
            panelId={panelId}
            onToggle={() => {
              setOpenRow(undefined);
              setOpenColumn(openColumn === c ? undefined : c);
            }}
          />
        )}
        rowHead={(r) => (
          <RowHead
            r={r}
            id={rules[r]?.id}
            open={openRow === r}
            panelId={panelId}
            onToggle={() => {
              setOpenColumn(undefined);
              setOpenRow(openRow === r ? undefined : r);
            }}
          />
        )}
        coverage={coverage}
        names={cellNames}
        onNotice={setNotice}
        focusRow={addedRow}
      />
      <p class="grid-notice" role="status">
        {notice}
      </p>
      {rules.length === 0 && <p>No rows: nothing matches until you add one.</p>}
      <div class="actions">
        <button
          type="button"
          class="secondary"
          onClick={() => {
            onEdit(rowEdits.insert(definition, rules.length), 'structure');
            setAddedRow({ r: rules.length });
          }}
        >
          Add row
        </button>
        <span class="hint">A “-” cell matches any value. Output text is FEEL: write a string as "gold", with its quotes; a pasted word becomes one.</span>
      </div>
      <GridShortcuts />
    </div>
  );
}
