/**
 * What the workflow as a whole declares, beside its steps: the inputs a run
 * is given (each a name and one of the engine's value types, in order),
 * whether API runs are recorded, and the run's deadline. Edited in the draft
 * like the steps and saved with them, so that the API's problems come back
 * by path (`definition.inputs[1].name`) and are shown at their field.
 */
import { workflowLimits } from '../../../entities/workflow-limits.ts';
import type { WorkflowDefinition } from '../../../entities/workflow-definition.ts';
import { DeclaredInputs } from '../ui/declared-inputs.tsx';
import { Field } from '../ui/field.tsx';

export function WorkflowSettings(props: { definition: WorkflowDefinition; problems: Map<string, string>; onChange(definition: WorkflowDefinition): void }) {
  const { definition, problems } = props;
  return (
    <section class="card workflow-settings" aria-labelledby="settings-title">
      <h2 id="settings-title">Workflow settings</h2>
      <DeclaredInputs
        inputs={definition.inputs}
        path="definition.inputs"
        problems={problems}
        max={workflowLimits.inputs}
        hint="What a run is given, checked and converted to its type on the way in. Steps read each by its name."
        none="No inputs: a run is given nothing."
        onChange={(inputs) => props.onChange({ ...definition, inputs })}
      />
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
