/**
 * The decision table editor: a spreadsheet grid (./table-grid.tsx) with one
 * compact header per column, its type as a tag, and the hit policy in the
 * corner, as DMN draws a table. A column's details (id, label, expression,
 * type; an output's allowed values and default) and a row's (id, moves,
 * inserts) open in a panel from its header, so the grid shows rows, not
 * forms. Above the grid, rows are searched, filtered by a column and grouped
 * by the first column's value; these change what is shown, never the table.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { aggregations, hitPolicies, valueTypes, type Aggregation, type HitPolicy, type ValueType } from '../../../engine/definitions.ts';
import type { FeelName } from '../feel/feel-field.tsx';
import { parameterNames } from '../feel/names.ts';
import { CoverageSummary, type TableCoverage } from './coverage.tsx';
import { gridColumns, gridItems, rowEdits, type RowFilter } from './grid-model.ts';
import { markOf, TextField, type Marks, type Touched } from './marks.tsx';
import type { TableDefinition } from './model.ts';
import { AllowedValues, DefaultField } from './output-values.tsx';
import { freshName, moved, replaced, without } from './reorder.ts';
import { rowMarkOf, TableGrid } from './table-grid.tsx';
import './table-grid.css';

interface Props {
  definition: TableDefinition;
  marks: Marks;
  onEdit(next: TableDefinition, touched: Touched): void;
  /** The published version's production coverage, shown in a column of its own. */
  coverage?: TableCoverage | undefined;
}

/** The default hit policy, when a table names none (as the API applies it). */
const defaultHitPolicy: HitPolicy = 'first';

type Input = TableDefinition['inputs'][number];
type Output = TableDefinition['outputs'][number];

const inputName = (input: Input) => input.label || input.id;

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

