/**
 * What the saved draft would do to the decisions the rule made: a replay of
 * its recorded executions over a chosen window (or of params typed as JSON,
 * for a rule that records none) on the draft and on the latest published
 * version, followed until its task ends. The report is shown as a rule
 * author reads it before a publish: how many outcomes change, which rows
 * answer more or less often, which output fields move and by how much, and
 * the changed cases themselves, each of which opens in the test panel.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { type Task, taskEnded, useFollowTask } from '../ui/follow-task.ts';
import { JsonField } from '../ui/json-field.tsx';
import { compact, isJsonObject, parseValue, pretty } from '../ui/json.ts';
import { usePermit, Why } from '../ui/permitted.tsx';
import { definitionOf, type RuleRecord } from './model.ts';

export type ReplayReport = NonNullable<NonNullable<Task['replay']>['report']>;
type ChangedCase = ReplayReport['sample'][number];
type CaseSide = ChangedCase['baseline'];
type UnitHits = ReplayReport['hits']['baseline'][number];

/** The windows offered, in days back from now. */
const windows = [1, 7, 30] as const;
const dayMs = 86_400_000;
/** A replay of the largest window finishes well within this on the local runtime; past it the page stops asking and says so. */
const followForMs = 5 * 60_000;

type Source = 'executions' | 'paramsList';

interface Props {
  rule: RuleRecord;
  dirty: boolean;
  /** Opens the test panel with these params filled in. */
  onOpenCase(params: Record<string, unknown>): void;
}

const recordsExecutions = (rule: RuleRecord) => (definitionOf(rule) as { settings?: { recordExecutions?: boolean } }).settings?.recordExecutions === true;

export function ImpactPanel({ rule, dirty, onOpenCase }: Props) {
  const { api } = useConsole();
  const permit = usePermit('replayRule');
  const recording = recordsExecutions(rule);
  const [source, setSource] = useState<Source>(recording ? 'executions' : 'paramsList');
  const [days, setDays] = useState<number>(7);
  const [paramsText, setParamsText] = useState('[\n  {}\n]');
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<unknown>();
  const [taskId, setTaskId] = useState<string>();
  const follow = useFollowTask(taskId, undefined, followForMs);

  const paramsList = parseValue(paramsText);
  const listProblem = !paramsList.ok
    ? paramsList.error
    : !Array.isArray(paramsList.value) || !paramsList.value.every(isJsonObject)
      ? 'Must be a JSON list of params objects, such as [{"amount": 120}].'
      : undefined;

  const run = async (event: Event) => {
    event.preventDefault();
    setStarting(true);
    setStartError(undefined);
    setTaskId(undefined);
    try {
      const body =
        source === 'executions'
          ? { candidate: 'draft', source: { executions: { from: new Date(Date.now() - days * dayMs).toISOString() } } }
          : { candidate: 'draft', source: { paramsList: (paramsList as { value: Record<string, unknown>[] }).value } };
      const accepted = await api.data(
        api.client.POST('/dev/v1/{entityType}/{entityId}/replay', { params: { path: { entityType: 'rule', entityId: rule.id } }, body }),
      );
      setTaskId(accepted.taskId);
    } catch (failure) {
      setStartError(failure);
    } finally {
      setStarting(false);
    }
  };

  const task = follow.task;
  const running = starting || (!!taskId && follow.error === undefined && !(task && taskEnded(task)));
  const report = task?.taskState === 'completed' ? task.replay?.report : undefined;

  return (
    <section class="card impact" aria-labelledby="impact-title">
      <h2 id="impact-title">Impact</h2>
      <p class="hint">
        Replays inputs on the saved draft and on the latest published version{rule.version ? ` (${rule.version})` : ''}, and shows what the draft would change.
      </p>
      {!rule.version ? (
        <p class="warning" role="note">
          This rule was never published: there are no decisions to compare the draft with. Publish it first; its executions can then be replayed.
        </p>
      ) : (
        <form class="impact-form" aria-label="Run a replay" onSubmit={run}>
          <fieldset>
            <legend>Inputs</legend>
            <label>
              <input type="radio" name="impact-source" checked={source === 'executions'} onChange={() => setSource('executions')} />
              Recorded executions
            </label>
            <label>
              <input type="radio" name="impact-source" checked={source === 'paramsList'} onChange={() => setSource('paramsList')} />
              Params typed as JSON
            </label>
          </fieldset>
          {source === 'executions' ? (
            <>
              <label>
                Window
                <select value={String(days)} onChange={(event) => setDays(Number(event.currentTarget.value))}>
                  {windows.map((each) => (
                    <option key={each} value={String(each)}>
                      Last {each === 1 ? 'day' : `${each} days`}
                    </option>
                  ))}
                </select>
              </label>
              {!recording && (
                <p class="warning" role="note">
                  This rule does not record its executions (settings.recordExecutions is off): only scheduled runs were recorded. Replay params typed as JSON
                  instead.
                </p>
              )}
            </>
          ) : (
            <JsonField label="Params list (JSON)" text={paramsText} onText={setParamsText} rows={6} />
          )}
          {source === 'paramsList' && listProblem && paramsList.ok && <p class="problem">{listProblem}</p>}
          <div class="actions">
            <button type="submit" disabled={running || !permit.allowed || (source === 'paramsList' && !!listProblem)} aria-describedby={permit.describedBy}>
              {running ? 'Replaying…' : 'Run replay'}
            </button>
            {dirty && <span class="hint">You have unsaved changes: the replay runs the draft as last saved.</span>}
          </div>
          <Why permits={[permit]} />
        </form>
      )}
      <Failure error={startError} title="The replay did not start" />
      {follow.error !== undefined && (
        <>
          <Failure error={follow.error} title="Could not follow the replay" />
          <button type="button" class="secondary" onClick={follow.retry}>
            Ask again
          </button>
        </>
      )}
      {running && taskId && <p role="status">Replaying… {task?.shards ? `${task.shards.done} of ${task.shards.count} parts done.` : ''}</p>}
      {task?.taskState === 'failed' && <Failure error={new Error(task.error ?? 'The replay failed.')} title="The replay failed" />}
      {report && <ReportView report={report} source={source} onOpenCase={onOpenCase} />}
    </section>
  );
}

