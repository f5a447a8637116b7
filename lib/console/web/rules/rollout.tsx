/**
 * A rule's candidate and its rollout: the saved draft published as a
 * candidate (frozen and numbered, but not what executions get by default),
 * then run beside the served version on live executions, in shadow (every
 * execution, the served answer unchanged) or as a canary (a share of them,
 * sticky by a param). The panel shows what it compared, the agreement rate
 * and the newest disagreements, read again on demand; promoting makes the
 * candidate the served version, ending stops the rollout.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import type { operations } from '../schema.ts';
import { describedBy } from '../ui/described-by.ts';
import { Failure } from '../ui/failure.tsx';
import { compact } from '../ui/json.ts';
import { usePermit, Why } from '../ui/permitted.tsx';
import { PublishOutcome, usePublish } from '../ui/publish.tsx';
import { useLoad } from '../ui/use-load.ts';
import type { RuleRecord } from './model.ts';
import { publishHeld } from './publish-state.ts';

type RolloutView = operations['getRollout']['responses'][200]['content']['application/json']['data'];
type Outcome = RolloutView['disagreements'][number]['baseline'];

const percentBounds = { min: 1, max: 50 };

const countLabels: [keyof NonNullable<RolloutView['counts']>, string][] = [
  ['compared', 'Compared'],
  ['agree', 'Agree'],
  ['disagree', 'Disagree'],
  ['candidateFailed', 'Candidate failed'],
  ['baselineFailed', 'Served version failed'],
  ['servedByCandidate', 'Served by the candidate'],
  ['servedByBaseline', 'Served by the served version'],
  ['notSticky', 'Picked at random (no sticky value)'],
];

interface Props {
  rule: RuleRecord;
  dirty: boolean;
  onChanged(): void;
  onConflict(): void;
}

export function RolloutPanel({ rule, dirty, onChanged, onConflict }: Props) {
  const { api } = useConsole();
  const path = { entityType: 'rule' as const, entityId: rule.id };
  const loaded = useLoad(() => api.data(api.client.GET('/dev/v1/{entityType}/{entityId}/rollout', { params: { path } })), [rule.id, rule.checksum]);
  const changed = () => {
    loaded.reload();
    onChanged();
  };
  const candidatePublish = usePublish('rule', rule.id, { published: changed, conflict: onConflict }, rule.checksum);
  const held = publishHeld(rule, dirty, 'candidate');
  const heldNote = useId();
  const permits = {
    publish: usePermit('publishEntity'),
    start: usePermit('startRollout'),
    promote: usePermit('promoteCandidate'),
    end: usePermit('endRollout'),
  };
  const [mode, setMode] = useState<'shadow' | 'canary'>('shadow');
  const [percent, setPercent] = useState('5');
  const [stickyBy, setStickyBy] = useState('');
  const [acting, setActing] = useState(false);
  const [error, setError] = useState<unknown>();

  const act = async (call: () => Promise<unknown>) => {
    setActing(true);
    setError(undefined);
    try {
      await call();
      changed();
    } catch (failure) {
      setError(failure);
    } finally {
      setActing(false);
    }
  };

  const view = loaded.value;
  const candidate = view?.candidate?.version;
  const running = view?.rollout?.state === 'running' ? view.rollout : undefined;
  // The form starts from the rollout that runs, read again after each change: a reload must not offer to switch a running canary to shadow.
  const runningAs = running && `${running.candidate} ${running.mode} ${running.percent ?? ''} ${running.stickyBy ?? ''}`;
  useEffect(() => {
    if (!running) return;
    setMode(running.mode);
    setPercent(String(running.percent ?? 5));
    setStickyBy(running.stickyBy ?? '');
  }, [runningAs]);
  const percentValue = Number(percent);
  const percentOk = Number.isInteger(percentValue) && percentValue >= percentBounds.min && percentValue <= percentBounds.max;

  const start = (event: Event) => {
    event.preventDefault();
    if (!candidate) return;
    const body = mode === 'shadow' ? { candidate, mode } : { candidate, mode, percent: percentValue, ...(stickyBy.trim() && { stickyBy: stickyBy.trim() }) };
    void act(() => api.data(api.client.PUT('/dev/v1/{entityType}/{entityId}/rollout', { params: { path }, body })));
  };

  return (
    <section class="card rollout" aria-labelledby="rollout-title">
      <h2 id="rollout-title">Candidate and rollout</h2>
      <p class="hint">
        A candidate is a published version that executions get only through a rollout, or by naming it, until it is promoted. Serving now:{' '}
        {view?.version || 'no version'}.
      </p>
      <p class="hint">
        Only single executions take part in a rollout. A batch (paramsList) is always answered by the served version, or the version it names, and its inputs
        are not counted here; executions that name a version, scheduled runs and workflow steps take no part either.
      </p>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          onClick={() => candidatePublish.publish({ checksum: rule.checksum, candidate: true })}
          disabled={candidatePublish.publishing || !!held || !permits.publish.allowed}
          aria-describedby={describedBy(permits.publish.describedBy, held && heldNote)}
        >
          {candidatePublish.publishing ? 'Publishing…' : 'Publish as candidate'}
        </button>
        {held && (
          <span class="hint" id={heldNote}>
            {held}
          </span>
        )}
      </div>
      <PublishOutcome published={candidatePublish.published} error={candidatePublish.error} />
      <Failure error={loaded.error} title="Could not read the rollout" />

      {candidate && (
        <form class="rollout-form" aria-label="Start a rollout" onSubmit={start}>
          <p>
            Candidate: <strong>{candidate}</strong>
          </p>
          <label>
            Mode
            <select value={mode} onChange={(event) => setMode(event.currentTarget.value as 'shadow' | 'canary')}>
              <option value="shadow">Shadow: run beside every execution, answer unchanged</option>
              <option value="canary">Canary: answer a share of executions</option>
            </select>
          </label>
          {mode === 'canary' && (
            <>
              <label>
                Percent of executions
                <input
                  type="number"
                  min={percentBounds.min}
                  max={percentBounds.max}
                  step={1}
                  value={percent}
                  aria-invalid={!percentOk}
                  onInput={(event) => setPercent(event.currentTarget.value)}
                />
              </label>
              <label>
                Sticky by (param path, such as customer.id)
                <input type="text" value={stickyBy} onInput={(event) => setStickyBy(event.currentTarget.value)} />
              </label>
              {!percentOk && (
                <p class="problem">
                  The percent must be a whole number from {percentBounds.min} to {percentBounds.max}.
                </p>
              )}
            </>
          )}
          <div class="actions">
            <button type="submit" disabled={acting || !permits.start.allowed || (mode === 'canary' && !percentOk)} aria-describedby={permits.start.describedBy}>
              {running ? 'Change rollout' : 'Start rollout'}
            </button>
          </div>
        </form>
      )}
      <Why permits={[permits.publish, permits.start, permits.promote, permits.end]} />
      <Failure error={error} title="The rollout did not change" />

      {view?.rollout && (
        <div class="rollout-watch">
          <h3>
            {view.rollout.mode === 'shadow' ? 'Shadow' : `Canary (${view.rollout.percent ?? 0} %)`} of {view.rollout.candidate}:{' '}
            <span class={`badge ${view.rollout.state === 'running' ? 'running' : 'completed'}`}>{view.rollout.state}</span>
          </h3>
          {view.rollout.stickyBy && (
            <p>
              Sticky by <code>{view.rollout.stickyBy}</code>
            </p>
          )}
          <p role="status">Agreement rate: {view.agreementRate === null ? 'nothing compared yet' : `${(view.agreementRate * 100).toFixed(2)} %`}</p>
          {view.counts && (
            <dl class="facts" aria-label="Rollout counts">
              {countLabels.map(([key, label]) => [<dt key={`${key}-t`}>{label}</dt>, <dd key={`${key}-d`}>{view.counts![key]}</dd>])}
            </dl>
          )}
          <div class="actions">
            <button type="button" class="secondary" onClick={loaded.reload} disabled={loaded.loading}>
              Refresh
            </button>
            {running && (
              <>
                <button
                  type="button"
                  disabled={acting || !permits.promote.allowed}
                  aria-describedby={permits.promote.describedBy}
                  onClick={() =>
                    act(() =>
                      api.data(
                        api.client.POST('/dev/v1/{entityType}/{entityId}/rollout/promote', { params: { path }, body: { candidate: running.candidate } }),
                      ),
                    )
                  }
                >
                  Promote {running.candidate}
                </button>
                <button
                  type="button"
                  class="danger"
                  disabled={acting || !permits.end.allowed}
                  aria-describedby={permits.end.describedBy}
                  onClick={() => act(() => api.data(api.client.DELETE('/dev/v1/{entityType}/{entityId}/rollout', { params: { path } })))}
                >
                  End rollout
                </button>
              </>
            )}
          </div>
          <Disagreements view={view} />
        </div>
      )}
    </section>
  );
}

function Disagreements({ view }: { view: RolloutView }) {
  if (view.disagreements.length === 0) return <p class="hint">No disagreement sampled.</p>;
  return (
    <div class="scroll">
      <table class="disagreements">
        <caption>Newest disagreements</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Params</th>
            <th scope="col">Served version</th>
            <th scope="col">Candidate</th>
          </tr>
        </thead>
        <tbody>
          {view.disagreements.map((each) => (
            <tr key={each.executionId}>
              <th scope="row">{new Date(each.at).toLocaleString()}</th>
              <td>
                <pre>{compact(each.input)}</pre>
              </td>
              <td>
                <OutcomeView outcome={each.baseline} served={each.servedBy === 'baseline'} />
              </td>
              <td>
                <OutcomeView outcome={each.candidate} served={each.servedBy === 'candidate'} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OutcomeView({ outcome, served }: { outcome: Outcome; served: boolean }) {
  return (
    <>
      <div class="muted">
        {outcome.version}
        {served ? ' (answered the caller)' : ''}
      </div>
      {outcome.error ? (
        <p class="problem">
          Failed: {outcome.error.code} — {outcome.error.message}
        </p>
      ) : outcome.outputOmitted ? (
        <p class="hint">Output too large to keep.</p>
      ) : (
        <pre>{compact(outcome.output)}</pre>
      )}
    </>
  );
}
