/**
 * A run of the workflow: params typed as JSON, sent to /test (the draft, not
 * recorded) or /execute (the published version, recorded when the workflow
 * records executions), and the answer step by step: status, time, output or
 * error, then the run's output or what failed it.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { JsonField } from '../ui/json-field.tsx';
import { parseObject, pretty } from '../ui/json.ts';
import { kindNames } from './model.ts';
import type { Run } from './types.ts';

type Target = 'draft' | 'published';

export function RunPanel(props: { workflowId: string; published: boolean; unsaved: boolean; startParams: string; onRun(run: Run, params: Record<string, unknown>, target: Target): void }) {
  const { api } = useConsole();
  const [params, setParams] = useState(props.startParams);
  const [target, setTarget] = useState<Target>('draft');
  const [run, setRun] = useState<Run>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const parsed = parseObject(params);

  const start = async () => {
    if (!parsed.ok) return;
    setError(undefined);
    setRun(undefined);
    setBusy(true);
    const call = { params: { path: { entityType: 'workflow' as const, entityId: props.workflowId } }, body: { params: parsed.value } };
    try {
      // Both answer a rule's shape too, and /execute a queued task (202) when asked for `async`, which this does not ask.
      const answer =
        target === 'draft'
          ? await api.data<unknown>(api.client.POST('/dev/v1/{entityType}/{entityId}/test', call))
          : await api.data<unknown>(api.client.POST('/dev/v1/{entityType}/{entityId}/execute', call));
      if (!isRun(answer)) throw new Error('The API did not answer with a workflow run.');
      setRun(answer);
      props.onRun(answer, parsed.value, target);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card run-panel" aria-labelledby="run-title">
      <h2 id="run-title">Run</h2>
      <JsonField label="Params (JSON)" text={params} onText={setParams} object rows={6} />
      <fieldset class="target">
        <legend>What to run</legend>
        <label class="inline">
          <input type="radio" name="run-target" checked={target === 'draft'} onChange={() => setTarget('draft')} />
          The saved draft (test, not recorded)
        </label>
        <label class="inline">
          <input type="radio" name="run-target" checked={target === 'published'} disabled={!props.published} onChange={() => setTarget('published')} />
          The published version (execute)
        </label>
      </fieldset>
      {props.unsaved && target === 'draft' && <p class="warning">The draft has unsaved changes: the run uses the saved draft.</p>}
      <div class="actions">
        <button type="button" onClick={start} disabled={busy || !parsed.ok}>
          {busy ? 'Running…' : 'Run workflow'}
        </button>
      </div>
      <Failure error={error} title="The workflow could not be run" />
      {run && <RunResult run={run} />}
    </section>
  );
}

const isRun = (answer: unknown): answer is Run => typeof answer === 'object' && answer !== null && 'steps' in answer && Array.isArray(answer.steps);

export function RunResult({ run }: { run: Run }) {
  return (
    <div class="run-result" role="status" aria-live="polite">
      <p>
        Run <span class={`badge ${run.status}`}>{run.status}</span> in {Math.round(run.durationMs)} ms{run.version ? ` (version ${run.version})` : ' (draft)'}
        {run.executionId && <span class="muted"> · {run.executionId}</span>}
      </p>
      {run.error && (
        <p class="failure">
          Step <strong>{run.error.stepId}</strong> failed: {run.error.message}
        </p>
      )}
      <StepResults steps={run.steps} caption="Steps of the run" />
      {run.output !== undefined && (
        <>
          <strong>Output of the run</strong>
          <pre tabIndex={0}>{pretty(run.output)}</pre>
        </>
      )}
    </div>
  );
}

export function StepResults({ steps, caption }: { steps: Run['steps']; caption: string }) {
  return (
    <div class="scroll">
      <table class="step-results">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
            <th scope="col">Time</th>
            <th scope="col">Output or error</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((step) => (
            <tr key={step.id} data-step={step.id}>
              <th scope="row">{step.id}</th>
              <td>{kindNames[step.type]}</td>
              <td>
                <span class={`badge ${step.status}`}>{step.status}</span>
              </td>
              <td>{step.status === 'skipped' ? '—' : `${step.durationMs} ms`}</td>
              <td>
                {step.error && <span class="problem">{step.error}</span>}
                {step.output !== undefined && (
                  <details>
                    <summary>Output</summary>
                    <pre tabIndex={0}>{pretty(step.output)}</pre>
                  </details>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
