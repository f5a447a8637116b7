/**
 * Try the rule on params: runs POST /test on the draft as it is on the page
 * (the edits not saved yet too, sent as the draft typed, which the API
 * checks as a save would and never stores; with no such edits, the saved
 * draft by the checksum last read, so what is tested is what the page shows)
 * or on a published version, and shows the output, the time it took and the
 * trace. Another panel (Impact's changed cases) may hand it params to try:
 * they replace what is typed, on the draft.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { JsonField } from '../ui/json-field.tsx';
import { parseObject, pretty } from '../ui/json.ts';
import { usePermit, Why } from '../ui/permitted.tsx';
import { definitionOf, type AnyDefinition, type RuleRecord, type TestAnswer } from './model.ts';
import { TraceView } from './trace.tsx';

/** What is tested: the draft, or a published version by its label. */
const draftTarget = '';

interface Props {
  rule: RuleRecord;
  /** The draft's definition as it is on the page. */
  definition: AnyDefinition;
  /** Whether the page holds edits not saved yet: the draft is then sent as typed. */
  dirty: boolean;
  onConflict(): void;
  /** Params handed from elsewhere; a new object each time, so the same params handed twice fill the field again. */
  filled?: { params: Record<string, unknown> };
}

interface Tested {
  /** What ran, as the status says it. */
  what: string;
  answer: TestAnswer;
  definition: AnyDefinition | undefined;
}

export function TestPanel({ rule, definition: typed, dirty, onConflict, filled }: Props) {
  const { api } = useConsole();
  const firstCase = definitionOf(rule).tests?.[0];
  const [paramsText, setParamsText] = useState(() => pretty(firstCase?.params ?? {}));
  const [target, setTarget] = useState(draftTarget);
  const [running, setRunning] = useState(false);
  const [tested, setTested] = useState<Tested>();
  const [error, setError] = useState<unknown>();
  const parsed = parseObject(paramsText);
  const permit = usePermit('testEntity');

  useEffect(() => {
    if (!filled) return;
    setParamsText(pretty(filled.params));
    setTarget(draftTarget);
  }, [filled]);

  const run = async (event: Event) => {
    event.preventDefault();
    if (!parsed.ok) return;
    setRunning(true);
    setError(undefined);
    try {
      const params = parsed.value as Record<string, unknown>;
      const onDraft = target === draftTarget;
      const body = !onDraft
        ? { params, version: target }
        : dirty
          ? { params, definition: typed as unknown as Record<string, unknown> }
          : { params, checksum: rule.checksum };
      const [answer, definition] = await Promise.all([
        api.data(api.client.POST('/dev/v1/{entityType}/{entityId}/test', { params: { path: { entityType: 'rule', entityId: rule.id } }, body })),
        onDraft
          ? Promise.resolve(typed)
          : api
              .data(
                api.client.GET('/dev/v1/{entityType}/{entityId}', { params: { path: { entityType: 'rule', entityId: rule.id }, query: { version: target } } }),
              )
              .then(definitionOf),
      ]);
      if (!('trace' in answer)) throw new ApiFailure(0, 'console_error', 'The API answered a workflow run for a rule.', {});
      setTested({ what: !onDraft ? target : dirty ? 'the draft as typed (unsaved edits)' : 'the saved draft', answer, definition });
    } catch (failure) {
      setTested(undefined);
      setError(failure);
      if (failure instanceof ApiFailure && failure.code === 'checksum_mismatch') onConflict();
    } finally {
      setRunning(false);
    }
  };

  return (
    <section class="card" aria-labelledby="test-title">
      <h2 id="test-title">Test</h2>
      <form class="test-form" aria-label="Test the rule" onSubmit={run}>
        <label>
          Run against
          <select value={target} onChange={(event) => setTarget(event.currentTarget.value)}>
            <option value={draftTarget}>{dirty ? 'The draft, with its unsaved edits' : 'The saved draft'}</option>
            {rule.versions.map((version) => (
              <option key={version.version} value={version.version}>
                Published {version.version}
              </option>
            ))}
          </select>
        </label>
        <JsonField label="Params (JSON)" text={paramsText} onText={setParamsText} object rows={6} />
        <div class="actions">
          <button type="submit" disabled={!parsed.ok || running || !permit.allowed} aria-describedby={permit.describedBy}>
            {running ? 'Running…' : 'Run test'}
          </button>
          {dirty && target === draftTarget && <span class="hint">Testing unsaved edits: the draft runs as it is on the page, not as last saved.</span>}
        </div>
        <Why permits={[permit]} />
      </form>
      <Failure error={error} title="The test did not run" />
      {tested && (
        <div class="test-result">
          <p role="status">
            Tested {tested.what} in {tested.answer.durationMs} ms.
          </p>
          <h3>Output</h3>
          <pre>{pretty(tested.answer.output)}</pre>
          <h3>Trace</h3>
          <TraceView trace={tested.answer.trace} definition={tested.definition} />
        </div>
      )}
    </section>
  );
}
