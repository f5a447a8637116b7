/**
 * A labelled control with its hint and what is wrong with it. The label
 * alone names the control; the hint, the problem and any warnings describe
 * it (aria-describedby), so that a screen reader reads the name, then why the
 * field is wrong, and the control is marked invalid (or, with warnings only,
 * marked for a look).
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
  warnings?: readonly string[];
  /** `grow` to take the row's room; `full` for a whole row. */
  class?: string | undefined;
  controlClass?: string | undefined;
  children(control: ControlProps): ComponentChildren;
}) {
  const id = useId();
  const warned = (props.warnings?.length ?? 0) > 0;
  const noted = Boolean(props.problem) || warned;
  const described = [props.hint && `${id}-hint`, noted && `${id}-problem`].filter(Boolean).join(' ');
  const controlClass = [props.controlClass, props.problem ? 'cell-error' : warned && 'cell-warning'].filter(Boolean).join(' ');
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
      {noted && <Notes id={`${id}-problem`} problem={props.problem} warnings={props.warnings} />}
    </div>
  );
}

/** A field's problem, then its warnings, under the one id its control is described by. */
export function Notes(props: { id: string; problem?: string | undefined; warnings?: readonly string[] | undefined }) {
  return (
    <span id={props.id} class="notes">
      {props.problem && <span class="problem">{props.problem}</span>}
      {props.warnings?.map((warning) => (
        <span key={warning} class="warning-text">
          Warning: {warning}
        </span>
      ))}
    </span>
  );
}
