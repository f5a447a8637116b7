/**
 * What the workflow as a whole declares, beside its steps: the inputs a run
 * is given (each a name and one of the engine's value types, in order),
 * whether API runs are recorded, and the run's deadline. Edited in the draft
 * like the steps and saved with them, so that the API's problems come back
 * by path (`definition.inputs[1].name`) and are shown at their field.
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { valueTypes, type ValueType } from '../../../engine/definitions.ts';
import { workflowLimits } from '../../../workflows/limits.ts';
import type { WorkflowDefinition } from '../../../workflows/definition.ts';
import { Field } from '../ui/field.tsx';
import { moveItem } from './model.ts';

type Input = WorkflowDefinition['inputs'][number];

export function WorkflowSettings(props: { definition: WorkflowDefinition; problems: Map<string, string>; onChange(definition: WorkflowDefinition): void }) {
  const { definition, problems } = props;
  const { inputs } = definition;
  const section = useRef<HTMLElement>(null);
  // After a move, an add or a delete the row under the focus changes: this names (by data-focus) where the focus goes next.
  const [focus, setFocus] = useState<string>();
  useLayoutEffect(() => {
    if (!focus) return;
    section.current?.querySelector<HTMLElement>(`[data-focus="${focus}"]`)?.focus();
    setFocus(undefined);
  }, [focus]);

  const setInputs = (next: Input[]) => props.onChange({ ...definition, inputs: next });
  const setInput = (j: number, input: Input) => setInputs(inputs.map((x, k) => (k === j ? input : x)));
  const move = (from: number, to: number) => {
    setInputs(moveItem(inputs, from, to));
    // The same arrow on the moved row, or the other one when it reached an end of the list.
    const up = to < from;
    setFocus((up && to === 0) || (!up && to === inputs.length - 1) ? `${up ? 'down' : 'up'}-${to}` : `${up ? 'up' : 'down'}-${to}`);
  };
  const listProblem = problems.get('definition.inputs');

  return (
    <section class="card workflow-settings" aria-labelledby="settings-title" ref={section}>
      <h2 id="settings-title">Workflow settings</h2>
      <fieldset class="inputs">
        <legend>Inputs</legend>
        <p class="hint">What a run is given, checked and converted to its type on the way in. Steps read each by its name.</p>
        {inputs.length === 0 && <p>No inputs: a run is given nothing.</p>}
        <ol class="inputs">
          {inputs.map((input, j) => {
            const path = `definition.inputs[${j}]`;
            const name = input.name.trim() || `${j + 1}`;
            const of = <span class="visually-hidden"> of input {j + 1}</span>;
            return (
              <li key={j} class="input">
                <Field label={<>Name{of}</>} controlClass="code" problem={problems.get(`${path}.name`) ?? problems.get(path)}>
                  {(control) => (
                    <input
                      value={input.name}
                      spellcheck={false}
                      data-focus={`name-${j}`}
                      onInput={(e) => setInput(j, { ...input, name: e.currentTarget.value })}
                      {...control}
                    />
                  )}
                </Field>
                <Field label={<>Type{of}</>} problem={problems.get(`${path}.type`)}>
                  {(control) => (
                    <select value={input.type} onChange={(e) => setInput(j, { ...input, type: e.currentTarget.value as ValueType })} {...control}>
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
                      setInputs(inputs.filter((_, k) => k !== j));
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
          disabled={inputs.length >= workflowLimits.inputs}
          onClick={() => {
            setInputs([...inputs, { name: '', type: 'context' }]);
            setFocus(`name-${inputs.length}`);
          }}
        >
          Add input
        </button>
      </fieldset>
      <div class="record">
        <label class="inline">
          <input
            type="checkbox"
            checked={definition.settings?.recordExecutions === true}
            onChange={(e) => props.onChange({ ...definition, settings: { ...definition.settings, recordExecutions: e.currentTarget.checked } })}
          />
          Record executions
        </label>
        <span class="hint">API runs of the published version, listed under Executions; tests of the draft are never recorded.</span>
      </div>
      <Field
        label="Run timeout (ms)"
        class="timeout"
        problem={problems.get('definition.timeoutMs')}
        hint={`at most ${workflowLimits.maxTimeoutMs}; a run that answers at once stops at ${workflowLimits.maxSyncTimeoutMs} whatever this says`}
      >
        {(control) => (
          <input
            type="number"
            min={1}
            max={workflowLimits.maxTimeoutMs}
            step={1}
            value={definition.timeoutMs}
            onInput={(e) => props.onChange({ ...definition, timeoutMs: e.currentTarget.valueAsNumber })}
            {...control}
          />
        )}
      </Field>
    </section>
  );
}
