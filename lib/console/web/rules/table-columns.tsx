/**
 * The decision table's columns as the editor shows them on the grid: each
 * column's compact header, its name and its type as a tag (marked when the
 * column has a problem), which opens the column's details; and those
 * details: an input's id, label, expression and type, an output's name, id,
 * type, default and allowed values, and the column's moves and deletion.
 */
import type { ComponentChildren } from 'preact';
import { valueTypes, type ValueType } from '../../../engine/definitions.ts';
import type { FeelName } from '../feel/feel-field.tsx';
import { columnEdits } from './column-edits.ts';
import type { GridColumn } from './grid-model.ts';
import { markOf, TextField, type Marks, type Touched } from './marks.tsx';
import type { TableDefinition } from './model.ts';
import { AllowedValues, DefaultField } from './output-values.tsx';
import { replaced } from './reorder.ts';

type Input = TableDefinition['inputs'][number];
type Output = TableDefinition['outputs'][number];

/** An input or output column of the grid: one with details. */
export type DetailedColumn = GridColumn & { kind: 'when' | 'then' };

export const hasDetails = (column: GridColumn | undefined): column is DetailedColumn => column !== undefined && column.kind !== 'description';

/** The name a column's move and delete buttons carry: an input's label or id, an output's name. */
export const columnActionName = (definition: TableDefinition, column: DetailedColumn): string => {
  if (column.kind === 'then') return definition.outputs[column.index]!.name;
  const input = definition.inputs[column.index]!;
  return input.label || input.id;
};

/** A column's header: its name and type, marked when the column has a problem; for an input or output, the button that opens its details in `panelId`. */
export function ColumnHead(props: { column: GridColumn; marks: Marks; open: boolean; panelId: string; onToggle(): void }) {
  const { column, marks } = props;
  if (column.kind === 'description') return <span class="column-name">Description</span>;
  const path = `definition.${column.kind === 'when' ? 'inputs' : 'outputs'}[${column.index}]`;
  const marked = [...marks.problems.keys()].some((key) => key.startsWith(path)) || marks.warnings.some((warning) => warning.path.startsWith(path));
  const kind = column.kind === 'when' ? 'Input' : 'Output';
  return (
    <button
      type="button"
      class={`column-button${marked ? ' cell-error' : ''}`}
      aria-label={`${kind} column ${column.name}, ${column.type}: details`}
      aria-expanded={props.open}
      aria-controls={props.open ? props.panelId : undefined}
      onClick={props.onToggle}
    >
      <span class="column-name">{column.name}</span> <span class="type-tag">{column.type}</span>
    </button>
  );
}

/** A column's details, in the panel `id`; a move is the editor's (the focus follows the column), a deletion closes the panel first. */
export function ColumnPanel(props: {
  id: string;
  column: DetailedColumn;
  definition: TableDefinition;
  marks: Marks;
  /** The names FEEL completes in an input's expression. */
  names: readonly FeelName[];
  onEdit(next: TableDefinition, touched: Touched): void;
  onMove(to: number): void;
  onClose(): void;
}) {
  const { column, definition, marks } = props;
  const { inputs, outputs } = definition;
  const at = column.index;
  const remove = () => {
    props.onClose();
    props.onEdit(columnEdits.remove(definition, column.kind, at), 'structure');
  };
  const actions = (count: number) => (
    <ColumnActions name={columnActionName(definition, column)} at={at} count={count} onMove={props.onMove} onDelete={remove} />
  );
  return (
    <section id={props.id} class="card column-panel" aria-label={`${column.kind === 'when' ? 'Input' : 'Output'} column ${column.name}`}>
      {column.kind === 'when' ? (
        <InputColumnFields
          names={props.names}
          input={inputs[at]!}
          at={at}
          marks={marks}
          onChange={(next, touched) => props.onEdit({ ...definition, inputs: replaced(inputs, at, next) }, touched)}
          actions={actions(inputs.length)}
        />
      ) : (
        <OutputColumnFields
          output={outputs[at]!}
          at={at}
          marks={marks}
          onChange={(next, touched) => props.onEdit({ ...definition, outputs: replaced(outputs, at, next) }, touched)}
          actions={actions(outputs.length)}
        />
      )}
      <button type="button" class="secondary" onClick={props.onClose}>
        Close column details
      </button>
    </section>
  );
}

interface ColumnFieldsProps<T> {
  at: number;
  marks: Marks;
  onChange(next: T, touched: Touched): void;
  /** The column's moves and deletion, last among its fields. */
  actions: ComponentChildren;
}

function InputColumnFields({ input, at, marks, names, onChange, actions }: ColumnFieldsProps<Input> & { input: Input; names: readonly FeelName[] }) {
  const path = `definition.inputs[${at}]`;
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
      {actions}
    </div>
  );
}

function OutputColumnFields({ output, at, marks, onChange, actions }: ColumnFieldsProps<Output> & { output: Output }) {
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
      {actions}
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
