/**
 * The workspace's credentials: a table of what each is (name, key,
 * placement, the hosts it may be sent to, the last characters of its value,
 * status, when it was rotated or revoked) and what can be done with one:
 * rotate its value, change its hosts, test it against a provider URL, revoke
 * it. Values are typed into password fields, sent, and cleared; the API never
 * gives them back.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { Confirm } from '../ui/confirm.tsx';
import { Field } from '../ui/field.tsx';
import { useFocusOnOpen } from '../ui/focus.ts';
import { when } from '../ui/local-time.ts';
import { Notice } from '../ui/notice.tsx';
import { usePermit, Why } from '../ui/permitted.tsx';
import { NameCell, PanelForm, RowActions, useRecordActions } from '../ui/record-section.tsx';
import { AllowedHostsField, hostList } from './allowed-hosts.tsx';
import { CallTestForm } from './call-test.tsx';
import { NewAuthenticationForm } from './new-authentication.tsx';
import type { Credential } from './types.ts';

type Action = { kind: 'rotate' | 'hosts' | 'test' | 'revoke'; credential: Credential };

export function CredentialsSection(props: { credentials: Credential[]; onChanged(): void }) {
  const [creating, setCreating] = useState(false);
  const { action, notice, open, close, done } = useRecordActions<Action>(props.onChanged);
  const permits = {
    create: usePermit('createCredential'),
    update: usePermit('updateCredential'),
    test: usePermit('testCredential'),
    revoke: usePermit('revokeCredential'),
  };

  return (
    <section aria-labelledby="credentials-title">
      <div class="heading">
        <h2 id="credentials-title">Credentials</h2>
        <button
          type="button"
          aria-expanded={creating}
          disabled={!permits.create.allowed}
          aria-describedby={permits.create.describedBy}
          onClick={() => setCreating(!creating)}
        >
          New Authentication
        </button>
      </div>
      <Why permits={Object.values(permits)} />
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
      <Notice>{notice}</Notice>
      <div class="scroll">
        <table class="credentials">
          <caption class="visually-hidden">Credentials of the workspace</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Placement</th>
              <th scope="col">Allowed hosts</th>
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
                <NameCell record={credential} />
                <td>
                  <code>{credential.key}</code>
                </td>
                <td>{credential.placement}</td>
                <td>
                  {credential.allowedHosts.length
                    ? credential.allowedHosts.map((host) => (
                        <div key={host}>
                          <code>{host}</code>
                        </div>
                      ))
                    : 'none: sent nowhere until hosts are set'}
                </td>
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
                    <RowActions
                      name={credential.name}
                      labels={actionNames}
                      allowed={{ rotate: permits.update.allowed, hosts: permits.update.allowed, test: permits.test.allowed, revoke: permits.revoke.allowed }}
                      onAction={(kind) => open({ kind, credential })}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {props.credentials.length === 0 && <p>No credentials yet: New Authentication makes one.</p>}
      {action?.kind === 'rotate' && <RotateForm key={action.credential.id} credential={action.credential} onDone={done} onCancel={close} />}
      {action?.kind === 'hosts' && <HostsForm key={action.credential.id} credential={action.credential} onDone={done} onCancel={close} />}
      {action?.kind === 'test' && <TestForm key={action.credential.id} credential={action.credential} onCancel={close} />}
      {action?.kind === 'revoke' && <RevokeConfirm key={action.credential.id} credential={action.credential} onDone={done} onCancel={close} />}
    </section>
  );
}

const actionNames = { rotate: 'Rotate', hosts: 'Hosts', test: 'Test', revoke: 'Revoke' } as const;

function RotateForm({ credential, onDone, onCancel }: { credential: Credential; onDone(message: string): void; onCancel(): void }) {
  const { api } = useConsole();
  const [value, setValue] = useState('');
  const field = useFocusOnOpen<HTMLInputElement>();
  return (
    <PanelForm
      title={`Rotate ${credential.name}`}
      hint="The new value replaces the old one at once; steps and integrations keep using this credential."
      submit="Rotate"
      cancel="Cancel"
      failureTitle="The credential was not rotated"
      onSubmit={async () => {
        const sent = value;
        setValue('');
        const rotated = await api.data(
          api.client.PATCH('/dev/v1/credentials/{credentialId}', { params: { path: { credentialId: credential.id } }, body: { value: sent } }),
        );
        onDone(`Credential "${rotated.name}" rotated; its value now ends in ${rotated.valueHint.replace(/^•+/, '')}.`);
      }}
      onCancel={onCancel}
    >
      {(problems) => (
        <Field label="New value" problem={problems.get('value')}>
          {(control) => (
            <input {...control} ref={field} required type="password" autocomplete="off" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
          )}
        </Field>
      )}
    </PanelForm>
  );
}

function HostsForm({ credential, onDone, onCancel }: { credential: Credential; onDone(message: string): void; onCancel(): void }) {
  const { api } = useConsole();
  const [hosts, setHosts] = useState(credential.allowedHosts.join('\n'));
  const field = useFocusOnOpen<HTMLTextAreaElement>();
  return (
    <PanelForm
      title={`Allowed hosts of ${credential.name}`}
      hint="A call that would take the key to any other host is refused before anything is sent, wherever the call comes from: an integration, a step or the remote."
      submit="Save hosts"
      cancel="Cancel"
      failureTitle="The hosts were not changed"
      onSubmit={async () => {
        const changed = await api.data(
          api.client.PATCH('/dev/v1/credentials/{credentialId}', {
            params: { path: { credentialId: credential.id } },
            body: { allowedHosts: hostList(hosts) },
          }),
        );
        onDone(`Credential "${changed.name}" may now be sent to ${changed.allowedHosts.join(', ')}.`);
      }}
      onCancel={onCancel}
    >
      {(problems) => <AllowedHostsField controlRef={field} value={hosts} onInput={setHosts} problems={problems} />}
    </PanelForm>
  );
}

function TestForm({ credential, onCancel }: { credential: Credential; onCancel(): void }) {
  const { api } = useConsole();
  return (
    <CallTestForm
      title={`Test ${credential.name}`}
      hint={
        <>
          Calls the URL with <code>{credential.key}</code> placed in the {credential.placement}, and says what the provider's answer means for the key.
        </>
      }
      methods={['GET', 'POST', 'HEAD']}
      target={{ label: 'Provider URL', field: 'url', input: { type: 'url', placeholder: 'https://api.example.com/v1/ping' } }}
      send={({ method, target }) =>
        api.data(
          api.client.POST('/dev/v1/credentials/{credentialId}/test', { params: { path: { credentialId: credential.id } }, body: { url: target, method } }),
        )
      }
      onCancel={onCancel}
    />
  );
}

function RevokeConfirm({ credential, onDone, onCancel }: { credential: Credential; onDone(message: string): void; onCancel(): void }) {
  const { api } = useConsole();
  return (
    <Confirm
      question={`Revoke ${credential.name}?`}
      action={`Yes, revoke ${credential.name}`}
      failureTitle="The credential was not revoked"
      onConfirm={async () => {
        await api.data(api.client.DELETE('/dev/v1/credentials/{credentialId}', { params: { path: { credentialId: credential.id } } }));
        onDone(`Credential "${credential.name}" revoked.`);
      }}
      onCancel={onCancel}
    >
      Its value is deleted for good and never sent again: steps and integrations that use it fail until they are given another credential. This cannot be
      undone.
    </Confirm>
  );
}
