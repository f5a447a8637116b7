/**
 * "Test this step": runs the selected step of the saved draft on a context a
 * person gives (the inputs and earlier steps' results by id), against its
 * provider for an API request, and shows its status, output or error, and
 * where a run would go next: the last step of setting up a credential, trying
 * it on the provider.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { JsonField } from '../ui/json-field.tsx';
import { parseObject, pretty } from '../ui/json.ts';
import { usePermit, Why } from '../ui/permitted.tsx';
import type { StepTestResult } from './types.ts';

export function StepTest(props: { workflowId: string; stepId: string; unsaved: boolean; startContext: string; lastRunContext: (() => string) | undefined }) {
  const { api } = useConsole();
  const [context, setContext] = useState(props.startContext);
  const [result, setResult] = useState<StepTestResult>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const parsed = parseObject(context);
  const lastRunContext = props.lastRunContext;
  const permit = usePermit('testWorkflowStep');

  const test = async () => {
    if (!parsed.ok) return;
    setError(undefined);
    setResult(undefined);
    setBusy(true);
    try {
      setResult(
        await api.data(
          api.client.POST('/dev/v1/{entityType}/{entityId}/steps/{stepId}/test', {
            params: { path: { entityType: 'workflow', entityId: props.workflowId, stepId: props.stepId } },
            body: { context: parsed.value },
          }),
        ),
      );
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="step-test" aria-labelledby="step-test-title">
      <h3 id="step-test-title">Test this step</h3>
      <p class="hint">Runs the step "{props.stepId}" of the saved draft on the context below; an API request calls its provider with its credential placed.</p>
      {props.unsaved && <p class="warning">The draft has unsaved changes: save it to test them.</p>}
      <JsonField label="Context (JSON)" text={context} onText={setContext} object />
      <div class="actions">
        <button type="button" onClick={test} disabled={busy || !parsed.ok || !permit.allowed} aria-describedby={permit.describedBy}>
          {busy ? 'Testing…' : `Test step ${props.stepId}`}
        </button>
        {lastRunContext && (
          <button type="button" class="secondary" onClick={() => setContext(lastRunContext())}>
            Use the last run's context
          </button>
        )}
      </div>
      <Why permits={[permit]} />
      <Failure error={error} title="The step could not be tested" />
      {result && (
        <div class="step-result" role="status" aria-live="polite">
          <p>
            <span class={`badge ${result.status}`}>{result.status}</span> in {result.durationMs} ms
            {result.next && (
              <>
                {' '}
                · a run would go on to <strong>{result.next}</strong>
              </>
            )}
          </p>
          {result.error && <p class="failure step-error">{result.error}</p>}
          {result.output !== undefined && (
            <>
              <strong>Output</strong>
              <pre tabIndex={0}>{pretty(result.output)}</pre>
            </>
          )}
        </div>
      )}
    </section>
  );
}
