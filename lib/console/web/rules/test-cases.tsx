/**
 * The rule's saved test cases (its definition's `tests`, which publishing
 * runs): listed, added, edited and deleted as part of the draft, and run all
 * at once from here, each through POST /test on the saved draft, with what
 * each expected and what came. A result stays across saves while the case and
 * the rule's logic it ran on are unchanged (`case-runs.ts`).
 */
import { useMemo, useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { JsonField } from '../ui/json-field.tsx';
import { compact, parseObject, parseValue, pretty, sameJson } from '../ui/json.ts';
import { usePermit, Why } from '../ui/permitted.tsx';
import type { RuleRecord, SavedCase } from './model.ts';
import { logicOf, noRuns, outcomeOf, runsOf, type CaseOutcome, type CaseRuns } from './case-runs.ts';
import { replaced, without } from './reorder.ts';

interface Props {
  rule: RuleRecord;
  cases: SavedCase[];
  dirty: boolean;
  onChange(cases: SavedCase[]): void;
  onConflict(): void;
}

export function TestCases({ rule, cases, dirty, onChange, onConflict }: Props) {
  const { api } = useConsole();
  const [editing, setEditing] = useState<number | 'new'>();
  const [runs, setRuns] = useState<CaseRuns>(noRuns);
  const logic = useMemo(() => logicOf(rule), [rule.type, rule.definition]);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();
  const permit = usePermit('testEntity');

  const runAll = async () => {
    setRunning(true);
    setError(undefined);
    // What the cases run on: the saved draft as the page holds it (its checksum), whatever is read meanwhile.
    const ranOn = logic;
    try {
      const outcomes = await Promise.all(
        cases.map(async (ran): Promise<CaseOutcome> => {
          try {
            const answer = await api.data(
              api.client.POST('/dev/v1/{entityType}/{entityId}/test', {
                params: { path: { entityType: 'rule', entityId: rule.id } },
                body: { params: ran.params, checksum: rule.checksum },
              }),
            );
            const actual = 'trace' in answer ? answer.output : undefined;
            return { passed: sameJson(actual, ran.expected), actual };
          } catch (failure) {
            // Params the rule refuses (400) or an evaluation that fails (422) answer the case, as publishing counts them.
            if (failure instanceof ApiFailure && (failure.status === 400 || failure.status === 422)) return { passed: false, error: failure.message };
            throw failure;
          }
        }),
      );
      setRuns(runsOf(cases, outcomes, ranOn));
    } catch (failure) {
      setError(failure);
      if (failure instanceof ApiFailure && failure.code === 'checksum_mismatch') onConflict();
    } finally {
      setRunning(false);
    }
  };

  const current = (at: number) => outcomeOf(runs, cases[at]!, logic);
  const passedCount = cases.filter((_, at) => current(at)?.passed).length;
  const ranCount = cases.filter((_, at) => current(at)).length;

  return (
    <section class="card" aria-labelledby="cases-title">
      <h2 id="cases-title">Saved test cases</h2>
      <p class="hint">Publishing runs every case and refuses when one fails. Cases are part of the draft: save the rule to keep your changes to them.</p>
      <div class="actions">
        <button type="button" onClick={runAll} disabled={running || cases.length === 0 || !permit.allowed} aria-describedby={permit.describedBy}>
          {running ? 'Running…' : 'Run all cases'}
        </button>
        <button type="button" class="secondary" onClick={() => setEditing('new')} disabled={editing !== undefined}>
          Add case
        </button>
        {dirty && <span class="hint">The cases run on the draft as last saved.</span>}
      </div>
      <Why permits={[permit]} />
      {ranCount > 0 && (
        <p role="status" class={passedCount === ranCount ? 'notice' : 'warning'}>
          {passedCount} of {ranCount} cases passed.
        </p>
      )}
      <Failure error={error} title="The cases did not run" />
      {editing === 'new' && (
        <CaseForm
          title="New case"
          initial={{ name: '', params: {}, expected: {} }}
          onApply={(added) => {
            onChange([...cases, added]);
            setEditing(undefined);
          }}
          onCancel={() => setEditing(undefined)}
        />
      )}
      {cases.length === 0 ? (
        <p>No saved cases yet.</p>
      ) : (
        <div class="scroll">
          <table class="cases">
            <caption class="visually-hidden">Saved test cases</caption>
            <thead>
              <tr>
                <th scope="col">Case</th>
                <th scope="col">Params</th>
                <th scope="col">Expected</th>
                <th scope="col">Result</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {cases.map((saved, at) => {
                const run = current(at);
                return editing === at ? (
                  <tr key={at}>
                    <td colSpan={5}>
                      <CaseForm
                        title={`Edit case ${saved.name}`}
                        initial={saved}
                        onApply={(changed) => {
                          onChange(replaced(cases, at, changed));
                          setEditing(undefined);
                        }}
                        onCancel={() => setEditing(undefined)}
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={at} class={run ? (run.passed ? 'matched' : 'failed-cell') : undefined}>
                    <th scope="row">{saved.name}</th>
                    <td>
                      <pre>{compact(saved.params)}</pre>
                    </td>
                    <td>
                      <pre>{compact(saved.expected)}</pre>
                    </td>
                    <td>
                      {!run && <span class="muted">not run</span>}
                      {run?.passed && <span class="badge ok">passed</span>}
                      {run && !run.passed && (
                        <>
                          <span class="badge failed">failed</span>
                          {run.error ? <p class="problem">{run.error}</p> : <pre>{compact(run.actual)}</pre>}
                        </>
                      )}
                    </td>
                    <td class="row-actions">
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Edit case ${saved.name}`}
                        onClick={() => setEditing(at)}
                        disabled={editing !== undefined}
                      >
                        Edit
                      </button>
                      <button type="button" class="secondary" aria-label={`Delete case ${saved.name}`} onClick={() => onChange(without(cases, at))}>
                        Delete
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CaseForm({ title, initial, onApply, onCancel }: { title: string; initial: SavedCase; onApply(next: SavedCase): void; onCancel(): void }) {
  const [name, setName] = useState(initial.name);
  const [paramsText, setParamsText] = useState(pretty(initial.params));
  const [expectedText, setExpectedText] = useState(pretty(initial.expected));
  const params = parseObject(paramsText);
  const expected = parseValue(expectedText);
  return (
    <form
      class="case-form"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        if (params.ok && expected.ok && name.trim()) onApply({ name: name.trim(), params: params.value, expected: expected.value });
      }}
    >
      <label>
        Case name
        <input type="text" required value={name} onInput={(event) => setName(event.currentTarget.value)} />
      </label>
      <div class="columns">
        <JsonField label="Case params (JSON)" text={paramsText} onText={setParamsText} object />
        <JsonField label="Expected output (JSON)" text={expectedText} onText={setExpectedText} />
      </div>
      <div class="actions">
        <button type="submit" disabled={!params.ok || !expected.ok}>
          Apply case
        </button>
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