export function DecisionTableEditor({ definition, marks, onEdit, coverage }: Props) {
  const root = useRef<HTMLDivElement>(null);
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

  const edit = (change: Partial<TableDefinition>, touched: Touched) => onEdit({ ...definition, ...change }, touched);

  /** Focus after a move: the same button at the moved item's new place, or its opposite when that one is disabled at an end. */
  const focusAfterMove = (what: string, to: number, count: number, toward: 'up' | 'down' | 'left' | 'right') => {
    const backward = toward === 'up' || toward === 'left';
    const opposite = { up: 'down', down: 'up', left: 'right', right: 'left' }[toward];
    const atEnd = backward ? to === 0 : to === count - 1;
    focusNext.current = `Move ${what} ${atEnd ? opposite : toward}`;
  };

  const moveRow = (r: number, to: number) => {
    edit({ rules: moved(rules, r, to) }, 'structure');
    setOpenRow(to);
    focusAfterMove(`row ${to + 1}`, to, rules.length, to < r ? 'up' : 'down');
  };
  const moveInput = (c: number, to: number) => {
    edit({ inputs: moved(inputs, c, to), rules: rules.map((row) => ({ ...row, when: moved(row.when, c, to) })) }, 'structure');
    setOpenColumn(to);
    focusAfterMove(`column ${inputName(inputs[c]!)}`, to, inputs.length, to < c ? 'left' : 'right');
  };
  const moveOutput = (o: number, to: number) => {
    edit({ outputs: moved(outputs, o, to), rules: rules.map((row) => ({ ...row, then: moved(row.then, o, to) })) }, 'structure');
    setOpenColumn(inputs.length + to);
    focusAfterMove(`column ${outputs[o]!.name}`, to, outputs.length, to < o ? 'left' : 'right');
  };

  const addInput = () => {
    const id = freshName(
      'input',
      inputs.map((input) => input.id),
    );
    edit({ inputs: [...inputs, { id, expression: id, type: 'string' }], rules: rules.map((row) => ({ ...row, when: [...row.when, '-'] })) }, 'structure');
    setOpenColumn(inputs.length);
  };
  const addOutput = () => {
    const id = freshName(
      'output',
      outputs.map((output) => output.id),
    );
    edit({ outputs: [...outputs, { id, name: id, type: 'string' }], rules: rules.map((row) => ({ ...row, then: [...row.then, null] })) }, 'structure');
    setOpenColumn(inputs.length + outputs.length);
  };
  const addRow = () => edit(rowEdits.insert(definition, rules.length), 'structure');

  const hitPolicy = definition.hitPolicy ?? defaultHitPolicy;
  const hitPolicyMark = markOf(marks, 'definition.hitPolicy');
  const aggregationMark = markOf(marks, 'definition.aggregation');
  const panelId = 'table-details';

  const corner = (
    <div class="hit-policy">
      <select
        aria-label="Hit policy"
        class={hitPolicyMark.class}
        aria-describedby={hitPolicyMark.describedBy}
        value={hitPolicy}
        onChange={(event) => {
          const next = event.currentTarget.value as HitPolicy;
          const { aggregation: _dropped, ...rest } = definition;
          onEdit(next === 'collect' ? { ...definition, hitPolicy: next } : { ...rest, hitPolicy: next }, 'definition.hitPolicy');
        }}
      >
        {hitPolicies.map((policy) => (
          <option key={policy} value={policy}>
            {policy}
          </option>
        ))}
      </select>
      {hitPolicyMark.note}
      {hitPolicy === 'collect' && (
        <>
          <select
            aria-label="Aggregation"
            class={aggregationMark.class}
            aria-describedby={aggregationMark.describedBy}
            value={definition.aggregation ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              const { aggregation: _dropped, ...rest } = definition;
              onEdit(value ? { ...rest, aggregation: value as Aggregation } : rest, 'definition.aggregation');
            }}
          >
            <option value="">list</option>
            {aggregations.map((aggregation) => (
              <option key={aggregation} value={aggregation}>
                {aggregation}
              </option>
            ))}
          </select>
          {aggregationMark.note}
        </>
      )}
    </div>
  );

  const columnHead = (c: number) => {
    const column = columns[c]!;
    if (column.kind === 'description') return <span class="column-name">Description</span>;
    const path = `definition.${column.kind === 'when' ? 'inputs' : 'outputs'}[${column.index}]`;
    const marked = [...marks.problems.keys()].some((key) => key.startsWith(path)) || marks.warnings.some((warning) => warning.path.startsWith(path));
    const kind = column.kind === 'when' ? 'Input' : 'Output';
    return (
      <button
        type="button"
        class={`column-button${marked ? ' cell-error' : ''}`}
        aria-label={`${kind} column ${column.name}, ${column.type}: details`}
        aria-expanded={openColumn === c}
        aria-controls={openColumn === c ? panelId : undefined}
        onClick={() => {
          setOpenRow(undefined);
          setOpenColumn(openColumn === c ? undefined : c);
        }}
      >
        <span class="column-name">{column.name}</span> <span class="type-tag">{column.type}</span>
      </button>
    );
  };

  const rowHead = (r: number) => (
    <button
      type="button"
      class="row-button"
      aria-expanded={openRow === r}
      aria-controls={openRow === r ? panelId : undefined}
      onClick={() => {
        setOpenColumn(undefined);
        setOpenRow(openRow === r ? undefined : r);
      }}
    >
      <span class="visually-hidden">Row </span>
      {r + 1}
      {rules[r]?.id && <span class="row-id"> {rules[r]!.id}</span>}
      <span class="visually-hidden"> details</span>
    </button>
  );

  const open = openColumn !== undefined ? columns[openColumn] : undefined;
  const closePanel = () => {
    setOpenColumn(undefined);
    setOpenRow(undefined);
  };

  return (
    <div class="table-editor" ref={root}>
      <div class="actions grid-tools">
        <button type="button" class="secondary" onClick={addInput}>
          Add input column
        </button>
        <button type="button" class="secondary" onClick={addOutput}>
          Add output column
        </button>
        <div class="field grid-filter">
          <label>
            Filter rows
            <input
              type="search"
              value={filter.text}
              placeholder="text in a cell"
              onInput={(event) => setFilter({ ...filter, text: event.currentTarget.value })}
            />
          </label>
        </div>
        <div class="field">
          <label>
            <span aria-hidden="true">in</span>
            <select
              aria-label="Filter in column"
              value={filter.column ?? ''}
              onChange={(event) => setFilter({ ...filter, column: event.currentTarget.value === '' ? undefined : Number(event.currentTarget.value) })}
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
          <input type="checkbox" checked={grouped} onChange={(event) => setGrouped(event.currentTarget.checked)} /> Group by{' '}
          {columns[0]?.name ?? 'the first column'}
        </label>
        <span class="hint" role="status">
          {filter.text.trim() ? `${shownRows} of ${rules.length} rows` : `${rules.length} row${rules.length === 1 ? '' : 's'}`}
        </span>
      </div>
      {coverage && <CoverageSummary coverage={coverage} />}
      {open && open.kind !== 'description' && (
        <section id={panelId} class="card column-panel" aria-label={`${open.kind === 'when' ? 'Input' : 'Output'} column ${open.name}`}>
          {open.kind === 'when' ? (
            <InputColumnFields
              names={cellNames}
              input={inputs[open.index]!}
              at={open.index}
              count={inputs.length}
              marks={marks}
              onChange={(next, touched) => edit({ inputs: replaced(inputs, open.index, next) }, touched)}
              onMove={(to) => moveInput(open.index, to)}
              onDelete={() => {
                closePanel();
                edit({ inputs: without(inputs, open.index), rules: rules.map((row) => ({ ...row, when: without(row.when, open.index) })) }, 'structure');
              }}
            />
          ) : (
            <OutputColumnFields
              output={outputs[open.index]!}
              at={open.index}
              count={outputs.length}
              marks={marks}
              onChange={(next, touched) => edit({ outputs: replaced(outputs, open.index, next) }, touched)}
              onMove={(to) => moveOutput(open.index, to)}
              onDelete={() => {
                closePanel();
                edit({ outputs: without(outputs, open.index), rules: rules.map((row) => ({ ...row, then: without(row.then, open.index) })) }, 'structure');
              }}
            />
          )}
          <button type="button" class="secondary" onClick={closePanel}>
            Close column details
          </button>
        </section>
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
        corner={corner}
        columnHead={columnHead}
        rowHead={rowHead}
        coverage={coverage}
        names={cellNames}
        onNotice={setNotice}
      />
      <p class="grid-notice" role="status">
        {notice}
      </p>
      {rules.length === 0 && <p>No rows: nothing matches until you add one.</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={addRow}>
          Add row
        </button>
        <span class="hint">A “-” cell matches any value. Output text is FEEL: write a string as "gold", with its quotes; a pasted word becomes one.</span>
      </div>
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
    </div>
  );
}

/** A row's details: its id, and the moves and inserts the row menu offers (the shortcuts do the same from the grid). */
function RowPanel(props: {
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

interface ColumnFieldsProps<T> {
  at: number;
  count: number;
  marks: Marks;
  onChange(next: T, touched: Touched): void;
  onMove(to: number): void;
  onDelete(): void;
}

function InputColumnFields({
  input,
  at,
  count,
  marks,
  names,
  onChange,
  onMove,
  onDelete,
}: ColumnFieldsProps<Input> & { input: Input; names: readonly FeelName[] }) {
  const path = `definition.inputs[${at}]`;
  const name = inputName(input);
  const context = `of input ${at + 1}`;
  return (
    <div class="column-fields">
      <span class="column-kind">Input {at + 1}</span>
      <TextField
        label="Id"
        context={context}
        path={`${path}.id`}
        marks={marks}
        value={input.id}
        onValue={(id) => onChange({ ...input, id }, `${path}.id`)}
        required
      />
      <TextField
        label="Label"
        context={context}
        path={`${path}.label`}
        marks={marks}
        value={input.label ?? ''}
        onValue={(label) => {
          const { label: _dropped, ...rest } = input;
          onChange(label ? { ...rest, label } : rest, `${path}.label`);
        }}
      />
      <TextField
        label="Expression"
        context={context}
        path={`${path}.expression`}
        marks={marks}
        value={input.expression}
        onValue={(expression) => onChange({ ...input, expression }, `${path}.expression`)}
        feel="expression"
        names={names}
        required
      />
      <TypeSelect context={context} path={`${path}.type`} marks={marks} value={input.type} onValue={(type) => onChange({ ...input, type }, `${path}.type`)} />
      <ColumnActions name={name} at={at} count={count} onMove={onMove} onDelete={onDelete} />
    </div>
  );
}

function OutputColumnFields({ output, at, count, marks, onChange, onMove, onDelete }: ColumnFieldsProps<Output> & { output: Output }) {
  const path = `definition.outputs[${at}]`;
  const context = `of output ${at + 1}`;
  return (
    <div class="column-fields">
      <span class="column-kind">Output {at + 1}</span>
      <TextField
        label="Name"
        context={context}
        path={`${path}.name`}
        marks={marks}
        value={output.name}
        onValue={(name) => onChange({ ...output, name }, `${path}.name`)}
        required
      />
      <TextField
        label="Id"
        context={context}
        path={`${path}.id`}
        marks={marks}
        value={output.id}
        onValue={(id) => onChange({ ...output, id }, `${path}.id`)}
        required
      />
      <TypeSelect context={context} path={`${path}.type`} marks={marks} value={output.type} onValue={(type) => onChange({ ...output, type }, `${path}.type`)} />
      <DefaultField
        value={output.default}
        path={path}
        context={context}
        marks={marks}
        onValue={(value) => {
          const { default: _dropped, ...rest } = output;
          onChange(value === undefined ? rest : { ...rest, default: value }, `${path}.default`);
        }}
      />
      <AllowedValues
        values={output.allowedValues}
        path={path}
        context={context}
        marks={marks}
        onValues={(values, touched) => {
          const { allowedValues: _dropped, ...rest } = output;
          onChange(values ? { ...rest, allowedValues: values } : rest, touched);
        }}
      />
      <ColumnActions name={output.name} at={at} count={count} onMove={onMove} onDelete={onDelete} />
    </div>
  );
}

function TypeSelect({
  context,
  path,
  marks,
  value,
  onValue,
}: {
  context: string;
  path: string;
  marks: Marks;
  value: ValueType;
  onValue(type: ValueType): void;
}) {
  const mark = markOf(marks, path);
  return (
    <div class="field">
      <label>
        <span>
          Type<span class="visually-hidden"> {context}</span>
        </span>
        <select class={mark.class} aria-describedby={mark.describedBy} value={value} onChange={(event) => onValue(event.currentTarget.value as ValueType)}>
          {valueTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </label>
      {mark.note}
    </div>
  );
}

function ColumnActions({ name, at, count, onMove, onDelete }: { name: string; at: number; count: number; onMove(to: number): void; onDelete(): void }) {
  return (
    <div class="column-actions">
      <button type="button" class="icon secondary" aria-label={`Move column ${name} left`} disabled={at === 0} onClick={() => onMove(at - 1)}>
        ←
      </button>
      <button type="button" class="icon secondary" aria-label={`Move column ${name} right`} disabled={at === count - 1} onClick={() => onMove(at + 1)}>
        →
      </button>
      <button
        type="button"
        class="icon secondary"
        aria-label={`Delete column ${name}`}
        disabled={count === 1}
        title={count === 1 ? 'A table needs at least one column of this kind' : undefined}
        onClick={onDelete}
      >
        ✕
      </button>
    </div>
  );
}
