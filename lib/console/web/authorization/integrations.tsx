/**
 * The workspace's REST integrations: the base URL, headers, credential and
 * timeout an API-request step calls through, listed, created, changed,
 * deleted, and tried on a path as a step would call it.
 *
 * The editor is not a <form>: its authentication drop-down may open the New
 * Authentication form in place, and forms do not nest.
 */
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import { Confirm } from '../ui/confirm.tsx';
import { Failure } from '../ui/failure.tsx';
import { pretty } from '../ui/json.ts';
import { NameCell, RowActions, useRecordActions } from '../ui/record-section.tsx';
import { AuthenticationSelect } from './authentication-select.tsx';
import { CallTestForm } from './call-test.tsx';
import { EntriesEditor } from './entries-editor.tsx';
import { Field } from '../ui/field.tsx';
import { useFocusOnOpen } from '../ui/focus.ts';
import { Notice } from '../ui/notice.tsx';
import { usePermit, Why } from '../ui/permitted.tsx';
import type { Credential, Integration } from './types.ts';

type Action = { kind: 'edit' | 'test' | 'delete'; integration: Integration } | { kind: 'create' };

export function IntegrationsSection(props: { integrations: Integration[]; credentials: Credential[]; onChanged(): void; onCredentialMade(): void }) {
  const { action, notice, open, close, done } = useRecordActions<Action>(props.onChanged);
  const permits = {
    create: usePermit('createIntegration'),
    update: usePermit('updateIntegration'),
    test: usePermit('testIntegration'),
    delete: usePermit('deleteIntegration'),
  };
  const nameOf = (id: string | undefined) => (id ? (props.credentials.find((c) => c.id === id)?.name ?? id) : 'none');
  const panel = (() => {
    switch (action?.kind) {
      case 'create':
        return <IntegrationEditor key="new" credentials={props.credentials} onCredentialMade={props.onCredentialMade} onDone={done} onCancel={close} />;
      case 'edit':
        return (
          <IntegrationEditor
            key={action.integration.id}
            integration={action.integration}
            credentials={props.credentials}
            onCredentialMade={props.onCredentialMade}
            onDone={done}
            onCancel={close}
          />
        );
      case 'test':
        return <IntegrationTestForm key={action.integration.id} integration={action.integration} onCancel={close} />;
      case 'delete':
        return <DeleteConfirm key={action.integration.id} integration={action.integration} onDone={done} onCancel={close} />;
      default:
        return null;
    }
  })();

  return (
    <section aria-labelledby="integrations-title">
      <div class="heading">
        <h2 id="integrations-title">Integrations</h2>
        <button type="button" disabled={!permits.create.allowed} aria-describedby={permits.create.describedBy} onClick={() => open({ kind: 'create' })}>
          New integration
        </button>
      </div>
      <Why permits={Object.values(permits)} />
      <Notice>{notice}</Notice>
      {action?.kind === 'create' && panel}
      <div class="scroll">
        <table class="integrations">
          <caption class="visually-hidden">Integrations of the workspace</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Base URL</th>
              <th scope="col">Credential</th>
              <th scope="col">Headers</th>
              <th scope="col">Timeout</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {props.integrations.map((integration) => (
              <tr key={integration.id}>
                <NameCell record={integration} />
                <td>
                  <code class="url">{integration.baseUrl}</code>
                </td>
                <td>{nameOf(integration.credentialId)}</td>
                <td>{Object.keys(integration.headers).join(', ') || '—'}</td>
                <td>{integration.timeoutMs} ms</td>
                <td>
                  <RowActions
                    name={integration.name}
                    labels={actionNames}
                    allowed={{ edit: permits.update.allowed, test: permits.test.allowed, delete: permits.delete.allowed }}
                    onAction={(kind) => open({ kind, integration })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {props.integrations.length === 0 && <p>No integrations yet.</p>}
      {action?.kind !== 'create' && panel}
    </section>
  );
}

const actionNames = { edit: 'Edit', test: 'Test', delete: 'Delete' } as const;

interface Fields {
  name: string;
  baseUrl: string;
  headers: Record<string, string>;
  credentialId: string | undefined;
  timeoutMs: string;
  description: string;
}

function IntegrationEditor(props: {
  integration?: Integration;
  credentials: Credential[];
  onCredentialMade(): void;
  onDone(message: string): void;
  onCancel(): void;
}) {
  const { api } = useConsole();
  const given = props.integration;
  const [fields, setFields] = useState<Fields>({
    name: given?.name ?? '',
    baseUrl: given?.baseUrl ?? '',
    headers: given?.headers ?? {},
    credentialId: given?.credentialId,
    timeoutMs: String(given?.timeoutMs ?? 10000),
    description: given?.description ?? '',
  });
  const [error, setError] = useState<unknown>();
  const first = useFocusOnOpen<HTMLInputElement>();
  const problems = error instanceof ApiFailure ? error.fieldProblems : new Map<string, string>();
  const set = (change: Partial<Fields>) => setFields({ ...fields, ...change });
  const title = given ? `Edit ${given.name}` : 'New integration';

  const save = async () => {
    setError(undefined);
    const body = {
      name: fields.name.trim(),
      baseUrl: fields.baseUrl.trim(),
      headers: fields.headers,
      credentialId: fields.credentialId ?? null,
      timeoutMs: Number(fields.timeoutMs),
      description: fields.description.trim(),
    };
    try {
      const saved = given
        ? await api.data(api.client.PATCH('/dev/v1/integrations/{integrationId}', { params: { path: { integrationId: given.id } }, body }))
        : await api.data(api.client.POST('/dev/v1/integrations', { body: { ...body, type: 'restApi' } }));
      props.onDone(`Integration "${saved.name}" saved.`);
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <div class="card editor-panel" role="group" aria-labelledby="integration-editor-title">
      <h3 id="integration-editor-title">{title}</h3>
      <div class="fields">
        <Field label="Name" problem={problems.get('name')}>
          {(control) => <input {...control} ref={first} required value={fields.name} onInput={(e) => set({ name: e.currentTarget.value })} />}
        </Field>
        <Field label="Base URL" class="grow" controlClass="code" hint="a step's path is joined to it" problem={problems.get('baseUrl')}>
          {(control) => (
            <input
              {...control}
              required
              type="url"
              value={fields.baseUrl}
              onInput={(e) => set({ baseUrl: e.currentTarget.value })}
              placeholder="https://api.example.com/v1"
            />
          )}
        </Field>
        <Field label="Timeout (ms)" problem={problems.get('timeoutMs')}>
          {(control) => <input {...control} type="number" min={1} value={fields.timeoutMs} onInput={(e) => set({ timeoutMs: e.currentTarget.value })} />}
        </Field>
        <Field label="Description" class="grow" problem={problems.get('description')}>
          {(control) => <input {...control} value={fields.description} onInput={(e) => set({ description: e.currentTarget.value })} />}
        </Field>
      </div>
      <AuthenticationSelect
        credentials={props.credentials}
        value={fields.credentialId}
        onChange={(credentialId) => set({ credentialId })}
        onCreated={props.onCredentialMade}
        problem={problems.get('credentialId')}
        hint="placed on every call through this integration"
      />
      <EntriesEditor
        legend="Headers"
        hint="Sent on every call. Secrets belong in a credential, not here."
        nameLabel="Header"
        valueLabel="Header value"
        value={fields.headers}
        onChange={(headers) => set({ headers })}
        problemOf={(name) => problems.get(`headers.${name}`) ?? problems.get(`headers[${JSON.stringify(name)}]`)}
      />
      <div class="actions">
        <button type="button" onClick={save}>
          Save integration
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
      <Failure error={error} title="The integration was not saved" />
    </div>
  );
}

function IntegrationTestForm({ integration, onCancel }: { integration: Integration; onCancel(): void }) {
  const { api } = useConsole();
  return (
    <CallTestForm
      title={`Test ${integration.name}`}
      hint={
        <>
          Calls <code>{integration.baseUrl}</code> and the path, with the integration's headers and credential, as a step would.
        </>
      }
      methods={['GET', 'POST', 'PUT', 'PATCH', 'DELETE']}
      target={{ label: 'Path', field: 'path', initial: '/', input: { placeholder: '/v1/rates?from=EUR' } }}
      bodyMethods={['POST', 'PUT', 'PATCH']}
      send={({ method, target, body }) =>
        api.data(
          api.client.POST('/dev/v1/integrations/{integrationId}/test', {
            params: { path: { integrationId: integration.id } },
            body: { method, path: target, ...(body !== undefined && { body }) },
          }),
        )
      }
      details={(result) => (
        <>
          {result.body !== undefined && (
            <div class="full">
              <strong>The provider's answer</strong>
              <pre tabIndex={0}>{pretty(result.body)}</pre>
            </div>
          )}
          {result.bodyOmitted && <p class="muted full">The answer was too large to show.</p>}
        </>
      )}
      onCancel={onCancel}
    />
  );
}

function DeleteConfirm({ integration, onDone, onCancel }: { integration: Integration; onDone(message: string): void; onCancel(): void }) {
  const { api } = useConsole();
  return (
    <Confirm
      question={`Delete ${integration.name}?`}
      action={`Yes, delete ${integration.name}`}
      failureTitle="The integration was not deleted"
      onConfirm={async () => {
        await api.data(api.client.DELETE('/dev/v1/integrations/{integrationId}', { params: { path: { integrationId: integration.id } } }));
        onDone(`Integration "${integration.name}" deleted.`);
      }}
      onCancel={onCancel}
    >
      Steps that name this integration fail from then on. Its credential is kept.
    </Confirm>
  );
}
