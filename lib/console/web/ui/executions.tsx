/**
 * The recorded executions of a rule or a workflow (the same API for both),
 * newest first, a page at a time: when and how each ran (API or schedule),
 * the version, the outcome, and its input and output or error. What only one
 * kind has, such as a workflow's steps, comes as an extra column.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import type { paths } from '../schema.ts';
import { Failure } from './failure.tsx';
import { compact } from './json.ts';
import { useLoad } from './use-load.ts';

export type Execution = paths['/dev/v1/{entityType}/{entityId}/executions']['get']['responses'][200]['content']['application/json']['data'][number];

const pageSize = 10;
/** Past this many characters a value opens on demand, so a long input keeps a row (and a phone's screen) short. */
const shownInline = 80;

function JsonCell({ value }: { value: unknown }) {
  const text = compact(value);
  if (text.length <= shownInline) return <pre>{text}</pre>;
  return (
    <details>
      <summary>{text.slice(0, shownInline - 20)}…</summary>
      <pre>{text}</pre>
    </details>
  );
}

export function ExecutionsPanel(props: {
  entityType: 'rule' | 'workflow';
  entityId: string;
  /** Said under the heading: which executions are recorded. */
  hint?: ComponentChildren;
  /** Changed by the page when it knows of a new execution (a run it made), to list it. */
  round?: number;
  extra?: { header: string; cell(execution: Execution): ComponentChildren };
}) {
  const { api } = useConsole();
  const [pageNo, setPageNo] = useState(1);
  const list = useLoad(
    () =>
      api.page(
        api.client.GET('/dev/v1/{entityType}/{entityId}/executions', {
          params: { path: { entityType: props.entityType, entityId: props.entityId }, query: { pageNo, pageSize } },
        }),
      ),
    [props.entityType, props.entityId, pageNo, props.round],
  );
  return (
    <section class="card" aria-labelledby="executions-title">
      <div class="heading">
        <h2 id="executions-title">Executions</h2>
        <button type="button" class="secondary" onClick={list.reload} disabled={list.loading}>
          Refresh executions
        </button>
      </div>
      {props.hint && <p class="hint">{props.hint}</p>}
      <Failure error={list.error} title="Could not list the executions" />
      {list.value && list.value.data.length === 0 && <p>No recorded executions.</p>}
      {list.value && list.value.data.length > 0 && (
        <>
          <div class="scroll">
            <table class="executions">
              <caption class="visually-hidden">Recorded executions of the {props.entityType}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Version</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Input</th>
                  <th scope="col">Output or error</th>
                  {props.extra && <th scope="col">{props.extra.header}</th>}
                </tr>
              </thead>
              <tbody>
                {list.value.data.map((execution) => (
                  <tr key={execution.executionId}>
                    <th scope="row">
                      <time dateTime={execution.startedAt}>{new Date(execution.startedAt).toLocaleString()}</time>
                      <div class="muted">{Math.round(execution.durationMs)} ms</div>
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
                      <JsonCell value={execution.input} />
                    </td>
                    <td>
                      {execution.error ? (
                        <p class="problem">
                          {execution.error.code}: {execution.error.message}
                        </p>
                      ) : execution.outputOmitted ? (
                        <span class="muted">too large to keep</span>
                      ) : (
                        <JsonCell value={execution.output} />
                      )}
                    </td>
                    {props.extra && <td>{props.extra.cell(execution)}</td>}
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
