/**
 * The rule's recorded executions, newest first as the API lists them, a page
 * at a time: when and how each ran (API or schedule), the version, the
 * outcome, and its input and output or error.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { useLoad } from '../ui/use-load.ts';
import { compact } from './model.ts';

const pageSize = 10;

export function ExecutionsPanel({ ruleId }: { ruleId: string }) {
  const { api } = useConsole();
  const [pageNo, setPageNo] = useState(1);
  const list = useLoad(
    () => api.page(api.client.GET('/dev/v1/{entityType}/{entityId}/executions', { params: { path: { entityType: 'rule', entityId: ruleId }, query: { pageNo, pageSize } } })),
    [ruleId, pageNo],
  );
  return (
    <section class="card" aria-labelledby="executions-title">
      <div class="heading">
        <h2 id="executions-title">Executions</h2>
        <button type="button" class="secondary" onClick={list.reload} disabled={list.loading}>
          Refresh executions
        </button>
      </div>
      <p class="hint">Scheduled runs are always recorded; calls to execute are recorded when the rule's settings.recordExecutions is true. Records are kept 30 days.</p>
      <Failure error={list.error} title="Could not list the executions" />
      {list.value && list.value.data.length === 0 && <p>No recorded executions.</p>}
      {list.value && list.value.data.length > 0 && (
        <>
          <div class="scroll">
            <table class="executions">
              <caption class="visually-hidden">Recorded executions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Version</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Input</th>
                  <th scope="col">Output or error</th>
                </tr>
              </thead>
              <tbody>
                {list.value.data.map((execution) => (
                  <tr key={execution.executionId}>
                    <th scope="row">
                      <time dateTime={execution.startedAt}>{new Date(execution.startedAt).toLocaleString()}</time>
                      <div class="muted">{execution.durationMs} ms</div>
                    </th>
                    <td>
                      {execution.trigger}
                      {execution.scheduledTime && <div class="muted">due {new Date(execution.scheduledTime).toLocaleString()}</div>}
                    </td>
                    <td>{execution.version || '—'}</td>
                    <td>
                      <span class={`badge ${execution.outcome}`}>{execution.outcome}</span>
                    </td>
                    <td>
                      <pre>{compact(execution.input)}</pre>
                    </td>
                    <td>
                      {execution.error ? (
                        <p class="problem">
                          {execution.error.code}: {execution.error.message}
                        </p>
                      ) : execution.outputOmitted ? (
                        <span class="muted">too large to keep</span>
                      ) : (
                        <pre>{compact(execution.output)}</pre>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav class="pager" aria-label="Pages of executions">
            <button type="button" disabled={pageNo <= 1} onClick={() => setPageNo(pageNo - 1)}>
              Newer executions
            </button>
            <span aria-live="polite">
              Page {list.value.pageNo} of {Math.max(1, list.value.totalPages)} · {list.value.totalCount} in all
            </span>
            <button type="button" disabled={pageNo >= list.value.totalPages} onClick={() => setPageNo(pageNo + 1)}>
              Older executions
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
