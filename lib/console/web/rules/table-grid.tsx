/**
 * The decision table as a spreadsheet. One element holds the focus (the
 * grid, ARIA's grid pattern with an active descendant), so the keyboard works
 * as in Excel: arrows, Tab, Home and End move; Shift extends a selection;
 * Enter or F2 edits a cell, typing replaces it, Escape cancels; copy, cut and
 * paste carry tab-separated text that spreadsheets read and write. Only the
 * rows in view are drawn, between two spacers as tall as the rows left out,
 * so a table of thousands of rows opens, scrolls and edits as fast as one of
 * ten. Every change is one `onEdit` of the whole definition, which the page
 * keeps in its undo history.
 */
import type { ComponentChildren } from 'preact';
import { useId, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { preloadFeelEditor, type FeelName } from '../feel/feel-field.tsx';
import { onDemand } from '../ui/on-demand.ts';
import { copyCells, deserializeCells, gridCellsType, parseTsv, serializeCells, type ClipboardColumn } from './clipboard-copy.ts';
import { CoverageCell, type TableCoverage } from './coverage.tsx';
import {
  cellPath,
  cellText,
  clearedText,
  gridItems,
  rowEdits,
  selectedRange,
  withCells,
  type CellWrite,
  type GridColumn,
  type GridItem,
  type GridPoint,
  type RowFilter,
} from './grid-model.ts';
import { FeelCellEditor } from './cell-editor.tsx';
import { markOf, type Marks, type Touched } from './marks.tsx';
import type { TableDefinition } from './model.ts';

interface Props {
  definition: TableDefinition;
  columns: readonly GridColumn[];
  marks: Marks;
  onEdit(next: TableDefinition, touched: Touched): void;
  filter: RowFilter;
  grouping: { collapsed: ReadonlySet<string> } | undefined;
  onToggleGroup(value: string): void;
  /** The hit policy, in the table's corner as DMN draws it. */
  corner: ComponentChildren;
  /** A column's header: the button that opens its details. */
  columnHead(c: number): ComponentChildren;
  /** The row's own header: its number and the button of its details. */
  rowHead(r: number): ComponentChildren;
  coverage?: TableCoverage | undefined;
  /** Names the FEEL editor completes in a cell. */
  names: readonly FeelName[];
  /** Said in the grid's status line: what a paste did. */
  onNotice(text: string): void;
  /** A row to go to (its first cell the cursor, the grid focused), once it is shown: a new object for each time, as after Add row. */
  focusRow?: { r: number } | undefined;
}

/** A paste reads values with FEEL's parser: fetched when the grid is first focused, with the FEEL editor a cell opens. */
const loadPaste = onDemand(() => import('./clipboard.ts'));

/** Rows drawn beyond the view on each side, so a scroll of a few rows shows no blank. */
const overscan = 12;
/** The row height the grid is drawn with until it has measured one (rules.css: --grid-row-height). */
const assumedRowHeight = 36;

/** A description is plain text: the clipboard treats it as text, and a paste writes it as it came. */
const clipboardColumn = (column: GridColumn): ClipboardColumn => ({ kind: column.kind === 'when' ? 'when' : 'then', type: column.type });

interface Editing {
  /** The text the editor opens with: the cell's, or the key typed over it. */
  text: string;
}

export function TableGrid(props: Props) {
  const { definition, columns, marks, onEdit } = props;
  const id = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLTableElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  const rowHeight = useRef(assumedRowHeight);
  const [cursor, setCursor] = useState<GridPoint>({ item: 0, c: 0 });
  const [anchor, setAnchor] = useState<GridPoint>({ item: 0, c: 0 });
  const [editing, setEditing] = useState<Editing>();
  /** Pasted values that are not of their column's type, or whose locale is ambiguous: `r:c` → why. */
  const [pasteProblems, setPasteProblems] = useState<ReadonlyMap<string, string>>(new Map());
  const dragging = useRef(false);

  const items = useMemo(() => gridItems(definition, columns, props.filter, props.grouping), [definition.rules, columns, props.filter, props.grouping]);
  const lastItem = Math.max(0, items.length - 1);
  const lastColumn = columns.length - 1;
  const at = (point: GridPoint): GridPoint => ({ item: Math.min(Math.max(point.item, 0), lastItem), c: Math.min(Math.max(point.c, 0), lastColumn) });
  const here = at(cursor);
  const range = selectedRange(items, at(anchor), here);
  const cursorItem: GridItem | undefined = items[here.item];

  const first = Math.max(0, Math.floor(view.top / rowHeight.current) - overscan);
  const last = Math.min(items.length, Math.ceil((view.top + view.height) / rowHeight.current) + overscan);

  // Whenever the cursor moves, its cell comes into view: rows by the arithmetic of their height (the row may not be drawn yet), columns by the cell.
  const cellId = (item: number, c: number) => (items[item]?.kind === 'group' ? `${id}-g${item}` : `${id}-${item}-${c}`);
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const header = grid.current?.tHead?.offsetHeight ?? 0;
    const top = here.item * rowHeight.current;
    const visible = box.clientHeight - header;
    let scrollTop = box.scrollTop;
    if (top < scrollTop) scrollTop = top;
    else if (top + rowHeight.current > scrollTop + visible) scrollTop = top + rowHeight.current - visible;
    if (scrollTop !== box.scrollTop) {
      box.scrollTop = scrollTop;
      setView({ top: box.scrollTop, height: box.clientHeight });
    }
    document.getElementById(cellId(here.item, here.c))?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [here.item, here.c]);

  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measured = grid.current?.querySelector<HTMLTableRowElement>('tbody tr.grid-row')?.offsetHeight;
    if (measured) rowHeight.current = measured;
    setView({ top: box.scrollTop, height: box.clientHeight });
    const resized = new ResizeObserver(() => setView({ top: box.scrollTop, height: box.clientHeight }));
    resized.observe(box);
    return () => resized.disconnect();
  }, []);

  useLayoutEffect(() => {
    const release = () => (dragging.current = false);
    addEventListener('mouseup', release);
    return () => removeEventListener('mouseup', release);
  }, []);

  const moveTo = (point: GridPoint, extend = false) => {
    const next = at(point);
    setCursor(next);
    if (!extend) setAnchor(next);
  };

  // A row asked for from outside (Add row) takes the cursor and the focus once the table has it, so a paste goes there
  // next; a row the filter or a collapsed group hides is not gone to.
  const focusedRow = useRef<object | undefined>(undefined);
  useLayoutEffect(() => {
    const request = props.focusRow;
    if (!request || focusedRow.current === request || request.r >= definition.rules.length) return;
    focusedRow.current = request;
    const item = items.findIndex((each) => each.kind === 'row' && each.r === request.r);
    if (item < 0) return;
    setEditing(undefined);
    moveTo({ item, c: 0 });
    grid.current?.focus({ preventScroll: true });
  }, [props.focusRow, items]);

  const edit = (next: TableDefinition, touched: Touched) => {
    if (touched === 'structure') setPasteProblems(new Map());
    onEdit(next, touched);
  };

  const write = (writes: CellWrite[], problems: Map<string, string> = new Map()) => {
    if (writes.length === 0) return;
    const grows = writes.some((each) => each.r >= definition.rules.length);
    const next = new Map(grows ? [] : pasteProblems);
    for (const { r, c } of writes) next.delete(`${r}:${c}`);
    for (const [key, why] of problems) next.set(key, why);
    onEdit(withCells(definition, columns, writes), grows || writes.length > 1 ? 'structure' : cellPath(writes[0]!.r, columns[writes[0]!.c]!));
    setPasteProblems(next);
  };

  const commit = (text: string, move?: Partial<GridPoint>) => {
    setEditing(undefined);
    if (cursorItem?.kind === 'row' && text !== cellText(definition.rules[cursorItem.r]!, columns[here.c]!)) write([{ r: cursorItem.r, c: here.c, text }]);
    if (move) moveTo({ item: here.item + (move.item ?? 0), c: here.c + (move.c ?? 0) });
    grid.current?.focus({ preventScroll: true });
  };

  const startEditing = (text?: string) => {
    if (cursorItem?.kind !== 'row') return;
    setAnchor(here);
    setEditing({ text: text ?? cellText(definition.rules[cursorItem.r]!, columns[here.c]!) });
  };

  const selectedCells = () => range.rows.map((r) => range.columns.map((c) => cellText(definition.rules[r]!, columns[c]!)));

  const copy = (event: ClipboardEvent) => {
    if (editing || !event.clipboardData || range.rows.length === 0) return;
    event.preventDefault();
    const chosen = range.columns.map((c) => columns[c]!);
    const cells = selectedCells();
    event.clipboardData.setData('text/plain', copyCells(cells, chosen.map(clipboardColumn)));
    event.clipboardData.setData(gridCellsType, serializeCells(cells, chosen.map(clipboardColumn)));
  };

  const clearSelection = () =>
    write(range.rows.flatMap((r) => range.columns.map((c): CellWrite => ({ r, c, text: clearedText(columns[c]!) }))).filter(changed));
  const changed = ({ r, c, text }: CellWrite) => r >= definition.rules.length || cellText(definition.rules[r]!, columns[c]!) !== text;

  const paste = async (event: ClipboardEvent) => {
    if (editing || !event.clipboardData || cursorItem?.kind !== 'row') return;
    event.preventDefault();
    // The clipboard is read while the event lasts; the values are read once the paste's code is here.
    const own = deserializeCells(event.clipboardData.getData(gridCellsType));
    const text = event.clipboardData.getData('text/plain');
    const target = columns.slice(here.c);
    let rows: { text: string; problem?: string | undefined }[][];
    let dropped = 0;
    if (own) {
      rows = own.cells.map((row) => row.slice(0, target.length).map((text) => ({ text })));
      dropped = Math.max(0, (own.cells[0]?.length ?? 0) - target.length);
    } else {
      const reader = await loadPaste();
      if (!reader) return props.onNotice('Nothing pasted: the paste could not be loaded; reload the page and paste again.');
      const converted = reader.pasteCells(text, target.map(clipboardColumn));
      if (converted.refused) return props.onNotice(`Nothing pasted: ${converted.refused}`);
      // A description takes the text as it came: it is no FEEL.
      const raw = target.some((column) => column.kind === 'description') ? parseTsv(text) : [];
      rows = converted.rows.map((row, i) => row.map((cell, j) => (target[j]!.kind === 'description' ? { text: raw[i]?.[j] ?? '' } : cell)));
      dropped = converted.droppedColumns;
    }
    // Rows fill downward as they are shown from the cursor, then past the table's end as new rows.
    const shown = items.slice(here.item).flatMap((item) => (item.kind === 'row' ? [item.r] : []));
    const writes: CellWrite[] = [];
    const problems = new Map<string, string>();
    rows.forEach((row, i) => {
      const r = shown[i] ?? definition.rules.length + (i - shown.length);
      row.forEach((cell, j) => {
        writes.push({ r, c: here.c + j, text: cell.text });
        if (cell.problem) problems.set(`${r}:${here.c + j}`, cell.problem);
      });
    });
    write(writes, problems);
    setAnchor(here);
    setCursor({ item: here.item + rows.length - 1, c: here.c + Math.max(0, (rows[0]?.length ?? 1) - 1) });
    const added = writes.filter((each) => each.r >= definition.rules.length).length / Math.max(1, rows[0]?.length ?? 1);
    props.onNotice(
      [
        `Pasted ${rows.length} row${rows.length === 1 ? '' : 's'} of ${rows[0]?.length ?? 0} cell${rows[0]?.length === 1 ? '' : 's'}`,
        added > 0 && `${added} row${added === 1 ? '' : 's'} added`,
        problems.size > 0 && `${problems.size} cell${problems.size === 1 ? '' : 's'} marked: not of the column's type, or ambiguous`,
        dropped > 0 && `${dropped} column${dropped === 1 ? '' : 's'} past the table's last left out`,
      ]
        .filter(Boolean)
        .join('; ') + '.',
    );
  };

  const rowsOfSelection = () => (range.rows.length ? range.rows : cursorItem?.kind === 'row' ? [cursorItem.r] : []);

  const keyDown = (event: KeyboardEvent) => {
    if (editing || event.target !== grid.current) return;
    const mod = event.ctrlKey || event.metaKey;
    const page = Math.max(1, Math.floor(view.height / rowHeight.current) - 1);
    const moves: Record<string, GridPoint> = {
      ArrowUp: { item: here.item - 1, c: here.c },
      ArrowDown: { item: here.item + 1, c: here.c },
      ArrowLeft: { item: here.item, c: here.c - 1 },
      ArrowRight: { item: here.item, c: here.c + 1 },
      PageUp: { item: here.item - page, c: here.c },
      PageDown: { item: here.item + page, c: here.c },
      Home: mod ? { item: 0, c: 0 } : { item: here.item, c: 0 },
      End: mod ? { item: lastItem, c: lastColumn } : { item: here.item, c: lastColumn },
    };
    const move = moves[event.key];
    if (move && !(cursorItem?.kind === 'group' && (event.key === 'ArrowLeft' || event.key === 'ArrowRight'))) {
      event.preventDefault();
      return moveTo(move, event.shiftKey);
    }
    const act = (action: () => void) => {
      event.preventDefault();
      action();
    };
    if (cursorItem?.kind === 'group') {
      if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowLeft' || event.key === 'ArrowRight')
        return act(() => {
          if ((event.key === 'ArrowLeft') === cursorItem.collapsed && event.key.startsWith('Arrow')) return;
          props.onToggleGroup(cursorItem.value);
        });
      return;
    }
    const row = cursorItem?.kind === 'row' ? cursorItem.r : definition.rules.length;
    if (event.key === 'Tab') {
      // Past the row's first or last cell, Tab leaves the grid, as it leaves any control.
      if (event.shiftKey ? here.c === 0 : here.c === lastColumn) return;
      return act(() => moveTo({ item: here.item, c: here.c + (event.shiftKey ? -1 : 1) }));
    }
    if (mod && event.key === 'Enter') return act(() => edit(rowEdits.insert(definition, event.shiftKey ? row : row + 1), 'structure'));
    if (mod && (event.key === 'd' || event.key === 'D')) return act(() => edit(rowEdits.duplicate(definition, rowsOfSelection()), 'structure'));
    if (mod && event.key === 'Delete') return act(() => edit(rowEdits.remove(definition, rowsOfSelection()), 'structure'));
    if (mod) return;
    if (event.key === 'Enter' || event.key === 'F2') return act(() => startEditing());
    if (event.key === 'Delete' || event.key === 'Backspace') return act(clearSelection);
    if (event.key === 'Escape') return act(() => setAnchor(here));
    if (event.key.length === 1 && !event.altKey) return act(() => startEditing(event.key));
  };

  const pointerDown = (point: GridPoint, event: MouseEvent) => {
    if (event.button !== 0) return;
    moveTo(point, event.shiftKey);
    dragging.current = true;
    grid.current?.focus({ preventScroll: true });
    event.preventDefault();
  };
  const pointerOver = (point: GridPoint) => {
    if (dragging.current) setCursor(at(point));
  };

  const inputCount = definition.inputs.length;
  const drawn = items.slice(first, last);
  const spanned = columns.length + 1 + (props.coverage ? 1 : 0);

  const cursorRow = cursorItem?.kind === 'row' ? cursorItem.r : undefined;
  const cursorColumn = columns[here.c]!;
  const cursorPath = cursorRow === undefined ? undefined : cellPath(cursorRow, cursorColumn);
  // The bar says the cursor cell's problem and warnings in full, which the cell, a line high, cannot.
  const cursorNotes = cursorPath
    ? [
        pasteProblems.get(`${cursorRow}:${here.c}`) ?? marks.problems.get(cursorPath),
        ...marks.warnings.filter((warning) => warning.path === cursorPath).map((warning) => `Warning: ${warning.message}`),
      ].filter((note): note is string => !!note)
    : [];

  return (
    <div class="table-grid-frame">
      <div class="cell-bar" id={`${id}-bar`}>
        {cursorRow === undefined ? (
          <span class="hint">{items.length ? 'A group of rows: Enter opens or closes it.' : 'No rows shown.'}</span>
        ) : (
          <>
            <span class="cell-place">
              Row {cursorRow + 1} · {cursorColumn.name} <span class="type-tag">{cursorColumn.type}</span>
            </span>
            <code class="cell-full">{cellText(definition.rules[cursorRow]!, cursorColumn)}</code>
            {cursorNotes.map((note) => (
              <span key={note} class={note.startsWith('Warning:') ? 'warning-text' : 'problem'}>
                {note}
              </span>
            ))}
          </>
        )}
      </div>
      <div
        class="table-grid-scroll scroll"
        ref={scroller}
        onScroll={(event) => setView({ top: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })}
      >
        <table
          class="table-grid"
          ref={grid}
          role="grid"
          tabIndex={0}
          aria-label="Decision table: one row per rule, input columns then output columns"
          aria-rowcount={items.length + 1}
          aria-colcount={spanned}
          aria-multiselectable="true"
          aria-activedescendant={editing ? undefined : items.length ? cellId(here.item, here.c) : undefined}
          aria-describedby={`${id}-bar`}
          onKeyDown={keyDown}
          onCopy={copy}
          onCut={(event) => {
            copy(event);
            if (event.defaultPrevented) clearSelection();
          }}
          onPaste={paste}
          onFocus={() => {
            void loadPaste();
            preloadFeelEditor();
          }}
        >
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col" class="row-head corner">
                {props.corner}
              </th>
              {columns.map((column, c) => (
                <th
                  scope="col"
                  key={`${column.kind}-${column.index}`}
                  class={`column-head ${column.kind}-head${c === inputCount ? ' first-output' : ''}${range.columns.includes(c) ? ' in-selection' : ''}`}
                >
                  {props.columnHead(c)}
                </th>
              ))}
              {props.coverage && (
                <th scope="col" class="coverage-head">
                  Production {props.coverage.version}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {first > 0 && <Spacer height={first * rowHeight.current} span={spanned} />}
            {drawn.map((item, offset) => {
              const index = first + offset;
              if (item.kind === 'group')
                return (
                  <tr key={`g-${item.value}`} class="group-row" aria-rowindex={index + 2}>
                    <td
                      id={`${id}-g${index}`}
                      colSpan={spanned}
                      class={here.item === index ? 'cursor' : undefined}
                      aria-expanded={!item.collapsed}
                      onMouseDown={(event) => pointerDown({ item: index, c: here.c }, event)}
                      onClick={() => props.onToggleGroup(item.value)}
                    >
                      <span aria-hidden="true">{item.collapsed ? '▸' : '▾'} </span>
                      {columns[0]!.name}: <code>{item.value}</code> ({item.rows} row{item.rows === 1 ? '' : 's'})
                    </td>
                  </tr>
                );
              const row = definition.rules[item.r]!;
              const rowMark = rowMarkOf(marks, item.r);
              return (
                <tr key={`r-${item.r}`} class={`grid-row${rowMark.class ? ` ${rowMark.class}` : ''}`} aria-rowindex={index + 2}>
                  <th scope="row" class="row-head" aria-describedby={rowMark.describedBy}>
                    {props.rowHead(item.r)}
                    <span class="visually-hidden">{rowMark.note}</span>
                  </th>
                  {columns.map((column, c) => {
                    const selected = index >= range.top && index <= range.bottom && c >= range.left && c <= range.right;
                    const isCursor = index === here.item && c === here.c;
                    const mark = markOf(marks, cellPath(item.r, column), pasteProblems.get(`${item.r}:${c}`));
                    const text = cellText(row, column);
                    return (
                      <td
                        key={c}
                        id={`${id}-${index}-${c}`}
                        class={[
                          `${column.kind}-cell`,
                          c === inputCount && 'first-output',
                          selected && 'selected',
                          isCursor && 'cursor',
                          mark.class,
                          text === '-' && column.kind === 'when' && 'any',
                        ]
                          .filter(Boolean)
                          .join(' ')}
                        aria-selected={selected}
                        aria-invalid={mark.invalid || undefined}
                        aria-describedby={mark.describedBy}
                        onMouseDown={(event) => pointerDown({ item: index, c }, event)}
                        onMouseEnter={() => pointerOver({ item: index, c })}
                        onDblClick={() => startEditing()}
                      >
                        {isCursor && editing ? (
                          <FeelCellEditor
                            label={`Row ${item.r + 1}, ${column.name}`}
                            text={editing.text}
                            feel={column.kind === 'description' ? undefined : column.kind === 'when' ? 'unaryTests' : 'expression'}
                            names={props.names}
                            problem={mark.invalid ? marks.problems.get(cellPath(item.r, column)) : undefined}
                            onCommit={commit}
                            onCancel={() => {
                              setEditing(undefined);
                              grid.current?.focus({ preventScroll: true });
                            }}
                          />
                        ) : (
                          <span class="cell-text">{text}</span>
                        )}
                        <span class="visually-hidden">{mark.note}</span>
                      </td>
                    );
                  })}
                  {props.coverage && <CoverageCell covered={props.coverage.rows[item.r]} r={item.r} />}
                </tr>
              );
            })}
            {last < items.length && <Spacer height={(items.length - last) * rowHeight.current} span={spanned} />}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The marks a save's check puts on a whole row, or on all of its inputs or outputs: shown on the row's header. */
export function rowMarkOf(marks: Marks, r: number) {
  const path = `definition.rules[${r}]`;
  const marked = [path, `${path}.when`, `${path}.then`].map((each) => markOf(marks, each)).filter((mark) => mark.class);
  return {
    class: marked.some((mark) => mark.invalid) ? 'cell-error' : marked[0]?.class,
    describedBy: marked.map((mark) => mark.describedBy).join(' ') || undefined,
    note: marked.map((mark) => mark.note),
  };
}

/** The rows left out of the drawing, as tall as they would be: the scroll bar stays true. */
function Spacer({ height, span }: { height: number; span: number }) {
  return (
    <tr class="grid-spacer" aria-hidden="true">
      <td colSpan={span} style={{ height: `${height}px` }} />
    </tr>
  );
}
