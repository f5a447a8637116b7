/**
 * The workflow's recorded executions, newest first, a page at a time: when,
 * which version, how it was triggered, its outcome and time, and on demand
 * its input, output or error and its steps.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { useLoad } from '../ui/use-load.ts';
import { shown } from './json-field.tsx';
import { StepResults } from './run-panel.tsx';

const pageSize = 10;

export function Executions(props: { workflowId: string; recorded: boolean; round: number }) {
  const { api } = useConsole();
  const [pageNo, setPageNo] = useState(1);
  const list = useLoad(
    () =>
      api.page(
        api.client.GET('/dev/v1/{entityType}/{entityId}/executions', {
          params: { path: { entityType: 'workflow', entityId: props.workflowId }, query: { pageNo, pageSize } },
        }),
      ),
    [props.workflowId, pageNo, props.round],
  );
  return (
    <section class="card executions" aria-labelledby="executions-title">
      <div class="heading">
        <h2 id="executions-title">Executions</h2>
        <button type="button" class="secondary" onClick={list.reload}>
          Refresh executions
        </button>
      </div>
      {!props.recorded && <p class="hint">This workflow does not record its API executions (settings.recordExecutions); only those recorded earlier are listed.</p>}
      <Failure error={list.error} title="Could not list the executions" />
      {list.value && list.value.data.length === 0 && <p>No executions recorded yet.</p>}
      {list.value && list.value.data.length > 0 && (
        <>
          <div class="scroll">
            <table>
              <caption class="visually-hidden">Recorded executions of the workflow</caption>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Version</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Time</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {list.value.data.map((execution) => (
                  <tr key={execution.executionId}>
                    <td>
                      <time dateTime={execution.startedAt}>{new Date(execution.startedAt).toLocaleString()}</time>
                    </td>
                    <td>{execution.version || '—'}</td>
                    <td>{execution.trigger}</td>
                    <td>
                      <span class={`badge ${execution.outcome}`}>{execution.outcome}</span>
                    </td>
                    <td>{Math.round(execution.durationMs)} ms</td>
                    <td>
                      <details>
                        <summary>
                          <span class="visually-hidden">Details of </span>
                          <code>{execution.executionId}</code>
                        </summary>
                        {execution.error && (
                          <p class="problem">
                            {execution.error.code}: {execution.error.message}
                          </p>
                        )}
                        <strong>Input</strong>
                        <pre tabIndex={0}>{shown(execution.input)}</pre>
                        {execution.output !== undefined && (
                          <>
                            <strong>Output</strong>
                            <pre tabIndex={0}>{shown(execution.output)}</pre>
                          </>
                        )}
                        {execution.steps && <StepResults steps={execution.steps} caption={`Steps of ${execution.executionId}`} />}
                      </details>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav class="pager" aria-label="Pages of executions">
            <button type="button" disabled={pageNo <= 1} onClick={() => setPageNo(pageNo - 1)}>
              Newer
            </button>
            <span aria-live="polite">
              Page {list.value.pageNo} of {Math.max(1, list.value.totalPages)} · {list.value.totalCount} in all
            </span>
            <button type="button" disabled={pageNo >= list.value.totalPages} onClick={() => setPageNo(pageNo + 1)}>
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
