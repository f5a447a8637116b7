/**
 * A simple rule as a form: its condition, the outputs it gives when the
 * condition holds, and (optionally) those it gives otherwise. Outputs are
 * name and value pairs; a value is FEEL or a literal, as a table's cell is.
 */
import type { OutputEntry } from '../../../engine/definitions.ts';
import type { FeelName } from '../feel/feel-field.tsx';
import { parameterNames } from '../feel/names.ts';
import { noMarks, TextField, type Marks, type Touched } from './marks.tsx';
import { entryOf, entryText, type SimpleDefinition } from './model.ts';
import { freshName, replaced, without } from './reorder.ts';

interface Props {
  definition: SimpleDefinition;
  marks: Marks;
  onEdit(next: SimpleDefinition, touched: Touched): void;
}

export function SimpleRuleEditor({ definition, marks, onEdit }: Props) {
  const { otherwise, ...withoutOtherwise } = definition;
  const names = parameterNames(definition.parameters);
  return (
    <div class="simple-editor">
      <TextField
        label="When (a FEEL condition)"
        path="definition.when"
        marks={marks}
        value={definition.when}
        onValue={(when) => onEdit({ ...definition, when }, 'definition.when')}
        feel="expression"
        names={names}
        multiline
        required
      />
      <OutputsEditor
        title="Then"
        path="definition.then"
        outputs={definition.then}
        names={names}
        marks={marks}
        onEdit={(then, touched) => onEdit({ ...definition, then }, touched)}
      />
      <label class="inline">
        <input
          type="checkbox"
          checked={otherwise !== undefined}
          onChange={(event) => onEdit(event.currentTarget.checked ? { ...definition, otherwise: { ...definition.then } } : withoutOtherwise, 'structure')}
        />
        Give outputs when the condition does not hold
      </label>
      {otherwise !== undefined && (
        <OutputsEditor
          title="Otherwise"
          path="definition.otherwise"
          outputs={otherwise}
          names={names}
          marks={marks}
          onEdit={(next, touched) => onEdit({ ...definition, otherwise: next }, touched)}
        />
      )}
    </div>
  );
}

/** A record of outputs edited as an ordered list of name and value pairs. */
function OutputsEditor(props: {
  title: string;
  path: string;
  outputs: Record<string, OutputEntry>;
  /** What the values may read. */
  names: readonly FeelName[];
  marks: Marks;
  onEdit(next: Record<string, OutputEntry>, touched: Touched): void;
}) {
  const pairs = Object.entries(props.outputs);
  const commit = (next: [string, OutputEntry][], touched: Touched) => props.onEdit(Object.fromEntries(next), touched);
  return (
    <fieldset class="outputs">
      <legend>{props.title}</legend>
      {pairs.length === 0 && <p class="muted">No outputs.</p>}
      {/* A problem's path names the pair by its name; it is shown on the value, where FEEL goes wrong. */}
      {pairs.map(([name, value], at) => (
        <div class="pair" key={at}>
          <TextField
            label="Output name"
            context={`${at + 1} of ${props.title}`}
            path={`${props.path}.${name}`}
            marks={noMarks}
            value={name}
            onValue={(next) => commit(replaced(pairs, at, [next, value]), 'structure')}
            required
          />
          <TextField
            label="Value"
            context={`of ${props.title} output ${name}`}
            path={`${props.path}.${name}`}
            marks={props.marks}
            value={entryText(value)}
            onValue={(text) => commit(replaced(pairs, at, [name, entryOf(text, value)]), `${props.path}.${name}`)}
            feel="expression"
            names={props.names}
          />
          <button
            type="button"
            class="icon secondary"
            aria-label={`Delete ${props.title} output ${name}`}
            onClick={() => commit(without(pairs, at), 'structure')}
          >
            ✕
          </button>
        </div>
      ))}
      <button
        type="button"
        class="secondary"
        onClick={() =>
          commit(
            [
              ...pairs,
              [
                freshName(
                  'output',
                  pairs.map(([name]) => name),
                ),
                null,
              ],
            ],
            'structure',
          )
        }
      >
        Add {props.title.toLowerCase()} output
      </button>
    </fieldset>
  );
}
