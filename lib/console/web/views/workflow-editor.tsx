/**
 * A workflow: its steps as a graph, the selected step's id, kind and fields,
 * "Test this step" against its provider, the workflow's own settings (its
 * inputs, whether it records executions, its deadline), a run (now or
 * queued) with each step's status, time and output, and the recorded
 * executions. The draft goes through the editing cycle every draft page
 * shares (`../ui/use-entity-draft.ts`): saved with the checksum it was read
 * at (a change made meanwhile is refused, 409, not overwritten), undo and
 * redo, a question before unsaved edits are left. Problems are shown in
 * place by their paths, and on the graph's nodes: what the save answered,
 * and once the draft changes, what the save's own check says of it as it is
 * typed. On a protected branch, Propose stands in place of Publish, and the
 * workflow's change requests are listed.
 */
import '../authorization/authorization.css';
import '../workflows/workflows.css';
import { useState } from 'preact/hooks';
import type { StepKind, WorkflowDefinition, WorkflowStep } from '../../../entities/workflow-definition.ts';
import { ChangeRequestList } from '../changes/list.tsx';
import { useProposal } from '../changes/propose.tsx';
import { useConsole } from '../context.ts';
import { hrefOf } from '../route.ts';
import { DraftAlerts, UndoRedo } from '../ui/draft-controls.tsx';
import { ExecutionsPanel } from '../ui/executions.tsx';
import { Failure } from '../ui/failure.tsx';
import { usePermit, Why } from '../ui/permitted.tsx';
import { useEntityDraft, type EntityRead } from '../ui/use-entity-draft.ts';
import { useLoad } from '../ui/use-load.ts';
import { StepGraph, StepList } from '../workflows/graph.tsx';
import { contextOfRun, insertStep, kindNames, paramsSkeleton, removeStep } from '../workflows/model.ts';
import { RunPanel, StepResults } from '../workflows/run-panel.tsx';
import { WorkflowSettings } from '../workflows/settings.tsx';
import { StepEditor } from '../workflows/step-editor.tsx';
import { workflowNames } from '../feel/names.ts';
import { StepIdentity } from '../workflows/step-identity.tsx';
import { StepTest } from '../workflows/step-test.tsx';
import type { Run } from '../workflows/types.ts';

const listed = { query: { pageSize: 100 } };

const draftOf = (record: EntityRead) => record.definition as unknown as WorkflowDefinition;
const fieldsOf = (definition: WorkflowDefinition) => ({ definition: definition as unknown as Record<string, unknown> });

/** The step shown first: the start. */
const startIndex = (definition: WorkflowDefinition) =>
  Math.max(
    0,
    definition.steps.findIndex((step) => step.id === definition.start),
  );

