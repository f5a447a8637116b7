/**
 * The authentication drop-down of a connector (an integration, or an
 * API-request step calling a full URL): the workspace's active credentials,
 * and "Create Authentication", which opens the New Authentication form in
 * place and, once the credential is made, selects it (offered to a key that
 * may create credentials; the hint says why to another).
 */
import { useRef, useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { NewAuthenticationForm } from './new-authentication.tsx';
import { credentialLabel, type Credential } from './types.ts';
import { Field } from '../ui/field.tsx';

const createValue = '__create__';

export function AuthenticationSelect(props: {
  credentials: Credential[];
  value: string | undefined;
  onChange(credentialId: string | undefined): void;
  /** Told of a credential made here, for the owner to list it again. */
  onCreated(credential: Credential): void;
  problem?: string;
  hint?: string;
}) {
  const creatable = useConsole().can('createCredential');
  const [creating, setCreating] = useState(false);
  // A credential made here is offered at once, before the owner's list is read again.
  const [made, setMade] = useState<Credential[]>([]);
  const select = useRef<HTMLSelectElement>(null);
  const known = [...props.credentials, ...made.filter((m) => !props.credentials.some((c) => c.id === m.id))];
  const current = known.find((c) => c.id === props.value);
  const options = known.filter((c) => c.status === 'active');

  return (
    <div class="authentication">
      <Field label="Authentication" hint={creatable.allowed ? props.hint : [props.hint, creatable.reason].filter(Boolean).join('; ')} problem={props.problem}>
        {(control) => (
          <select
            {...control}
            ref={select}
            value={creating ? createValue : (props.value ?? '')}
            onChange={(e) => {
              const chosen = e.currentTarget.value;
              if (chosen === createValue) setCreating(true);
              else {
                setCreating(false);
                props.onChange(chosen || undefined);
              }
            }}
          >
            <option value="">No authentication</option>
            {options.map((credential) => (
              <option key={credential.id} value={credential.id}>
                {credentialLabel(credential)}
              </option>
            ))}
            {props.value && !options.some((c) => c.id === props.value) && (
              <option value={props.value}>{current ? `${current.name} (revoked: choose another)` : `${props.value} (not found)`}</option>
            )}
            {creatable.allowed && <option value={createValue}>Create Authentication…</option>}
          </select>
        )}
      </Field>
      {creating && (
        <NewAuthenticationForm
          focusOnOpen
          onCancel={() => {
            setCreating(false);
            select.current?.focus();
          }}
          onCreated={(credential) => {
            setMade([...made, credential]);
            setCreating(false);
            props.onChange(credential.id);
            props.onCreated(credential);
            select.current?.focus();
          }}
        />
      )}
    </div>
  );
}