function ReportView({ report, source, onOpenCase }: { report: ReplayReport; source: Source; onOpenCase: Props['onOpenCase'] }) {
  const { counts } = report;
  if (counts.inputs === 0)
    return (
      <p role="status">
        {source === 'executions'
          ? 'No recorded executions in this window: nothing to replay. Choose a longer window, or replay params typed as JSON.'
          : 'No inputs were replayed.'}
      </p>
    );
  return (
    <div class="impact-report">
      <p role="status">
        Replayed {counts.inputs} input{counts.inputs === 1 ? '' : 's'}: {counts.changed + counts.newlyFailing + counts.newlySucceeding} would change.
      </p>
      <dl class="facts impact-counts" aria-label="Replay counts">
        <dt>Inputs</dt>
        <dd>{counts.inputs}</dd>
        <dt>Same output</dt>
        <dd>{counts.same}</dd>
        <dt>Changed output</dt>
        <dd>{counts.changed}</dd>
        <dt>Newly failing</dt>
        <dd>{counts.newlyFailing}</dd>
        <dt>Newly succeeding</dt>
        <dd>{counts.newlySucceeding}</dd>
        <dt>Failing on both</dt>
        <dd>{counts.bothFailing}</dd>
      </dl>
      <RowDeltas hits={report.hits} />
      <FieldTallies report={report} />
      <ChangedCases sample={report.sample} changed={counts.changed + counts.newlyFailing + counts.newlySucceeding} onOpenCase={onOpenCase} />
    </div>
  );
}

/** A row, entry or branch in both sides: by its id when it has one (it may have moved), else by its name. */
const unitKey = (unit: UnitHits) => unit.id ?? unit.name;
const unitLabel = (unit: UnitHits) => (unit.id ? `${unit.name} (${unit.id})` : unit.name);
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

