/**
 * The inputs a rule or a workflow declares: each a name and one of the
 * engine's value types, in order, moved, added and deleted from the keyboard
 * as from the mouse. Problems come by path (`definition.inputs[1].name`) and
 * are shown at their field. A workflow's inputs and a rule's parameters are
 * the same list.
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { valueTypes, type DeclaredInput, type ValueType } from '../../../engine/definitions.ts';
import { moved, replaced, without } from '../rules/reorder.ts';
import { Field } from './field.tsx';

export function DeclaredInputs(props: {
  inputs: readonly DeclaredInput[];
  /** Where the list is in the record: `definition.inputs`. */
  path: string;
  problems: ReadonlyMap<string, string>;
  max: number;
  /** What the list is for, said under its legend. */
  hint: string;
  /** Said when the list is empty. */
  none: string;
  /** The list changed: `touched` names the one field typed in, else its shape changed. */
  onChange(inputs: DeclaredInput[], touched: string | 'structure'): void;
}) {
  const { inputs, path, problems } = props;
  const list = useRef<HTMLFieldSetElement>(null);
  // After a move, an add or a delete the row under the focus changes: this names (by data-focus) where the focus goes next.
  const [focus, setFocus] = useState<string>();
  useLayoutEffect(() => {
    if (!focus) return;
    list.current?.querySelector<HTMLElement>(`[data-focus="${focus}"]`)?.focus();
    setFocus(undefined);
  }, [focus]);

  const setInput = (j: number, input: DeclaredInput, field: 'name' | 'type') => props.onChange(replaced(inputs, j, input), `${path}[${j}].${field}`);
  const move = (from: number, to: number) => {
    props.onChange(moved(inputs, from, to), 'structure');
    // The same arrow on the moved row, or the other one when it reached an end of the list.
    const up = to < from;
    setFocus((up && to === 0) || (!up && to === inputs.length - 1) ? `${up ? 'down' : 'up'}-${to}` : `${up ? 'up' : 'down'}-${to}`);
  };
  const listProblem = problems.get(path);

  return (
    <fieldset class="inputs" ref={list}>
      <legend>Inputs</legend>
      <p class="hint">{props.hint}</p>
      {inputs.length === 0 && <p>{props.none}</p>}
      <ol class="inputs">
        {inputs.map((input, j) => {
          const at = `${path}[${j}]`;
          const name = input.name.trim() || `${j + 1}`;
          const of = <span class="visually-hidden"> of input {j + 1}</span>;
          return (
            <li key={j} class="input">
              <Field label={<>Name{of}</>} controlClass="code" problem={problems.get(`${at}.name`) ?? problems.get(at)}>
                {(control) => (
                  <input
                    value={input.name}
                    spellcheck={false}
                    data-focus={`name-${j}`}
                    onInput={(e) => setInput(j, { ...input, name: e.currentTarget.value }, 'name')}
                    {...control}
                  />
                )}
              </Field>
              <Field label={<>Type{of}</>} problem={problems.get(`${at}.type`)}>
                {(control) => (
                  <select value={input.type} onChange={(e) => setInput(j, { ...input, type: e.currentTarget.value as ValueType }, 'type')} {...control}>
                    {valueTypes.map((type) => (
                      <option key={type} value={type}>
                        {type}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <div class="actions">
                <button
                  type="button"
                  class="quiet icon"
                  data-focus={`up-${j}`}
                  aria-label={`Move input ${name} up`}
                  disabled={j === 0}
                  onClick={() => move(j, j - 1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="quiet icon"
                  data-focus={`down-${j}`}
                  aria-label={`Move input ${name} down`}
                  disabled={j === inputs.length - 1}
                  onClick={() => move(j, j + 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="quiet icon"
                  aria-label={`Delete input ${name}`}
                  onClick={() => {
                    props.onChange(without(inputs, j), 'structure');
                    setFocus('add');
                  }}
                >
                  ✕
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {listProblem && <p class="problem">{listProblem}</p>}
      <button
        type="button"
        class="secondary"
        data-focus="add"
        disabled={inputs.length >= props.max}
        onClick={() => {
          props.onChange([...inputs, { name: '', type: 'context' }], 'structure');
          setFocus(`name-${inputs.length}`);
        }}
      >
        Add input
      </button>
    </fieldset>
  );
}
