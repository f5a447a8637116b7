/**
 * A run of the workflow: params typed as JSON, sent to /test (the draft, not
 * recorded), to /execute (the published version, recorded when the workflow
 * records executions), or to /execute queued (`async`: answered at once with
 * a task, followed here until it ends, for workflows whose providers are
 * slow); and the answer step by step, shown the same way however it came:
 * status, time, output or error, then the run's output or what failed it.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { JsonField } from '../ui/json-field.tsx';
import { parseObject, pretty } from '../ui/json.ts';
import { usePermit, Why } from '../ui/permitted.tsx';
import { taskEnded, useFollowTask } from '../ui/follow-task.ts';
import { kindNames } from './model.ts';
import type { Queued, Run, Task } from './types.ts';

type Target = 'draft' | 'published' | 'queued';

export function RunPanel(props: {
  workflowId: string;
  published: boolean;
  unsaved: boolean;
  startParams: string;
  onRun(run: Run, params: Record<string, unknown>, target: Target): void;
}) {
  const { api } = useConsole();
  const [params, setParams] = useState(props.startParams);
  const [target, setTarget] = useState<Target>('draft');
  const [run, setRun] = useState<Run>();
  const [queued, setQueued] = useState<{ accepted: Queued; params: Record<string, unknown> }>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const parsed = parseObject(params);
  // The draft is tested, the published version executed: each needs its own permission.
  const permits = { test: usePermit('testEntity'), execute: usePermit('executeEntity') };
  const permit = target === 'draft' ? permits.test : permits.execute;
  const follow = useFollowTask(queued?.accepted.taskId, (task) => {
    const result = task.workflowRun?.result;
    if (!result || !queued) return;
    setRun(result);
    props.onRun(result, queued.params, 'queued');
  });
  const following = queued !== undefined && !follow.error && !(follow.task && taskEnded(follow.task));

  const start = async () => {
    if (!parsed.ok) return;
    setError(undefined);
    setRun(undefined);
    setQueued(undefined);
    setBusy(true);
    const call = { params: { path: { entityType: 'workflow' as const, entityId: props.workflowId } }, body: { params: parsed.value } };
    try {
      if (target === 'queued') {
        const accepted = await api.data<unknown>(api.client.POST('/dev/v1/{entityType}/{entityId}/execute', { ...call, body: { ...call.body, async: true } }));
        if (!isQueued(accepted)) throw new Error('The API did not answer with a queued task.');
        setQueued({ accepted, params: parsed.value });
        return;
      }
      // Both answer a rule's shape too.
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
        <label class="inline">
          <input type="radio" name="run-target" checked={target === 'queued'} disabled={!props.published} onChange={() => setTarget('queued')} />
          The published version, queued (async)
        </label>
      </fieldset>
      {props.unsaved && target === 'draft' && <p class="warning">The draft has unsaved changes: the run uses the saved draft.</p>}
      <div class="actions">
        <button type="button" onClick={start} disabled={busy || following || !parsed.ok || !permit.allowed} aria-describedby={permit.describedBy}>
          {busy ? 'Running…' : following ? 'Following the task…' : 'Run workflow'}
        </button>
      </div>
      <Why permits={[permit]} />
      <Failure error={error} title="The workflow could not be run" />
      {queued && <QueuedTask accepted={queued.accepted} task={follow.task} />}
      {follow.error !== undefined && (
        <div>
          <Failure error={follow.error} title="Could not follow the task" />
          <button type="button" class="secondary" onClick={follow.retry}>
            Follow the task again
          </button>
        </div>
      )}
      {run && <RunResult run={run} />}
    </section>
  );
}

const isRun = (answer: unknown): answer is Run => typeof answer === 'object' && answer !== null && 'steps' in answer && Array.isArray(answer.steps);
const isQueued = (answer: unknown): answer is Queued =>
  typeof answer === 'object' && answer !== null && 'taskId' in answer && typeof answer.taskId === 'string';

/** Where a queued run is: its task, the task's state as last read, and why the task failed when it did without a run to show. */
function QueuedTask({ accepted, task }: { accepted: Queued; task: Task | undefined }) {
  const state = task?.taskState ?? accepted.taskState;
  return (
    <div class="queued-task">
      <p role="status">
        Queued as task <code>{accepted.taskId}</code> (version {accepted.version}, execution <code>{accepted.executionId}</code>):{' '}
        <span class={`badge ${state}`}>{state}</span>
        {task && !taskEnded(task) && <span class="muted"> · asking again every second</span>}
      </p>
      {task?.taskState === 'failed' && !task.workflowRun?.result && (
        <p class="failure" role="alert">
          The task failed: {task.error ?? 'no reason given'}
        </p>
      )}
    </div>
  );
}

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
