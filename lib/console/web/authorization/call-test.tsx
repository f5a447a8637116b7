/**
 * The test of a credential or an integration: one call to the provider, made
 * by the API as a step would make it, by a method to a URL or a path (with a
 * JSON body typed here where the record takes one), and what the provider's
 * answer means. Both sections open this one form, in their own words, so
 * that their tests ask and answer alike.
 */
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { Field } from '../ui/field.tsx';
import { useFocusOnOpen } from '../ui/focus.ts';
import { parseValue } from '../ui/json.ts';
import { PanelForm } from '../ui/record-section.tsx';

/** What a provider call answered: its status, what that means, and why no answer came when none did. */
interface CallAnswer {
  status: number;
  ok: boolean;
  message: string;
  durationMs: number;
  failure?: string | undefined;
}

/** The call as typed: its method, where it goes (trimmed), and the body read from its JSON, when one was typed. */
export interface CallRequest<M extends string> {
  method: M;
  target: string;
  body?: unknown;
}

export function CallTestForm<M extends string, A extends CallAnswer>(props: {
  title: string;
  hint: ComponentChildren;
  /** The methods offered, the first chosen at the start. */
  methods: readonly M[];
  /** Where the call goes: its field's label, the name the API gives its problems by, its first text, and the input's own attributes (a type, an example). */
  target: { label: string; field: string; initial?: string; input: InputHTMLAttributes<HTMLInputElement> };
  /** The methods whose call may carry a body: the body's field is shown for them. */
  bodyMethods?: readonly M[];
  send(request: CallRequest<M>): Promise<A>;
  /** What the answer shows besides its status (the provider's body). */
  details?(answer: A): ComponentChildren;
  onCancel(): void;
}) {
  const [method, setMethod] = useState<M>(props.methods[0]!);
  const [target, setTarget] = useState(props.target.initial ?? '');
  const [body, setBody] = useState('');
  const [answer, setAnswer] = useState<A>();
  const first = useFocusOnOpen<HTMLInputElement>();
  return (
    <PanelForm
      title={props.title}
      hint={props.hint}
      submit="Send test"
      busy="Testing…"
      cancel="Close"
      failureTitle="The test could not be made"
      onSubmit={async () => {
        setAnswer(undefined);
        const parsed = body.trim() ? parseValue(body) : undefined;
        if (parsed && !parsed.ok) throw new Error(`The body: ${parsed.error}`);
        setAnswer(await props.send({ method, target: target.trim(), ...(parsed && { body: parsed.value }) }));
      }}
      onCancel={props.onCancel}
      after={
        answer && (
          <>
            <div class={`call-result full ${answer.ok ? 'notice' : 'warning'}`} role="status">
              <span class={`badge ${answer.ok ? 'ok' : 'failed'}`}>
                {answer.status ? `HTTP ${answer.status}` : `no answer${answer.failure ? `: ${answer.failure}` : ''}`}
              </span>{' '}
              {answer.message} <span class="muted">({Math.round(answer.durationMs)} ms)</span>
            </div>
            {props.details?.(answer)}
          </>
        )
      }
    >
      {(problems) => (
        <>
          <Field label="Method">
            {(control) => (
              <select {...control} value={method} onChange={(e) => setMethod(e.currentTarget.value as M)}>
                {props.methods.map((each) => (
                  <option key={each}>{each}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label={props.target.label} class="grow" controlClass="code" problem={problems.get(props.target.field)}>
            {(control) => <input {...control} {...props.target.input} ref={first} required value={target} onInput={(e) => setTarget(e.currentTarget.value)} />}
          </Field>
          {props.bodyMethods?.includes(method) && (
            <Field label="Body (JSON)" class="full" controlClass="code" problem={problems.get('body')}>
              {(control) => <textarea {...control} value={body} onInput={(e) => setBody(e.currentTarget.value)} />}
            </Field>
          )}
        </>
      )}
    </PanelForm>
  );
}
