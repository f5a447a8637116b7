/**
 * The selected step's id and kind. A rename is applied when the field is
 * left or Enter is pressed, and only when the id is usable (not empty, not
 * another step's): until then the problem is shown in place and the draft
 * keeps the old id, so that no broken graph is ever saved; every reference
 * to the step follows it, the FEEL that reads its result included (the
 * parser that takes is a chunk of its own, fetched when a step is first
 * shown, so opening the console does not wait for it). A new kind replaces the step's fields, so it is
 * asked about first, with the console's shared question.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { StepKind, WorkflowDefinition } from '../../../entities/workflow-definition.ts';
import { Confirm } from '../ui/confirm.tsx';
import { Field } from '../ui/field.tsx';
import { onDemand } from '../ui/on-demand.ts';
import { changeKind, kindNames, renameStep, stepIdProblem, stepPath } from './model.ts';

const stepKinds = Object.keys(kindNames) as StepKind[];

const loadFeelRename = onDemand(() => import('../../../engine/feel/rename.ts'));

export function StepIdentity(props: {
  definition: WorkflowDefinition;
  index: number;
  problems: Map<string, string>;
  onChange(definition: WorkflowDefinition): void;
}) {
  const { definition, index } = props;
  const step = definition.steps[index]!;
  const [text, setText] = useState(step.id);
  const [kind, setKind] = useState<StepKind>();
  const kindSelect = useRef<HTMLSelectElement>(null);
  const wanted = text.trim();
  const replaced = kind && changeKind(definition, index, kind);
  const goesOn = replaced && replaced.steps[index]!;
  const onward = goesOn && goesOn.kind !== 'end' ? (goesOn.kind === 'branch' ? goesOn.cases[0]!.next : goesOn.next) : undefined;
  const problem = wanted === step.id ? props.problems.get(`${stepPath(index)}.id`) : stepIdProblem(definition, index, wanted);

  useEffect(() => void loadFeelRename(), []);
  const rename = async () => {
    if (wanted === step.id || stepIdProblem(definition, index, wanted)) return;
    // Without the FEEL rename (its chunk could not be fetched), the save names the reads.
    props.onChange(renameStep(definition, index, wanted, (await loadFeelRename())?.renameReads));
  };
  const closeQuestion = () => {
    setKind(undefined);
    kindSelect.current?.focus();
  };

  return (
    <>
      <form
        class="fields step-identity"
        aria-label={`Id and kind of step ${step.id}`}
        onSubmit={(event) => {
          event.preventDefault();
          void rename();
        }}
      >
        <Field
          label="Id"
          controlClass="code"
          problem={problem}
          hint="Enter or leaving the field renames it; the steps that go to it, and the FEEL that reads its result, follow."
        >
          {(control) => <input value={text} spellcheck={false} onInput={(e) => setText(e.currentTarget.value)} onChange={() => void rename()} {...control} />}
        </Field>
        <Field label="Kind">
          {(control) => (
            <select
              ref={kindSelect}
              value={kind ?? step.kind}
              onChange={(e) => setKind(e.currentTarget.value === step.kind ? undefined : (e.currentTarget.value as StepKind))}
              {...control}
            >
              {stepKinds.map((k) => (
                <option key={k} value={k}>
                  {kindNames[k]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </form>
      {kind && (
        <Confirm
          question={`Make step ${step.id} a ${kindNames[kind]} step?`}
          action={`Make it a ${kindNames[kind]} step`}
          failureTitle="The step's kind was not changed"
          onConfirm={async () => {
            props.onChange(replaced!);
            closeQuestion();
          }}
          onCancel={closeQuestion}
        >
          Its {kindNames[step.kind]} fields are lost and it starts as a new {kindNames[kind]} step. It keeps its id
          {onward ? ` and goes on to ${onward}` : ' and ends the run'}.
        </Confirm>
      )}
    </>
  );
}
