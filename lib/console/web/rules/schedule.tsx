/**
 * The rule's schedule on this branch: what is stored, its cron expression and
 * its next runs, and a form to save (or replace) it or delete it. The rule's
 * own record says whether it has one; only then is the schedule read for its
 * next runs, so that opening a rule without one asks nothing that answers 404
 * (a failed request in the browser's console). A rule with none says so and
 * offers the same form. Each field the API refuses is marked in place.
 */
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import type { operations } from '../schema.ts';
import { Confirm } from '../ui/confirm.tsx';
import { Failure } from '../ui/failure.tsx';
import { JsonField } from '../ui/json-field.tsx';
import { parseObject, pretty } from '../ui/json.ts';
import { usePermit, Why } from '../ui/permitted.tsx';
import { useLoad } from '../ui/use-load.ts';
import { markOf, noMarks, TextField, type Marks } from './marks.tsx';

type ScheduleAnswer = operations['getSchedule']['responses'][200]['content']['application/json']['data'];
type Stored = ScheduleAnswer['schedule'];
type Unit = Stored['unit'];

const units: Unit[] = ['minute', 'hour', 'day', 'week', 'month'];
const specFields = [
  ['minute', 'Minute'],
  ['hour', 'Hour'],
  ['dayOfMonth', 'Day of month'],
  ['month', 'Month'],
  ['dayOfWeek', 'Day of week'],
] as const;

/** `scheduled`: whether the rule's record, as the page read it, has a schedule. */
export function SchedulePanel({ ruleId, scheduled }: { ruleId: string; scheduled: boolean }) {
  const { api } = useConsole();
  const path = { entityType: 'rule' as const, entityId: ruleId };
  const loaded = useLoad(async () => {
    if (!scheduled) return undefined;
    // Deleted since the record was read: none, as the record would now say.
    return api.data(api.client.GET('/dev/v1/{entityType}/{entityId}/schedule', { params: { path } })).catch((error: unknown) => {
      if (error instanceof ApiFailure && error.code === 'schedule_not_found') return undefined;
      throw error;
    });
  }, [ruleId, scheduled]);
  // What the last save answered, shown until the schedule is read again.
  const [saved, setSaved] = useState<ScheduleAnswer | null>();
  const current = saved === undefined ? loaded.value : (saved ?? undefined);
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const permit = usePermit('saveSchedule');

  const remove = async () => {
    await api.data(api.client.POST('/dev/v1/{entityType}/{entityId}/schedule', { params: { path }, body: { isDelete: true } }));
    setSaved(null);
    setConfirmingDelete(false);
  };

  return (
    <section class="card" aria-labelledby="schedule-title">
      <h2 id="schedule-title">Schedule</h2>
      <Failure error={loaded.error} title="Could not read the schedule" />
      {!loaded.loading && !loaded.error && (
        <>
          {current ? <ScheduleSummary answer={current} /> : <p>No schedule: the rule runs only when it is called.</p>}
          <div class="actions">
            {!editing && (
              <button type="button" class="secondary" onClick={() => setEditing(true)} disabled={!permit.allowed} aria-describedby={permit.describedBy}>
                {current ? 'Change schedule' : 'Add a schedule'}
              </button>
            )}
            {current && !confirmingDelete && (
              <button
                type="button"
                class="secondary"
                onClick={() => setConfirmingDelete(true)}
                disabled={!permit.allowed}
                aria-describedby={permit.describedBy}
              >
                Delete schedule
              </button>
            )}
          </div>
          <Why permits={[permit]} />
          {confirmingDelete && (
            <Confirm
              question="Delete this schedule?"
              action="Delete the schedule"
              failureTitle="Could not delete the schedule"
              onConfirm={remove}
              onCancel={() => setConfirmingDelete(false)}
            >
              Its recorded runs stay listed.
            </Confirm>
          )}
          {editing && (
            <ScheduleForm
              ruleId={ruleId}
              stored={current?.schedule}
              onSaved={(answer) => {
                setSaved(answer);
                setEditing(false);
              }}
              onCancel={() => setEditing(false)}
            />
          )}
        </>
      )}
    </section>
  );
}

