/**
 * A labelled control with its hint and the API's problem for it. The label
 * alone names the control; the hint and the problem describe it
 * (aria-describedby), so that a screen reader reads the name, then why the
 * field is wrong, and the control is marked invalid.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

export interface ControlProps {
  id: string;
  class?: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export function Field(props: {
  label: ComponentChildren;
  hint?: string | undefined;
  problem?: string | undefined;
  /** `grow` to take the row's room; `full` for a whole row. */
  class?: string | undefined;
  controlClass?: string;
  children(control: ControlProps): ComponentChildren;
}) {
  const id = useId();
  const described = [props.hint && `${id}-hint`, props.problem && `${id}-problem`].filter(Boolean).join(' ');
  const controlClass = [props.controlClass, props.problem && 'cell-error'].filter(Boolean).join(' ');
  return (
    <div class={`field ${props.class ?? ''}`.trim()}>
      <label for={id}>{props.label}</label>
      {props.children({
        id,
        ...(controlClass && { class: controlClass }),
        ...(props.problem && { 'aria-invalid': true as const }),
        ...(described && { 'aria-describedby': described }),
      })}
      {props.hint && (
        <span class="hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      )}
      {props.problem && (
        <span class="problem" id={`${id}-problem`}>
          {props.problem}
        </span>
      )}
    </div>
  );
}