export function WorkflowEditor({ id }: { id: string }) {
  const { api, requiredApprovals } = useConsole();
  const cycle = useEntityDraft({ entityType: 'workflow', id, draftOf, fieldsOf, savedNotice: 'Draft saved.' });
  const { record: loaded, draft, dirty } = cycle;
  const credentials = useLoad(() => api.page(api.client.GET('/dev/v1/credentials', { params: listed })), []);
  const integrations = useLoad(() => api.page(api.client.GET('/dev/v1/integrations', { params: listed })), []);
  const rules = useLoad(() => api.page(api.client.GET('/dev/v1/{entityType}', { params: { path: { entityType: 'rule' }, ...listed } })), []);

  const [chosen, setSelected] = useState<number>();
  const [lastRun, setLastRun] = useState<{ run: Run; params: Record<string, unknown> }>();
  const [executionsRound, setExecutionsRound] = useState(0);
  const permits = { save: usePermit('updateEntity'), publish: usePermit('publishEntity') };
  const proposal = useProposal({ entityType: 'workflow', entityId: id, checksum: cycle.checksum, dirty }, cycle.markConflict);

  if (cycle.loadError && !loaded)
    return (
      <section aria-labelledby="workflow-title">
        <h1 id="workflow-title">Workflow {id}</h1>
        <Failure error={cycle.loadError} title="Could not read the workflow" />
        <a href={hrefOf.workflows}>Back to the workflows</a>
      </section>
    );
  if (!loaded || !draft) return <p role="status">Loading the workflow…</p>;

  const problems = cycle.marks.problems;
  // The step chosen while it is there (an undo or a read may take it away), else the start.
  const selected = chosen !== undefined && chosen < draft.steps.length ? chosen : startIndex(draft);
  // Remounts the step's fields when the draft is replaced other than by them (a read, an undo), so that no field keeps text from before.
  const generation = cycle.replaced;
  const step = draft.steps[selected];
  const statuses = new Map((lastRun?.run.steps ?? []).map((s) => [s.id, s.status]));
  const skeleton = JSON.stringify(paramsSkeleton(draft), null, 2);

  const change = (next: WorkflowDefinition) => cycle.edit(next);
  const changeStep = (index: number, next: WorkflowStep) => change({ ...draft, steps: draft.steps.map((s, i) => (i === index ? next : s)) });

  const publish = async () => {
    cycle.announce(undefined);
    cycle.failed(undefined);
    try {
      const published = await api.data(
        api.client.POST('/dev/v1/{entityType}/{entityId}/publish', {
          params: { path: { entityType: 'workflow', entityId: id } },
          body: { checksum: cycle.checksum },
        }),
      );
      cycle.announce(`Published as ${published.version}.`);
      cycle.refresh();
    } catch (failure) {
      cycle.failed(failure, 'Not published');
    }
  };

  return (
    <section aria-labelledby="workflow-title" class="workflow-editor">
      <p class="muted">
        <a href={hrefOf.workflows}>Workflows</a> / {id}
      </p>
      <div class="heading">
        <h1 id="workflow-title">
          {loaded.name} <span class={`badge ${dirty ? 'draft' : loaded.status}`}>{dirty ? 'unsaved changes' : loaded.status}</span>
        </h1>
        <div class="actions">
          <button type="button" onClick={cycle.save} disabled={cycle.saving || !dirty || !permits.save.allowed} aria-describedby={permits.save.describedBy}>
            {cycle.saving ? 'Saving…' : 'Save draft'}
          </button>
          <UndoRedo cycle={cycle} />
          {requiredApprovals > 0 ? (
            proposal.button
          ) : (
            <button
              type="button"
              class="secondary"
              onClick={publish}
              disabled={dirty || !permits.publish.allowed}
              aria-describedby={permits.publish.describedBy}
              title={dirty ? 'Save the draft first' : undefined}
            >
              Publish
            </button>
          )}
        </div>
      </div>
      <Why permits={[permits.save, requiredApprovals > 0 ? proposal.permit : permits.publish]} />
      {proposal.form}
      <p class="muted">
        {loaded.description && <>{loaded.description} · </>}
        {loaded.version ? `latest published version ${loaded.version}` : 'never published'}
      </p>
      <DraftAlerts cycle={cycle} noun="workflow" />
      {cycle.marks.warnings.length > 0 && (
        <div class="warning" role="status">
          <strong>Saved, with warnings</strong>
          <ul>
            {cycle.marks.warnings.map((w) => (
              <li key={w.path}>
                <code>{w.path}</code>: {w.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <Failure error={credentials.error ?? integrations.error} title="Could not list the credentials or integrations" />

      <div class="workflow-columns">
        <section class="card graph-card" aria-labelledby="graph-title">
          <h2 id="graph-title">Steps</h2>
          <p class="hint">Select a step to edit it. The arrow from above marks the start.</p>
          <StepGraph definition={draft} selected={selected} onSelect={setSelected} statuses={statuses} problems={problems} />
          <StepList definition={draft} selected={selected} onSelect={setSelected} statuses={statuses} problems={problems} />
          <AddStep
            after={step}
            taken={draft.steps.map((s) => s.id)}
            onAdd={(kind, stepId) => {
              const next = insertStep(draft, selected, kind, stepId);
              change(next);
              setSelected(next.steps.findIndex((s) => s.id === stepId));
            }}
          />
        </section>
        <section class="card" id="step-editor" aria-labelledby="step-title">
          {step ? (
            <>
              <div class="heading">
                <h2 id="step-title">
                  Step {step.id} <span class="muted">({kindNames[step.kind]})</span>
                </h2>
                <div class="actions">
                  {draft.start !== step.id && (
                    <button type="button" class="secondary" onClick={() => change({ ...draft, start: step.id })}>
                      Make it the start
                    </button>
                  )}
                  <button
                    type="button"
                    class="danger"
                    disabled={draft.steps.length === 1}
                    onClick={() => {
                      change(removeStep(draft, selected));
                      setSelected(0);
                    }}
                  >
                    Delete step {step.id}
                  </button>
                </div>
              </div>
              <StepIdentity key={`${generation}-${selected}`} definition={draft} index={selected} problems={problems} onChange={change} />
              <StepEditor
                key={`${generation}-${selected}-${step.id}`}
                step={step}
                index={selected}
                stepIds={draft.steps.map((s) => s.id)}
                onChange={(next) => changeStep(selected, next)}
                problems={problems}
                credentials={credentials.value?.data ?? []}
                integrations={integrations.value?.data ?? []}
                ruleIds={(rules.value?.data ?? []).map((r) => r.id)}
                onCredentialMade={credentials.reload}
                names={workflowNames(draft, selected)}
              />
              <StepTest
                key={step.id}
                workflowId={id}
                stepId={step.id}
                unsaved={dirty}
                startContext={skeleton}
                lastRunContext={lastRun && (() => JSON.stringify(contextOfRun(lastRun.params, lastRun.run.steps, step.id), null, 2))}
              />
            </>
          ) : (
            <h2 id="step-title">No step selected</h2>
          )}
        </section>
      </div>

      <WorkflowSettings definition={draft} problems={problems} onChange={change} />
      <RunPanel
        workflowId={id}
        published={loaded.version !== ''}
        unsaved={dirty}
        startParams={skeleton}
        onRun={(run, params, target) => {
          setLastRun({ run, params });
          if (target !== 'draft') setExecutionsRound((n) => n + 1);
        }}
      />
      <ExecutionsPanel
        entityType="workflow"
        entityId={id}
        round={executionsRound}
        hint={
          draft.settings?.recordExecutions !== true &&
          'This workflow does not record its API executions (settings.recordExecutions); only those recorded earlier are listed.'
        }
        extra={{
          header: 'Steps',
          cell: (execution) =>
            execution.steps && (
              <details>
                <summary>
                  Steps<span class="visually-hidden"> of {execution.executionId}</span>
                </summary>
                <StepResults steps={execution.steps} caption={`Steps of ${execution.executionId}`} />
              </details>
            ),
        }}
      />
      <ChangeRequestList entityType="workflow" entityId={id} />
    </section>
  );
}

const stepKinds = Object.keys(kindNames) as StepKind[];

function AddStep(props: { after: WorkflowStep | undefined; taken: string[]; onAdd(kind: StepKind, id: string): void }) {
  const [kind, setKind] = useState<StepKind>('apiRequest');
  const [stepId, setStepId] = useState('');
  const trimmed = stepId.trim();
  const clash = props.taken.includes(trimmed);
  const where = props.after && 'next' in props.after ? `after ${props.after.id}` : 'unlinked';
  return (
    <form
      class="add-step"
      aria-label="Add a step"
      onSubmit={(event) => {
        event.preventDefault();
        if (!trimmed || clash) return;
        props.onAdd(kind, trimmed);
        setStepId('');
      }}
    >
      <label>
        New step id
        <input
          value={stepId}
          onInput={(e) => setStepId(e.currentTarget.value)}
          aria-invalid={clash || undefined}
          aria-describedby={clash ? 'add-step-clash' : undefined}
        />
        {clash && (
          <span class="problem" id="add-step-clash">
            another step has this id
          </span>
        )}
      </label>
      <label>
        Kind
        <select value={kind} onChange={(e) => setKind(e.currentTarget.value as StepKind)}>
          {stepKinds.map((k) => (
            <option key={k} value={k}>
              {kindNames[k]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="secondary" disabled={!trimmed || clash}>
        Add step {where}
      </button>
    </form>
  );
}
