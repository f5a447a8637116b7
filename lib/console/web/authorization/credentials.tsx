/**
 * The workspace's credentials (spec 5.2): a table of what each is (name, key,
 * placement, the last characters of its value, status, when it was rotated or
 * revoked) and what can be done with one: rotate its value, test it against a
 * provider URL, revoke it. Values are typed into password fields, sent, and
 * cleared; the API never gives them back.
 */
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { Field } from './field.tsx';
import { useFocusOnOpen } from './focus.ts';
import { NewAuthenticationForm } from './new-authentication.tsx';
import { when, type Credential, type CredentialTest } from './types.ts';

type Action = { kind: 'rotate' | 'test' | 'revoke'; credential: Credential };

export function CredentialsSection(props: { credentials: Credential[]; onChanged(): void }) {
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<Action>();
  const [notice, setNotice] = useState<string>();
  const done = (message: string) => {
    setNotice(message);
    setAction(undefined);
    props.onChanged();
  };

  return (
    <section aria-labelledby="credentials-title">
      <div class="heading">
        <h2 id="credentials-title">Credentials</h2>
        <button type="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          New Authentication
        </button>
      </div>
      {creating && (
        <NewAuthenticationForm
          focusOnOpen
          onCancel={() => setCreating(false)}
          onCreated={(credential) => {
            setCreating(false);
            done(`Credential "${credential.name}" saved; its value ends in ${credential.valueHint.replace(/^•+/, '')}.`);
          }}
        />
      )}
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <div class="scroll">
        <table class="credentials">
          <caption class="visually-hidden">Credentials of the workspace</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Placement</th>
              <th scope="col">Value ends in</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Rotated</th>
              <th scope="col">Revoked</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {props.credentials.map((credential) => (
              <tr key={credential.id}>
                <th scope="row">
                  {credential.name}
                  <div class="muted">{credential.id}</div>
                  {credential.description && <div class="muted">{credential.description}</div>}
                </th>
                <td>
                  <code>{credential.key}</code>
                </td>
                <td>{credential.placement}</td>
                <td>
                  <code class="value-hint">{credential.valueHint}</code>
                </td>
                <td>
                  <span class={`badge ${credential.status}`}>{credential.status}</span>
                </td>
                <td>{when(credential.createdAt)}</td>
                <td>{when(credential.rotatedAt)}</td>
                <td>{when(credential.revokedAt)}</td>
                <td>
                  {credential.status === 'active' && (
                    <div class="actions row-actions">
                      {(['rotate', 'test', 'revoke'] as const).map((kind) => (
                        <button
                          key={kind}
                          type="button"
                          class={kind === 'revoke' ? 'danger' : 'secondary'}
                          aria-label={`${actionNames[kind]} ${credential.name}`}
                          onClick={() => {
                            setNotice(undefined);
                            setAction({ kind, credential });
                          }}
                        >
                          {actionNames[kind]}
                        </button>
                      ))}
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {props.credentials.length === 0 && <p>No credentials yet: New Authentication makes one.</p>}
      {action?.kind === 'rotate' && <RotateForm key={action.credential.id} credential={action.credential} onDone={done} onCancel={() => setAction(undefined)} />}
      {action?.kind === 'test' && <TestForm key={action.credential.id} credential={action.credential} onCancel={() => setAction(undefined)} />}
      {action?.kind === 'revoke' && <RevokeConfirm key={action.credential.id} credential={action.credential} onDone={done} onCancel={() => setAction(undefined)} />}
    </section>
  );
}

const actionNames = { rotate: 'Rotate', test: 'Test', revoke: 'Revoke' } as const;

function RotateForm({ credential, onDone, onCancel }: { credential: Credential; onDone(message: string): void; onCancel(): void }) {
  const { api } = useConsole();
  const [value, setValue] = useState('');
  const [error, setError] = useState<unknown>();
  const field = useFocusOnOpen<HTMLInputElement>();
  return (
    <form
      class="card"
      aria-label={`Rotate ${credential.name}`}
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        const sent = value;
        setValue('');
        try {
          const rotated = await api.data(api.client.PATCH('/dev/v1/credentials/{credentialId}', { params: { path: { credentialId: credential.id } }, body: { value: sent } }));
          onDone(`Credential "${rotated.name}" rotated; its value now ends in ${rotated.valueHint.replace(/^•+/, '')}.`);
        } catch (failure) {
          setError(failure);
        }
      }}
    >
      <h3 class="full">Rotate {credential.name}</h3>
      <p class="hint full">The new value replaces the old one at once; steps and integrations keep using this credential.</p>
      <Field label="New value" problem={error instanceof ApiFailure ? error.fieldProblems.get('value') : undefined}>
        {(control) => <input {...control} ref={field} required type="password" autocomplete="off" value={value} onInput={(e) => setValue(e.currentTarget.value)} />}
      </Field>
      <div class="actions">
        <button type="submit">Rotate</button>
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <Failure error={error} title="The credential was not rotated" />
    </form>
  );
}

function TestForm({ credential, onCancel }: { credential: Credential; onCancel(): void }) {
  const { api } = useConsole();
  const [url, setUrl] = useState('');
  const [method, setMethod] = useState<'GET' | 'POST' | 'HEAD'>('GET');
  const [result, setResult] = useState<CredentialTest>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const field = useFocusOnOpen<HTMLInputElement>();
  return (
    <form
      class="card"
      aria-label={`Test ${credential.name}`}
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        setResult(undefined);
        setBusy(true);
        try {
          setResult(await api.data(api.client.POST('/dev/v1/credentials/{credentialId}/test', { params: { path: { credentialId: credential.id } }, body: { url: url.trim(), method } })));
        } catch (failure) {
          setError(failure);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3 class="full">Test {credential.name}</h3>
      <p class="hint full">
        Calls the URL with <code>{credential.key}</code> placed in the {credential.placement}, and says what the provider's answer means for the key.
      </p>
      <Field label="Method">
        {(control) => (
          <select {...control} value={method} onChange={(e) => setMethod(e.currentTarget.value as typeof method)}>
            <option>GET</option>
            <option>POST</option>
            <option>HEAD</option>
          </select>
        )}
      </Field>
      <Field label="Provider URL" class="grow" controlClass="code" problem={error instanceof ApiFailure ? error.fieldProblems.get('url') : undefined}>
        {(control) => <input {...control} ref={field} required type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://api.example.com/v1/ping" />}
      </Field>
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Testing…' : 'Send test'}
        </button>
        <button type="button" class="quiet" onClick={onCancel}>
          Close
        </button>
      </div>
      <Failure error={error} title="The test could not be made" />
      {result && <CallResult status={result.status} ok={result.ok} message={result.message} durationMs={result.durationMs} failure={result.failure} />}
    </form>
  );
}

/** What a provider call answered: its status, what that means, and why no answer came when none did. */
export function CallResult(props: { status: number; ok: boolean; message: string; durationMs: number; failure?: string | undefined }) {
  return (
    <div class={`call-result full ${props.ok ? 'notice' : 'warning'}`} role="status">
      <span class={`badge ${props.ok ? 'ok' : 'failed'}`}>{props.status ? `HTTP ${props.status}` : `no answer${props.failure ? `: ${props.failure}` : ''}`}</span> {props.message}{' '}
      <span class="muted">({Math.round(props.durationMs)} ms)</span>
    </div>
  );
}

function RevokeConfirm({ credential, onDone, onCancel }: { credential: Credential; onDone(message: string): void; onCancel(): void }) {
  const { api } = useConsole();
  const [error, setError] = useState<unknown>();
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  return (
    <div class="card warning" role="group" aria-labelledby="revoke-title">
      <h3 id="revoke-title" ref={heading} tabIndex={-1}>
        Revoke {credential.name}?
      </h3>
      <p>Its value is deleted for good and never sent again: steps and integrations that use it fail until they are given another credential. This cannot be undone.</p>
      <div class="actions">
        <button
          type="button"
          class="danger"
          onClick={async () => {
            setError(undefined);
            try {
              await api.data(api.client.DELETE('/dev/v1/credentials/{credentialId}', { params: { path: { credentialId: credential.id } } }));
              onDone(`Credential "${credential.name}" revoked.`);
            } catch (failure) {
              setError(failure);
            }
          }}
        >
          Yes, revoke {credential.name}
        </button>
        <button type="button" class="quiet" onClick={onCancel}>
          Keep it
        </button>
      </div>
      <Failure error={error} title="The credential was not revoked" />
    </div>
  );
}
