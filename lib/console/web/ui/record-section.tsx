/**
 * What the pages of a workspace's records share (credentials, integrations,
 * API keys): one panel open at a time for one record (and what was last
 * done), the record's name cell, its row of actions named after it, and the
 * panel forms that send one call and stay open with why it failed (also the
 * change requests' forms).
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { Failure } from './failure.tsx';

/** The open panel and the last notice; `done` closes the panel, says what was done and reloads the lists. */
export function useRecordActions<A>(onChanged: () => void) {
  const [action, setAction] = useState<A>();
  const [notice, setNotice] = useState<string>();
  return {
    action,
    notice,
    open(next: A) {
      setNotice(undefined);
      setAction(next);
    },
    close: () => setAction(undefined),
    done(message: string) {
      setNotice(message);
      setAction(undefined);
      onChanged();
    },
  };
}

export function NameCell({ record }: { record: { name: string; id: string; description?: string | undefined } }) {
  return (
    <th scope="row">
      {record.name}
      <div class="muted">{record.id}</div>
      {record.description && <div class="muted">{record.description}</div>}
    </th>
  );
}

/**
 * A record's buttons, each named "Verb record-name" for a screen reader; the
 * last one is the destructive one. Those the key may not use are left out
 * (the section says why, once).
 */
export function RowActions<K extends string>(props: { name: string; labels: Record<K, string>; allowed: Record<K, boolean>; onAction(kind: K): void }) {
  const kinds = Object.keys(props.labels) as K[];
  return (
    <div class="actions row-actions">
      {kinds.map(
        (kind, at) =>
          props.allowed[kind] && (
            <button
              key={kind}
              type="button"
              class={at === kinds.length - 1 ? 'danger' : 'secondary'}
              aria-label={`${props.labels[kind]} ${props.name}`}
              onClick={() => props.onAction(kind)}
            >
              {props.labels[kind]}
            </button>
          ),
      )}
    </div>
  );
}

const noProblems: ReadonlyMap<string, string> = new Map();

/** A panel's form: its title, what it does, its fields, submit and cancel, and why the call failed; `after` shows what it answered. */
export function PanelForm(props: {
  title: string;
  hint: ComponentChildren;
  submit: string;
  /** The submit button's text while the call is on the way. */
  busy?: string;
  cancel: string;
  failureTitle: string;
  onSubmit(): Promise<void>;
  onCancel(): void;
  /** The fields, given the problems the API named by field. */
  children(problems: ReadonlyMap<string, string>): ComponentChildren;
  after?: ComponentChildren;
}) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="card"
      aria-label={props.title}
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        setBusy(true);
        try {
          await props.onSubmit();
        } catch (failure) {
          setError(failure);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3 class="full">{props.title}</h3>
      <p class="hint full">{props.hint}</p>
      {props.children(error instanceof ApiFailure ? error.fieldProblems : noProblems)}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy && props.busy ? props.busy : props.submit}
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          {props.cancel}
        </button>
      </div>
      <Failure error={error} title={props.failureTitle} />
      {props.after}
    </form>
  );
}