function RowDeltas({ hits }: { hits: ReplayReport['hits'] }) {
  const baseline = new Map(hits.baseline.map((unit) => [unitKey(unit), unit]));
  const candidateKeys = new Set(hits.candidate.map(unitKey));
  const rows = [
    ...hits.candidate.map((unit) => ({ label: unitLabel(unit), candidate: unit.hits, baseline: baseline.get(unitKey(unit))?.hits })),
    ...hits.baseline.filter((unit) => !candidateKeys.has(unitKey(unit))).map((unit) => ({ label: unitLabel(unit), candidate: undefined, baseline: unit.hits })),
  ];
  return (
    <div class="scroll">
      <table class="impact-rows">
        <caption>Answers per row, entry or branch</caption>
        <thead>
          <tr>
            <th scope="col">Part</th>
            <th scope="col">Published</th>
            <th scope="col">Draft</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const delta = (row.candidate ?? 0) - (row.baseline ?? 0);
            return (
              <tr key={row.label} class={delta ? 'changed-row' : undefined}>
                <th scope="row">{row.label}</th>
                <td>{row.baseline ?? 'not in the published version'}</td>
                <td>{row.candidate ?? 'not in the draft'}</td>
                <td>{signed(delta)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {hits.notListed && (hits.notListed.baseline > 0 || hits.notListed.candidate > 0) && (
        <p class="hint">
          {hits.notListed.baseline} published and {hits.notListed.candidate} draft parts are not listed (too many to show).
        </p>
      )}
    </div>
  );
}

function FieldTallies({ report }: { report: ReplayReport }) {
  if (report.fields.length === 0) return null;
  return (
    <div class="scroll">
      <table class="impact-fields">
        <caption>Output fields that changed</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Changed</th>
            <th scope="col">Mean change</th>
            <th scope="col">Least</th>
            <th scope="col">Most</th>
          </tr>
        </thead>
        <tbody>
          {report.fields.map((field) => (
            <tr key={field.field}>
              <th scope="row">
                <code>{field.field}</code>
              </th>
              <td>{field.changed}</td>
              <td>{field.delta ? signed(field.delta.mean) : '—'}</td>
              <td>{field.delta ? signed(field.delta.min) : '—'}</td>
              <td>{field.delta ? signed(field.delta.max) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {(report.moreFields ?? 0) > 0 && <p class="hint">{report.moreFields} more fields changed.</p>}
      {report.fieldsNotTracked && <p class="hint">Outputs had too many fields to tally them all.</p>}
    </div>
  );
}

function ChangedCases({ sample, changed, onOpenCase }: { sample: ChangedCase[]; changed: number; onOpenCase: Props['onOpenCase'] }) {
  if (sample.length === 0) return null;
  return (
    <section class="changed-cases" aria-labelledby="changed-cases-title">
      <h3 id="changed-cases-title">Changed cases{changed > sample.length ? ` (the first ${sample.length} of ${changed})` : ''}</h3>
      <ol>
        {sample.map((each) => {
          const params = isJsonObject(each.input) ? each.input : undefined;
          const name = `Input ${each.inputIndex + 1}`;
          const headingId = `changed-case-${each.inputIndex}`;
          return (
            <li key={each.inputIndex} class="changed-case" aria-labelledby={headingId}>
              <h4 id={headingId}>
                {name}
                {each.executionId && <span class="muted"> · execution {each.executionId}</span>}
              </h4>
              {each.omitted ? (
                <p class="hint">Larger than the report keeps: its input and outputs are left out.</p>
              ) : (
                <>
                  <pre aria-label={`${name} params`}>{pretty(each.input)}</pre>
                  <div class="columns">
                    <CaseSideView title="Published" side={each.baseline} />
                    <CaseSideView title="Draft" side={each.candidate} />
                  </div>
                </>
              )}
              <button type="button" class="secondary" disabled={!params} onClick={() => params && onOpenCase(params)} aria-describedby={headingId}>
                Open in test panel
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function CaseSideView({ title, side }: { title: string; side: CaseSide }) {
  return (
    <div class="case-side">
      <h5>{title}</h5>
      {side.error ? (
        <p class="problem">
          Failed: {side.error.code}
          {side.error.message ? ` — ${side.error.message}` : ''}
        </p>
      ) : (
        <pre>{compact(side.output)}</pre>
      )}
      <p>
        Matched: {side.hits.length ? side.hits.join(', ') : 'nothing'}
        {side.moreHits ? ` and ${side.moreHits} more` : ''}
      </p>
    </div>
  );
}
