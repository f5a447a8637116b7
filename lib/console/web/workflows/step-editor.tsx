/**
 * The selected step's fields, by its kind, with the API's problems in place
 * under their paths (`definition.steps[1].request.url`). An API request names
 * an integration and a path (the integration brings its credential) or a full
 * URL with the step's own credential, chosen in the authentication drop-down,
 * where "Create Authentication" makes one in place.
 *
 * Not a <form>: the New Authentication form opens inside it, and forms do not
 * nest. Changes go to the draft in memory; the editor's Save sends them.
 */
import type { StepOf, WorkflowStep } from '../../../entities/workflow-definition.ts';
import { AuthenticationSelect } from '../authorization/authentication-select.tsx';
import { EntriesEditor } from '../authorization/entries-editor.tsx';
import { FeelField, type FeelName } from '../feel/feel-field.tsx';
import { Field } from '../ui/field.tsx';
import { credentialLabel, type Credential, type Integration } from '../authorization/types.ts';
import { fieldPath } from '../../../workflows/step-expressions.ts';
import { moveItem, stepPath } from './model.ts';

export interface StepEditorProps {
  step: WorkflowStep;
  index: number;
  stepIds: string[];
  onChange(step: WorkflowStep): void;
  problems: Map<string, string>;
  credentials: Credential[];
  integrations: Integration[];
  ruleIds: string[];
  onCredentialMade(): void;
  /** What the step's FEEL may read (feel/names.ts `workflowNames`), offered by completion. */
  names?: readonly FeelName[];
}

export function StepEditor(props: StepEditorProps) {
  const { step } = props;
  const base = stepPath(props.index);
  const problem = (path: string) => props.problems.get(`${base}${path}`);
  return (
    <div class="step-fields">
      {step.kind === 'rule' && <RuleFields {...props} step={step} problem={problem} />}
      {step.kind === 'apiRequest' && <ApiRequestFields {...props} step={step} problem={problem} />}
      {step.kind === 'branch' && <BranchFields {...props} step={step} problem={problem} />}
      {step.kind === 'transform' && (
        <>
          <MapField
            legend="Values to set"
            nameLabel="Name"
            names={props.names}
            path={`${base}.set`}
            value={step.set}
            onChange={(set) => props.onChange({ ...step, set })}
            problems={props.problems}
          />
          <NextSelect {...props} value={step.next} onChange={(next) => props.onChange({ ...step, next })} problem={problem('.next')} />
        </>
      )}
      {step.kind === 'end' && (
        <MapField
          legend="Output"
          nameLabel="Output"
          names={props.names}
          hint="Each output's value is FEEL over the context: the run's answer."
          path={`${base}.output`}
          value={step.output}
          onChange={(output) => props.onChange({ ...step, output })}
          problems={props.problems}
        />
      )}
    </div>
  );
}

type Problem = (path: string) => string | undefined;

