/**
 * The decision table as a grid: the hit policy, the input and output columns
 * in the header (an output's allowed values and default with it), one row per
 * rule with its id and description in its header cell, its `when` cells (FEEL
 * unary tests) and `then` cells (FEEL or literals). Rows and columns are added, moved and
 * deleted with real buttons named for what they act on, so the grid can be
 * edited from the keyboard alone; problems and warnings are shown on the cell
 * (or row) their path names.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { aggregations, hitPolicies, valueTypes, type Aggregation, type HitPolicy, type ValueType } from '../../../engine/definitions.ts';
import { CoverageCell, CoverageSummary, type TableCoverage } from './coverage.tsx';
import { MarkedInput, markOf, TextField, type Marks, type Touched } from './marks.tsx';
import { entryOf, entryText, type TableDefinition } from './model.ts';
import { AllowedValues, DefaultField } from './output-values.tsx';
import { freshName, moved, replaced, without } from './reorder.ts';

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
type Row = TableDefinition['rules'][number];

const inputName = (input: Input) => input.label || input.id;

export function DecisionTableEditor({ definition, marks, onEdit, coverage }: Props) {
  const grid = useRef<HTMLTableElement>(null);
  // After a move, focus follows the moved row or column: the button of the same action at its new place.
  const focusNext = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    const button = grid.current?.querySelector<HTMLButtonElement>(`button[aria-label="${focusNext.current}"]`);
    focusNext.current = undefined;
    button?.focus();
  });

  const { inputs, outputs, rules } = definition;
  const edit = (change: Partial<TableDefinition>, touched: Touched) => onEdit({ ...definition, ...change }, touched);
  const editRow = (r: number, row: Row, touched: Touched) => edit({ rules: replaced(rules, r, row) }, touched);

  /** Focus after a move: the same button at the moved item's new place, or its opposite when that one is disabled at an end. */
  const focusAfterMove = (what: string, to: number, count: number, toward: 'up' | 'down' | 'left' | 'right') => {
    const backward = toward === 'up' || toward === 'left';
    const opposite = { up: 'down', down: 'up', left: 'right', right: 'left' }[toward];
    const atEnd = backward ? to === 0 : to === count - 1;
    focusNext.current = `Move ${what} ${atEnd ? opposite : toward}`;
  };

  const moveRow = (r: number, to: number) => {
    edit({ rules: moved(rules, r, to) }, 'structure');
    focusAfterMove(`row ${to + 1}`, to, rules.length, to < r ? 'up' : 'down');
  };
  const moveInput = (c: number, to: number) => {
    edit({ inputs: moved(inputs, c, to), rules: rules.map((row) => ({ ...row, when: moved(row.when, c, to) })) }, 'structure');
    focusAfterMove(`column ${inputName(inputs[c]!)}`, to, inputs.length, to < c ? 'left' : 'right');
  };
  const moveOutput = (o: number, to: number) => {
    edit({ outputs: moved(outputs, o, to), rules: rules.map((row) => ({ ...row, then: moved(row.then, o, to) })) }, 'structure');
    focusAfterMove(`column ${outputs[o]!.name}`, to, outputs.length, to < o ? 'left' : 'right');
  };

  const addInput = () => {
    const id = freshName(
      'input',
      inputs.map((input) => input.id),
    );
    edit({ inputs: [...inputs, { id, expression: id, type: 'string' }], rules: rules.map((row) => ({ ...row, when: [...row.when, '-'] })) }, 'structure');
  };
  const addOutput = () => {
    const id = freshName(
      'output',
      outputs.map((output) => output.id),
    );
    edit({ outputs: [...outputs, { id, name: id, type: 'string' }], rules: rules.map((row) => ({ ...row, then: [...row.then, null] })) }, 'structure');
  };
  const addRow = () => edit({ rules: [...rules, { when: inputs.map(() => '-'), then: outputs.map(() => null) }] }, 'structure');

  const hitPolicy = definition.hitPolicy ?? defaultHitPolicy;
  const hitPolicyMark = markOf(marks, 'definition.hitPolicy');
  const aggregationMark = markOf(marks, 'definition.aggregation');

  return (
    <div class="table-editor">
      <div class="actions">
        <div class="field">
          <label>
            Hit policy
            <select
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
          </label>
          {hitPolicyMark.note}
        </div>
        {hitPolicy === 'collect' && (
          <div class="field">
            <label>
              Aggregation
              <select
                class={aggregationMark.class}
                aria-describedby={aggregationMark.describedBy}
                value={definition.aggregation ?? ''}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  const { aggregation: _dropped, ...rest } = definition;
                  onEdit(value ? { ...rest, aggregation: value as Aggregation } : rest, 'definition.aggregation');
                }}
              >
                <option value="">none (a list of every match)</option>
                {aggregations.map((aggregation) => (
                  <option key={aggregation} value={aggregation}>
                    {aggregation}
                  </option>
                ))}
              </select>
            </label>
            {aggregationMark.note}
          </div>
        )}
        <button type="button" class="secondary" onClick={addInput}>
          Add input column
        </button>
        <button type="button" class="secondary" onClick={addOutput}>
          Add output column
        </button>
      </div>
      {coverage && <CoverageSummary coverage={coverage} />}
      <div class="scroll">
        <table class="grid" ref={grid}>
          <caption class="visually-hidden">Decision table: one row per rule, input columns then output columns</caption>
          <thead>
            <tr>
              <th scope="col" class="row-head">
                Row
              </th>
              {inputs.map((input, c) => (
                <th scope="col" key={`input-${c}`} class="column-head input-head">
                  <InputColumnHead
                    input={input}
                    at={c}
                    count={inputs.length}
                    marks={marks}
                    onChange={(next, touched) => edit({ inputs: replaced(inputs, c, next) }, touched)}
                    onMove={(to) => moveInput(c, to)}
                    onDelete={() => edit({ inputs: without(inputs, c), rules: rules.map((row) => ({ ...row, when: without(row.when, c) })) }, 'structure')}
                  />
                </th>
              ))}
              {outputs.map((output, o) => (
                <th scope="col" key={`output-${o}`} class="column-head output-head">
                  <OutputColumnHead
                    output={output}
                    at={o}
                    count={outputs.length}
                    marks={marks}
                    onChange={(next, touched) => edit({ outputs: replaced(outputs, o, next) }, touched)}
                    onMove={(to) => moveOutput(o, to)}
                    onDelete={() => edit({ outputs: without(outputs, o), rules: rules.map((row) => ({ ...row, then: without(row.then, o) })) }, 'structure')}
                  />
                </th>
              ))}
              {coverage && (
                <th scope="col" class="coverage-head">
                  Production {coverage.version}
                </th>
              )}
              <th scope="col">Row actions</th>
            </tr>
          </thead>
          <tbody>
            {rules.map((row, r) => {
              const rowPath = `definition.rules[${r}]`;
              const rowMark = markOf(marks, rowPath);
              const whenMark = markOf(marks, `${rowPath}.when`);
              const thenMark = markOf(marks, `${rowPath}.then`);
              return (
                <tr key={r} class={rowMark.class}>
                  <th
                    scope="row"
                    class="row-head"
                    aria-describedby={[rowMark.describedBy, whenMark.describedBy, thenMark.describedBy].filter(Boolean).join(' ') || undefined}
                  >
                    <div class="row-fields">
                      <span class="row-number">{r + 1}</span>
                      <RowText row={row} r={r} field="id" marks={marks} onRow={(next, path) => editRow(r, next, path)} />
                      <RowText row={row} r={r} field="description" marks={marks} onRow={(next, path) => editRow(r, next, path)} />
                    </div>
                    {rowMark.note}
                    {whenMark.note}
                    {thenMark.note}
                  </th>
                  {inputs.map((input, c) => (
                    <GridCell
                      key={`when-${c}`}
                      label={`Row ${r + 1}, ${inputName(input)}`}
                      path={`${rowPath}.when[${c}]`}
                      marks={marks}
                      value={row.when[c] ?? ''}
                      onValue={(text, path) => editRow(r, { ...row, when: replaced(row.when, c, text) }, path)}
                    />
                  ))}
                  {outputs.map((output, o) => (
                    <GridCell
                      key={`then-${o}`}
                      label={`Row ${r + 1}, ${output.name}`}
                      path={`${rowPath}.then[${o}]`}
                      marks={marks}
                      value={entryText(row.then[o])}
                      onValue={(text, path) => editRow(r, { ...row, then: replaced(row.then, o, entryOf(text, row.then[o])) }, path)}
                      output
                    />
                  ))}
                  {coverage && <CoverageCell covered={coverage.rows[r]} r={r} />}
                  <td class="row-actions">
                    <button type="button" class="icon secondary" aria-label={`Move row ${r + 1} up`} disabled={r === 0} onClick={() => moveRow(r, r - 1)}>
                      ↑
                    </button>
                    <button
                      type="button"
                      class="icon secondary"
                      aria-label={`Move row ${r + 1} down`}
                      disabled={r === rules.length - 1}
                      onClick={() => moveRow(r, r + 1)}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      class="icon secondary"
                      aria-label={`Delete row ${r + 1}`}
                      onClick={() => edit({ rules: without(rules, r) }, 'structure')}
                    >
                      ✕
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {rules.length === 0 && <p>No rows: nothing matches until you add one.</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={addRow}>
          Add row
        </button>
        <span class="hint">A “-” cell matches any value. Output text is FEEL: write a string as "gold", with its quotes.</span>
      </div>
    </div>
  );
}

function GridCell(props: { label: string; path: string; marks: Marks; value: string; output?: boolean; onValue(text: string, path: string): void }) {
  const mark = markOf(props.marks, props.path);
  return (
    <td class={[props.output ? 'then-cell' : 'when-cell', mark.class ?? ''].join(' ').trim()}>
      <MarkedInput label={props.label} path={props.path} marks={props.marks} value={props.value} onValue={(text) => props.onValue(text, props.path)} code />
    </td>
  );
}

/** A row's optional id or description, compact in its header cell: empty leaves the key out. */
function RowText({ row, r, field, marks, onRow }: { row: Row; r: number; field: 'id' | 'description'; marks: Marks; onRow(next: Row, path: string): void }) {
  const path = `definition.rules[${r}].${field}`;
  return (
    <MarkedInput
      label={`Row ${r + 1} ${field}`}
      path={path}
      marks={marks}
      value={row[field] ?? ''}
      placeholder={field}
      code={field === 'id'}
      onValue={(text) => {
        const { [field]: _dropped, ...rest } = row;
        onRow(text ? { ...rest, [field]: text } : rest, path);
      }}
    />
  );
}

interface ColumnHeadProps<T> {
  at: number;
  count: number;
  marks: Marks;
  onChange(next: T, touched: Touched): void;
  onMove(to: number): void;
  onDelete(): void;
}

function InputColumnHead({ input, at, count, marks, onChange, onMove, onDelete }: ColumnHeadProps<Input> & { input: Input }) {
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
        code
        required
      />
      <TypeSelect context={context} path={`${path}.type`} marks={marks} value={input.type} onValue={(type) => onChange({ ...input, type }, `${path}.type`)} />
      <ColumnActions name={name} at={at} count={count} onMove={onMove} onDelete={onDelete} />
    </div>
  );
}

function OutputColumnHead({ output, at, count, marks, onChange, onMove, onDelete }: ColumnHeadProps<Output> & { output: Output }) {
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
