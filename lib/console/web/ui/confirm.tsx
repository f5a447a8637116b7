/**
 * The question asked before what cannot be undone (revoke, delete): the
 * question as a heading that takes the focus when it opens, what follows from
 * it, the one button that does it and "Keep it". When the call fails, why is
 * shown in place and the question stays.
 */
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { Failure } from './failure.tsx';
import { useFocusOnOpen } from './focus.ts';

export function Confirm(props: {
  question: ComponentChildren;
  /** What follows from it. */
  children: ComponentChildren;
  /** The button that does it. */
  action: string;
  failureTitle: string;
  class?: string;
  onConfirm(): Promise<void>;
  onCancel(): void;
}) {
  const [error, setError] = useState<unknown>();
  const id = useId();
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  return (
    <div class={`warning ${props.class ?? ''}`.trim()} role="alert" aria-labelledby={id}>
      <h3 id={id} ref={heading} tabIndex={-1}>
        {props.question}
      </h3>
      <p>{props.children}</p>
      <div class="actions">
        <button
          type="button"
          class="danger"
          onClick={async () => {
            setError(undefined);
            try {
              await props.onConfirm();
            } catch (failure) {
              setError(failure);
            }
          }}
        >
          {props.action}
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Keep it
        </button>
      </div>
      <Failure error={error} title={props.failureTitle} />
    </div>
  );
}