function NextSelect(props: {
  stepIds: string[];
  step: WorkflowStep;
  value: string | undefined;
  onChange(next: string): void;
  problem: string | undefined;
  label?: string;
}) {
  const others = props.stepIds.filter((id) => id !== props.step.id);
  return (
    <Field label={props.label ?? 'Next step'} problem={props.problem}>
      {(control) => (
        <select value={props.value ?? ''} onChange={(e) => props.onChange(e.currentTarget.value)} {...control}>
          {props.value !== undefined && !others.includes(props.value) && <option value={props.value}>{props.value || '(choose)'} (no such step)</option>}
          {others.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function MapField(props: {
  legend: string;
  nameLabel: string;
  names: readonly FeelName[] | undefined;
  hint?: string;
  path: string;
  value: Record<string, string>;
  onChange(value: Record<string, string>): void;
  problems: Map<string, string>;
}) {
  return (
    <EntriesEditor
      legend={props.legend}
      hint={props.hint ?? 'Values are FEEL over the context: the inputs, and earlier steps by id.'}
      nameLabel={props.nameLabel}
      valueLabel={`${props.nameLabel} FEEL`}
      feel
      names={props.names}
      value={props.value}
      onChange={props.onChange}
      problemOf={(name) => props.problems.get(fieldPath(props.path, name))}
    />
  );
}

function RuleFields(props: StepEditorProps & { step: StepOf<'rule'>; problem: Problem }) {
  const { step, problem } = props;
  const rules = props.ruleIds.includes(step.ruleId) ? props.ruleIds : [step.ruleId, ...props.ruleIds];
  return (
    <>
      <div class="fields">
        <Field label="Rule" problem={problem('.ruleId')}>
          {(control) => (
            <select value={step.ruleId} onChange={(e) => props.onChange({ ...step, ruleId: e.currentTarget.value })} {...control}>
              {rules.map((id) => (
                <option key={id} value={id}>
                  {id || '(choose a rule)'}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Version" problem={problem('.version')} hint="blank: the latest published">
          {(control) => (
            <input
              value={step.version ?? ''}
              placeholder="v1"
              size={8}
              onInput={(e) => {
                const { version: _, ...rest } = step;
                props.onChange(e.currentTarget.value.trim() ? { ...rest, version: e.currentTarget.value.trim() } : rest);
              }}
              {...control}
            />
          )}
        </Field>
        <NextSelect {...props} value={step.next} onChange={(next) => props.onChange({ ...step, next })} problem={problem('.next')} />
      </div>
      <EntriesEditor
        legend="Inputs"
        hint="The rule's params, each FEEL over the context. With none, the rule is given the whole context."
        nameLabel="Param"
        valueLabel="Param FEEL"
        feel
        names={props.names}
        value={step.inputs ?? {}}
        onChange={(inputs) => {
          const { inputs: _, ...rest } = step;
          props.onChange(Object.keys(inputs).length ? { ...rest, inputs } : rest);
        }}
        problemOf={(name) => props.problems.get(fieldPath(`${stepPath(props.index)}.inputs`, name))}
      />
    </>
  );
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function ApiRequestFields(props: StepEditorProps & { step: StepOf<'apiRequest'>; problem: Problem }) {
  const { step, problem } = props;
  const request = step.request;
  const viaUrl = request.url !== undefined;
  const integration = props.integrations.find((i) => i.id === request.integrationId);
  const integrationCredential = props.credentials.find((c) => c.id === integration?.credentialId);
  const base = `${stepPath(props.index)}.request`;
  const setRequest = (change: Partial<StepOf<'apiRequest'>['request']>) => props.onChange({ ...step, request: { ...request, ...change } });
  const { integrationId: _i, path: _p, url: _u, ...parts } = request;

  const useUrl = () => {
    const url = integration ? `${integration.baseUrl.replace(/\/$/, '')}${request.path ?? ''}` : 'https://';
    props.onChange({ ...step, request: { ...parts, url } });
  };
  const useIntegration = () => {
    const { credentialId: _c, ...rest } = step;
    props.onChange({ ...rest, request: { ...parts, integrationId: props.integrations[0]?.id ?? '', path: '/' } });
  };

  return (
    <>
      <div class="fields">
        <Field label="Method" problem={problem('.request.method')}>
          {(control) => (
            <select value={request.method} onChange={(e) => setRequest({ method: e.currentTarget.value as (typeof methods)[number] })} {...control}>
              {methods.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          )}
        </Field>
        <fieldset class="target">
          <legend>Send to</legend>
          <label class="inline">
            <input type="radio" name={`target-${step.id}`} checked={!viaUrl} onChange={useIntegration} />
            An integration and a path
          </label>
          <label class="inline">
            <input type="radio" name={`target-${step.id}`} checked={viaUrl} onChange={useUrl} />A full URL
          </label>
        </fieldset>
      </div>
      {viaUrl ? (
        <>
          <div class="fields">
            <Field label="URL" class="grow" controlClass="code" problem={problem('.request.url')}>
              {(control) => (
                <input type="url" value={request.url} spellcheck={false} onInput={(e) => setRequest({ url: e.currentTarget.value })} {...control} />
              )}
            </Field>
          </div>
          <AuthenticationSelect
            credentials={props.credentials}
            value={step.credentialId}
            onChange={(credentialId) => {
              const { credentialId: _, ...rest } = step;
              props.onChange(credentialId ? { ...rest, credentialId } : rest);
            }}
            onCreated={props.onCredentialMade}
            problem={problem('.credentialId')}
            hint="the credential this step places on its call"
          />
        </>
      ) : (
        <>
          <div class="fields">
            <Field label="Integration" problem={problem('.request.integrationId')}>
              {(control) => (
                <select value={request.integrationId ?? ''} onChange={(e) => setRequest({ integrationId: e.currentTarget.value })} {...control}>
                  {!integration && (
                    <option value={request.integrationId ?? ''}>
                      {request.integrationId ? `${request.integrationId} (not found)` : '(choose an integration)'}
                    </option>
                  )}
                  {props.integrations.map((i) => (
                    <option key={i.id} value={i.id}>
                      {i.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field
              label="Path"
              class="grow"
              controlClass="code"
              problem={problem('.request.path')}
              hint={integration ? `under ${integration.baseUrl}` : undefined}
            >
              {(control) => <input value={request.path ?? ''} spellcheck={false} onInput={(e) => setRequest({ path: e.currentTarget.value })} {...control} />}
            </Field>
          </div>
          <p class="authentication-of-integration">
            <strong>Authentication:</strong>{' '}
            {integrationCredential ? credentialLabel(integrationCredential) : integration?.credentialId ? integration.credentialId : 'none'}, from the
            integration. <span class="hint">An integration brings its own credential; to choose one for this step, send it to a full URL.</span>
          </p>
        </>
      )}
      <MapField
        legend="Query parameters"
        nameLabel="Parameter"
        names={props.names}
        path={`${base}.query`}
        value={request.query}
        onChange={(query) => setRequest({ query })}
        problems={props.problems}
      />
      <MapField
        legend="Headers"
        nameLabel="Header"
        names={props.names}
        path={`${base}.headers`}
        value={request.headers}
        onChange={(headers) => setRequest({ headers })}
        problems={props.problems}
      />
      <Field label="Body (FEEL, sent as JSON)" problem={problem('.request.body')} class="full" controlClass="code">
        {(control) => (
          <FeelField
            kind="expression"
            names={props.names}
            label="Body (FEEL, sent as JSON)"
            id={control.id}
            class={control.class}
            describedBy={control['aria-describedby']}
            problem={problem('.request.body')}
            multiline
            value={request.body ?? ''}
            onValue={(body) => {
              const { body: _, ...rest } = request;
              props.onChange({ ...step, request: body.trim() ? { ...rest, body } : rest });
            }}
          />
        )}
      </Field>
      <div class="fields">
        <Field label="Timeout (ms)" problem={problem('.timeoutMs')}>
          {(control) => (
            <input
              type="number"
              min={1}
              value={step.timeoutMs}
              onInput={(e) => props.onChange({ ...step, timeoutMs: e.currentTarget.valueAsNumber })}
              {...control}
            />
          )}
        </Field>
        <Field label="Retries" problem={problem('.retries')}>
          {(control) => (
            <input
              type="number"
              min={0}
              value={step.retries}
              onInput={(e) => props.onChange({ ...step, retries: e.currentTarget.valueAsNumber })}
              {...control}
            />
          )}
        </Field>
        <Field
          label="Also accept statuses"
          problem={[...props.problems].find(([path]) => path.startsWith(`${stepPath(props.index)}.acceptStatuses`))?.[1]}
          hint="e.g. 404, 409"
        >
          {(control) => (
            <input
              defaultValue={step.acceptStatuses.join(', ')}
              onInput={(e) =>
                props.onChange({
                  ...step,
                  acceptStatuses: e.currentTarget.value
                    .split(/[\s,]+/)
                    .filter(Boolean)
                    .map(Number)
                    .filter(Number.isInteger),
                })
              }
              {...control}
            />
          )}
        </Field>
        <NextSelect {...props} value={step.next} onChange={(next) => props.onChange({ ...step, next })} problem={problem('.next')} />
      </div>
    </>
  );
}

function BranchFields(props: StepEditorProps & { step: StepOf<'branch'>; problem: Problem }) {
  const { step, problem } = props;
  const setCases = (cases: StepOf<'branch'>['cases']) => props.onChange({ ...step, cases });
  const move = (from: number, to: number) => setCases(moveItem(step.cases, from, to));
  return (
    <>
      <p class="hint">Cases are tried in order; the first whose condition is true is taken.</p>
      <ol class="cases">
        {step.cases.map((c, j) => (
          <li key={j} class="case">
            <Field label={`Case ${j + 1} condition (FEEL)`} class="grow" controlClass="code" problem={problem(`.cases[${j}].when`)}>
              {(control) => (
                <FeelField
                  kind="expression"
                  names={props.names}
                  label={`Case ${j + 1} condition (FEEL)`}
                  id={control.id}
                  class={control.class}
                  describedBy={control['aria-describedby']}
                  problem={problem(`.cases[${j}].when`)}
                  value={c.when}
                  onValue={(when) => setCases(step.cases.map((x, k) => (k === j ? { ...x, when } : x)))}
                />
              )}
            </Field>
            <NextSelect
              {...props}
              label={`Case ${j + 1} goes to`}
              value={c.next}
              onChange={(next) => setCases(step.cases.map((x, k) => (k === j ? { ...x, next } : x)))}
              problem={problem(`.cases[${j}].next`)}
            />
            <div class="actions">
              <button type="button" class="quiet icon" aria-label={`Move case ${j + 1} up`} disabled={j === 0} onClick={() => move(j, j - 1)}>
                ↑
              </button>
              <button
                type="button"
                class="quiet icon"
                aria-label={`Move case ${j + 1} down`}
                disabled={j === step.cases.length - 1}
                onClick={() => move(j, j + 1)}
              >
                ↓
              </button>
              <button
                type="button"
                class="quiet icon"
                aria-label={`Remove case ${j + 1}`}
                disabled={step.cases.length === 1}
                onClick={() => setCases(step.cases.filter((_, k) => k !== j))}
              >
                ✕
              </button>
            </div>
          </li>
        ))}
      </ol>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => setCases([...step.cases, { when: 'true', next: step.cases.at(-1)?.next ?? '' }])}>
          Add case
        </button>
      </div>
      <Field label="Otherwise" problem={problem('.otherwise')}>
        {(control) => (
          <select
            value={step.otherwise ?? ''}
            onChange={(e) => {
              const { otherwise: _, ...rest } = step;
              props.onChange(e.currentTarget.value ? { ...rest, otherwise: e.currentTarget.value } : rest);
            }}
            {...control}
          >
            <option value="">None: the run fails when no case holds</option>
            {props.stepIds
              .filter((id) => id !== step.id)
              .map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
          </select>
        )}
      </Field>
    </>
  );
}