function ScheduleSummary({ answer }: { answer: ScheduleAnswer }) {
  const { schedule } = answer;
  return (
    <div class="schedule-summary">
      <dl class="facts">
        <dt>Runs every</dt>
        <dd>
          {schedule.unit} {schedule.isEnabled ? <span class="badge active">enabled</span> : <span class="badge draft">disabled</span>}
        </dd>
        <dt>Cron expression</dt>
        <dd>
          <code>{answer.expression}</code> in {schedule.timezone}
        </dd>
        {schedule.startAt && (
          <>
            <dt>From</dt>
            <dd>{schedule.startAt}</dd>
          </>
        )}
        {schedule.endAt && (
          <>
            <dt>Until</dt>
            <dd>{schedule.endAt}</dd>
          </>
        )}
        <dt>Params of each run</dt>
        <dd>
          <code>{JSON.stringify(schedule.inputParam)}</code>
        </dd>
      </dl>
      <h3>Next runs</h3>
      {answer.nextRuns.length === 0 ? (
        <p>None{schedule.isEnabled ? '' : ' while it is disabled'}.</p>
      ) : (
        <ol class="next-runs">
          {answer.nextRuns.map((run) => (
            <li key={run.utc}>
              <time dateTime={run.utc}>{run.local}</time> <span class="muted">({run.utc})</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

interface FormState {
  unit: Unit;
  isEnabled: boolean;
  timezone: string;
  startAt: string;
  endAt: string;
  spec: Record<(typeof specFields)[number][0], string>;
  inputText: string;
}

function formOf(stored: Stored | undefined): FormState {
  return {
    unit: stored?.unit ?? 'day',
    isEnabled: stored?.isEnabled ?? true,
    timezone: stored?.timezone ?? '',
    startAt: stored?.startAt ?? '',
    endAt: stored?.endAt ?? '',
    spec: { minute: '', hour: '', dayOfMonth: '', month: '', dayOfWeek: '', ...stored?.spec },
    inputText: pretty(stored?.inputParam ?? {}),
  };
}

function ScheduleForm({
  ruleId,
  stored,
  onSaved,
  onCancel,
}: {
  ruleId: string;
  stored: Stored | undefined;
  onSaved(answer: ScheduleAnswer): void;
  onCancel(): void;
}) {
  const { api } = useConsole();
  const [form, setForm] = useState(() => formOf(stored));
  const [error, setError] = useState<unknown>();
  const [marks, setMarks] = useState<Marks>(noMarks);
  const inputParam = parseObject(form.inputText);
  const set = (change: Partial<FormState>) => setForm({ ...form, ...change });
  const unitMark = markOf(marks, 'unit');

  const save = async (event: Event) => {
    event.preventDefault();
    if (!inputParam.ok) return;
    setError(undefined);
    setMarks(noMarks);
    const spec = Object.fromEntries(Object.entries(form.spec).filter(([, value]) => value.trim() !== ''));
    try {
      const answer = await api.data(
        api.client.POST('/dev/v1/{entityType}/{entityId}/schedule', {
          params: { path: { entityType: 'rule', entityId: ruleId } },
          body: {
            unit: form.unit,
            isEnabled: form.isEnabled,
            ...(form.timezone.trim() && { timezone: form.timezone.trim() }),
            ...(form.startAt.trim() && { startAt: form.startAt.trim() }),
            ...(form.endAt.trim() && { endAt: form.endAt.trim() }),
            ...(Object.keys(spec).length > 0 && { spec }),
            inputParam: inputParam.value as Record<string, unknown>,
          },
        }),
      );
      if ('nextRuns' in answer) onSaved(answer);
    } catch (failure) {
      setError(failure);
      if (failure instanceof ApiFailure) setMarks({ problems: failure.fieldProblems, warnings: [] });
    }
  };

  return (
    <form class="schedule-form" aria-label="Schedule" onSubmit={save}>
      <div class="form-row">
        <div class="field">
          <label>
            Runs every
            <select
              class={unitMark.class}
              aria-describedby={unitMark.describedBy}
              value={form.unit}
              onChange={(event) => set({ unit: event.currentTarget.value as Unit })}
            >
              {units.map((unit) => (
                <option key={unit} value={unit}>
                  {unit}
                </option>
              ))}
            </select>
          </label>
          {unitMark.note}
        </div>
        <label class="inline">
          <input type="checkbox" checked={form.isEnabled} onChange={(event) => set({ isEnabled: event.currentTarget.checked })} />
          Enabled
        </label>
        <TextField label="Time zone" path="timezone" marks={marks} value={form.timezone} placeholder="UTC" onValue={(timezone) => set({ timezone })} />
        <TextField
          label="Not before"
          path="startAt"
          marks={marks}
          value={form.startAt}
          placeholder="2026-01-01T00:00:00Z"
          onValue={(startAt) => set({ startAt })}
        />
        <TextField label="Not after" path="endAt" marks={marks} value={form.endAt} placeholder="2026-12-31T00:00:00Z" onValue={(endAt) => set({ endAt })} />
      </div>
      <fieldset>
        <legend>Cron fields (empty: what the unit implies)</legend>
        <div class="form-row">
          {specFields.map(([field, label]) => (
            <TextField
              key={field}
              label={label}
              path={`spec.${field}`}
              marks={marks}
              value={form.spec[field]}
              code
              onValue={(value) => set({ spec: { ...form.spec, [field]: value } })}
            />
          ))}
        </div>
      </fieldset>
      <JsonField label="Params of each run (JSON)" text={form.inputText} onText={(inputText) => set({ inputText })} object rows={4} />
      {marks.problems.get('inputParam') && <p class="problem">{marks.problems.get('inputParam')}</p>}
      <div class="actions">
        <button type="submit" disabled={!inputParam.ok}>
          Save schedule
        </button>
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <Failure error={error} title="The schedule was not saved" />
    </form>
  );
}
