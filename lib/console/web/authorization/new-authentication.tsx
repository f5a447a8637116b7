/**
 * "New Authentication": an API Key credential made of a Key, named
 * exactly as the provider names it, a Value, where the key goes, and the
 * hosts it may be sent to. The same form serves the Authorization page and
 * the API-request step's drop-down, so a credential is made the same way
 * wherever a person starts.
 *
 * The value is cleared from the form as soon as it is sent, whatever the
 * answer: the page never shows a secret back, and the API never returns it.
 */
import { useId, useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { Field } from '../ui/field.tsx';
import { useFocusOnOpen } from '../ui/focus.ts';
import { AllowedHostsField, hostList } from './allowed-hosts.tsx';
import type { Credential } from './types.ts';

interface Draft {
  name: string;
  key: string;
  value: string;
  placement: 'header' | 'query';
  /** As typed: one per line or comma separated. */
  hosts: string;
  description: string;
}

const empty: Draft = { name: '', key: '', value: '', placement: 'header', hosts: '', description: '' };

export function NewAuthenticationForm(props: { onCreated(credential: Credential): void; onCancel(): void; focusOnOpen?: boolean }) {
  const { api } = useConsole();
  const [draft, setDraft] = useState(empty);
  const [error, setError] = useState<unknown>();
  const [sending, setSending] = useState(false);
  const first = useFocusOnOpen<HTMLInputElement>(props.focusOnOpen);
  const problems = error instanceof ApiFailure ? error.fieldProblems : new Map<string, string>();
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  // The Authorization page may hold two of these at once (its own, and an integration's drop-down's).
  const titleId = useId();

  return (
    <form
      class="card new-authentication"
      aria-labelledby={titleId}
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        setSending(true);
        const sent = draft;
        setDraft({ ...draft, value: '' });
        try {
          const created = await api.data(
            api.client.POST('/dev/v1/credentials', {
              body: {
                type: 'apiKey',
                name: sent.name.trim(),
                key: sent.key.trim(),
                value: sent.value,
                placement: sent.placement,
                allowedHosts: hostList(sent.hosts),
                description: sent.description.trim(),
              },
            }),
          );
          setDraft(empty);
          props.onCreated(created);
        } catch (failure) {
          setError(failure);
        } finally {
          setSending(false);
        }
      }}
    >
      <h3 id={titleId}>New Authentication</h3>
      <Field label="Type">
        {(control) => (
          <select {...control} value="apiKey" disabled={sending}>
            <option value="apiKey">API Key</option>
          </select>
        )}
      </Field>
      <Field label="Name" problem={problems.get('name')}>
        {(control) => (
          <input {...control} ref={first} required value={draft.name} onInput={(e) => set({ name: e.currentTarget.value })} placeholder="Risk provider key" />
        )}
      </Field>
      <Field label="Key" hint="exactly as the provider names it" problem={problems.get('key')} controlClass="code">
        {(control) => (
          <input {...control} required value={draft.key} onInput={(e) => set({ key: e.currentTarget.value })} placeholder="X-Api-Key" spellcheck={false} />
        )}
      </Field>
      <Field label="Value" hint="sealed when saved; never shown again" problem={problems.get('value')}>
        {(control) => (
          <input {...control} required type="password" autocomplete="off" value={draft.value} onInput={(e) => set({ value: e.currentTarget.value })} />
        )}
      </Field>
      <fieldset class="placement">
        <legend>Placement</legend>
        <label class="inline">
          <input type="radio" name="placement" value="header" checked={draft.placement === 'header'} onChange={() => set({ placement: 'header' })} />
          Header
        </label>
        <label class="inline">
          <input type="radio" name="placement" value="query" checked={draft.placement === 'query'} onChange={() => set({ placement: 'query' })} />
          Query parameter
        </label>
        <p class="hint advice">
          Header is preferred: a key in the query travels in the URL, which servers and proxies log. Choose what the provider requires; a mismatch makes the key
          work in one tool and fail in another.
        </p>
      </fieldset>
      <AllowedHostsField value={draft.hosts} onInput={(hosts) => set({ hosts })} problems={problems} />
      <Field label="Description" class="wide" problem={problems.get('description')}>
        {(control) => <input {...control} value={draft.description} onInput={(e) => set({ description: e.currentTarget.value })} />}
      </Field>
      <div class="actions">
        <button type="submit" disabled={sending}>
          Save authentication
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
      <Failure error={error} title="The credential was not saved" />
    </form>
  );
}
