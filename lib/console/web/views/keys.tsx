/**
 * The workspace's API keys, for a key that manages it: each key's label,
 * owner, role, branches, expiry and state; a new key made with a role, an
 * owner and optionally branches and an expiry, its secret shown here once
 * to copy (only its hash is kept); a key's role, branches, expiry, label or
 * owner changed; a key revoked. Refusals are shown as the API words them,
 * among them that the workspace's last usable admin key can be neither
 * revoked nor demoted (409 last_admin).
 */
import '../authorization/authorization.css';
import type { Ref } from 'preact';
import { useId, useState } from 'preact/hooks';
import { roleNames, roles, type Role } from '../../../vocabulary/permissions.ts';
import { useConsole } from '../context.ts';
import type { operations } from '../schema.ts';
import { Confirm } from '../ui/confirm.tsx';
import { Failure } from '../ui/failure.tsx';
import { Field } from '../ui/field.tsx';
import { useFocusOnOpen } from '../ui/focus.ts';
import { instantOf, localTime, when } from '../ui/local-time.ts';
import { Notice } from '../ui/notice.tsx';
import { PermittedView, usePermit, Why } from '../ui/permitted.tsx';
import { NameCell, PanelForm, RowActions, useRecordActions } from '../ui/record-section.tsx';
import { useLoad } from '../ui/use-load.ts';

type Key = operations['getKey']['responses'][200]['content']['application/json']['data'];
type MadeKey = operations['createKey']['responses'][201]['content']['application/json']['data'];
type Action = { kind: 'create' } | { kind: 'edit' | 'revoke'; key: Key };

export function KeysView() {
  return (
    <PermittedView operation="listKeys" title="API keys">
      <KeysPage />
    </PermittedView>
  );
}

const actionNames = { edit: 'Edit', revoke: 'Revoke' } as const;

function KeysPage() {
  const { api, caller } = useConsole();
  const keys = useLoad(() => api.data(api.client.GET('/dev/v1/keys')), []);
  const branches = useLoad(() => api.data(api.client.GET('/dev/v1/branches')), []);
  const permits = { create: usePermit('createKey'), update: usePermit('updateKey'), revoke: usePermit('revokeKey') };
  const { action, notice, open, close, done } = useRecordActions<Action>(keys.reload);
  const [made, setMade] = useState<MadeKey>();
  const branchNames = (branches.value ?? []).map((branch) => branch.name);

  return (
    <section aria-labelledby="keys-title" class="keys">
      <div class="heading">
        <h1 id="keys-title">API keys</h1>
        <button
          type="button"
          aria-expanded={action?.kind === 'create'}
          disabled={!permits.create.allowed}
          aria-describedby={permits.create.describedBy}
          onClick={() => (setMade(undefined), open({ kind: 'create' }))}
        >
          New key
        </button>
      </div>
      <p class="muted">
        Each key opens this workspace with what its role grants, on every branch or only on those it names, until it expires or is revoked. Only a key's hash is
        kept: its secret is shown once, when it is made.
      </p>
      <Why permits={[permits.create, permits.update, permits.revoke]} />
      {made && <ShownOnce key={made.keyId} made={made} onDismiss={() => setMade(undefined)} />}
      <Notice>{notice}</Notice>
      {action?.kind === 'create' && <KeyForm branchNames={branchNames} onMade={setMade} onDone={done} onCancel={close} />}
      <Failure error={keys.error} title="Could not list the keys" />
      <Failure error={branches.error} title="Could not list the branches a key may be limited to" />
      {keys.value && (
        <div class="scroll">
          <table class="keys">
            <caption class="visually-hidden">API keys of the workspace, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Owner</th>
                <th scope="col">Role</th>
                <th scope="col">Branches</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.value.map((key) => (
                <tr key={key.keyId}>
                  <NameCell
                    record={{ name: key.label, id: key.keyId, description: key.keyId === caller.keyId ? 'the key you are signed in with' : undefined }}
                  />
                  <td>{key.owner}</td>
                  <td>{key.role}</td>
                  <td>{key.branches?.join(', ') ?? 'every branch'}</td>
                  <td>{key.expiresAt ? when(key.expiresAt) : 'never'}</td>
                  <td>
                    <span class={`badge ${key.state}`}>{key.state}</span>
                    {key.revokedAt && <div class="muted">{when(key.revokedAt)}</div>}
                  </td>
                  <td>{when(key.createdAt)}</td>
                  <td>
                    {key.state !== 'revoked' && (
                      <RowActions
                        name={key.label}
                        labels={actionNames}
                        allowed={{ edit: permits.update.allowed, revoke: permits.revoke.allowed }}
                        onAction={(kind) => open({ kind, key })}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {action?.kind === 'edit' && <KeyForm key={action.key.keyId} given={action.key} branchNames={branchNames} onDone={done} onCancel={close} />}
      {action?.kind === 'revoke' && (
        <RevokeConfirm key={action.key.keyId} given={action.key} signedInWith={action.key.keyId === caller.keyId} onDone={done} onCancel={close} />
      )}
    </section>
  );
}

/** The secret of a key just made: shown here, this once, until dismissed; nothing keeps it. */
function ShownOnce({ made, onDismiss }: { made: MadeKey; onDismiss(): void }) {
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  const [copied, setCopied] = useState<string>();
  return (
    <section class="warning shown-once" aria-labelledby="shown-once-title">
      <h2 id="shown-once-title" ref={heading} tabIndex={-1}>
        Copy the key "{made.label}" now: it is shown only this once
      </h2>
      <p>Only its hash is kept, so neither the console nor the API can show it again. If it is lost, revoke it and make another.</p>
      <p>
        <code class="secret">{made.key}</code>
      </p>
      <div class="actions">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(made.key).then(
              () => setCopied('Copied to the clipboard.'),
              () => setCopied('The browser did not let the page copy it: select the key and copy it.'),
            )
          }
        >
          Copy the key
        </button>
        <button type="button" class="secondary" onClick={onDismiss}>
          I have copied it
        </button>
      </div>
      <Notice>{copied}</Notice>
    </section>
  );
}

interface Fields {
  label: string;
  owner: string;
  role: Role;
  /** None: every branch. */
  branches: string[];
  /** As a datetime-local field holds it (local time); empty: never. */
  expires: string;
}

const sameBranches = (a: readonly string[], b: readonly string[]) => [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * A new key's fields, or a key's to change. A change sends only what was
 * changed: an expiry left as it was (perhaps past) is not sent again, and a
 * label changed alone leaves the role, the branches and the expiry be.
 */
function KeyForm(props: { given?: Key; branchNames: string[]; onMade?(key: MadeKey): void; onDone(message: string): void; onCancel(): void }) {
  const { api } = useConsole();
  const { given } = props;
  const [fields, setFields] = useState<Fields>({
    label: given?.label ?? '',
    owner: given?.owner ?? '',
    role: given?.role ?? 'reader',
    branches: given?.branches ?? [],
    expires: localTime(given?.expiresAt),
  });
  const first = useFocusOnOpen<HTMLInputElement>();
  const set = (change: Partial<Fields>) => setFields({ ...fields, ...change });

  const create = async () => {
    const made = await api.data(
      api.client.POST('/dev/v1/keys', {
        body: {
          label: fields.label.trim(),
          owner: fields.owner.trim(),
          role: fields.role,
          ...(fields.branches.length > 0 && { branches: fields.branches }),
          ...(fields.expires && { expiresAt: instantOf(fields.expires) }),
        },
      }),
    );
    props.onMade?.(made);
    props.onDone(`Key "${made.label}" made with the role ${made.role}.`);
  };

  const change = async (key: Key) => {
    const changed = await api.data(
      api.client.PATCH('/dev/v1/keys/{keyId}', {
        params: { path: { keyId: key.keyId } },
        body: {
          ...(fields.label.trim() !== key.label && { label: fields.label.trim() }),
          ...(fields.owner.trim() !== key.owner && { owner: fields.owner.trim() }),
          ...(fields.role !== key.role && { role: fields.role }),
          ...(!sameBranches(fields.branches, key.branches ?? []) && { branches: fields.branches.length > 0 ? fields.branches : null }),
          ...(fields.expires !== localTime(key.expiresAt) && { expiresAt: fields.expires ? instantOf(fields.expires) : null }),
        },
      }),
    );
    props.onDone(`Key "${changed.label}" saved: role ${changed.role}, ${changed.branches ? `branches ${changed.branches.join(', ')}` : 'every branch'}.`);
  };

  return (
    <PanelForm
      title={given ? `Edit ${given.label}` : 'New key'}
      hint={
        given
          ? 'Only what you change is sent. A change holds on every function within 30 seconds.'
          : 'A key gives no more than the key you are signed in with: no permission its role lacks, no branch beyond its own.'
      }
      submit={given ? 'Save key' : 'Make key'}
      cancel="Cancel"
      failureTitle={given ? 'The key was not changed' : 'The key was not made'}
      onSubmit={() => (given ? change(given) : create())}
      onCancel={props.onCancel}
    >
      {(problems) => <KeyFields fields={fields} set={set} problems={problems} branchNames={props.branchNames} first={first} />}
    </PanelForm>
  );
}

function KeyFields(props: {
  fields: Fields;
  set(change: Partial<Fields>): void;
  problems: ReadonlyMap<string, string>;
  branchNames: string[];
  first: Ref<HTMLInputElement>;
}) {
  const { fields, set, problems } = props;
  // A branch the key names that the list no longer has stays ticked, so that saving does not drop it unseen.
  const names = [...new Set([...props.branchNames, ...fields.branches])];
  const branchProblem = [...problems].find(([path]) => path.startsWith('branches'))?.[1];
  const hint = useId();
  return (
    <>
      <Field label="Label" hint="what the key is for" problem={problems.get('label')}>
        {(control) => <input {...control} ref={props.first} required value={fields.label} onInput={(e) => set({ label: e.currentTarget.value })} />}
      </Field>
      <Field label="Owner" hint="the person or system it belongs to" problem={problems.get('owner')}>
        {(control) => <input {...control} required value={fields.owner} onInput={(e) => set({ owner: e.currentTarget.value })} />}
      </Field>
      <Field label="Role" problem={problems.get('role')}>
        {(control) => (
          <select {...control} value={fields.role} onChange={(e) => set({ role: e.currentTarget.value as Role })}>
            {roleNames.map((role) => (
              <option key={role} value={role}>
                {role} ({roles[role].join(', ')})
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Expires" hint="empty: never" problem={problems.get('expiresAt')}>
        {(control) => <input {...control} type="datetime-local" value={fields.expires} onInput={(e) => set({ expires: e.currentTarget.value })} />}
      </Field>
      <fieldset class="branches full" aria-describedby={hint}>
        <legend>Branches</legend>
        {names.map((name) => (
          <label key={name} class="inline">
            <input
              type="checkbox"
              checked={fields.branches.includes(name)}
              onChange={(e) => set({ branches: e.currentTarget.checked ? [...fields.branches, name] : fields.branches.filter((b) => b !== name) })}
            />
            {name}
          </label>
        ))}
        <p class="hint" id={hint}>
          None ticked: every branch, those made later too.
        </p>
        {branchProblem && <p class="problem">{branchProblem}</p>}
      </fieldset>
    </>
  );
}

function RevokeConfirm({ given, signedInWith, onDone, onCancel }: { given: Key; signedInWith: boolean; onDone(message: string): void; onCancel(): void }) {
  const { api } = useConsole();
  return (
    <Confirm
      question={`Revoke ${given.label}?`}
      action={`Yes, revoke ${given.label}`}
      failureTitle="The key was not revoked"
      onConfirm={async () => {
        await api.data(api.client.DELETE('/dev/v1/keys/{keyId}', { params: { path: { keyId: given.keyId } } }));
        onDone(`Key "${given.label}" revoked.`);
      }}
      onCancel={onCancel}
    >
      Every call made with it is refused from then on (within 30 seconds on every function). This cannot be undone.
      {signedInWith && ' It is the key you are signed in with: the console signs out at its next call.'}
    </Confirm>
  );
}
