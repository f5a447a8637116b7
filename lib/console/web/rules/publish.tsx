/**
 * Publishing the saved draft as the next version. The API runs the saved
 * cases first: when it refuses (409 tests_failed) every failing case is shown
 * with what it expected and what came; when it publishes, the new version.
 */
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { compact } from '../ui/json.ts';
import { Notice } from '../ui/notice.tsx';
import { usePermit, Why } from '../ui/permitted.tsx';
import type { RuleRecord } from './model.ts';

interface FailedCase {
  name: string;
  expected: unknown;
  actual: unknown;
  error?: string;
}

interface Props {
  rule: RuleRecord;
  dirty: boolean;
  onPublished(): void;
  onConflict(): void;
}

export function PublishPanel({ rule, dirty, onPublished, onConflict }: Props) {
  const { api } = useConsole();
  const [publishing, setPublishing] = useState(false);
  const [published, setPublished] = useState<string>();
  const [error, setError] = useState<unknown>();
  const permit = usePermit('publishEntity');

  const publish = async () => {
    setPublishing(true);
    setError(undefined);
    setPublished(undefined);
    try {
      const answer = await api.data(
        api.client.POST('/dev/v1/{entityType}/{entityId}/publish', {
          params: { path: { entityType: 'rule', entityId: rule.id } },
          body: { checksum: rule.checksum },
        }),
      );
      setPublished(answer.version);
      onPublished();
    } catch (failure) {
      setError(failure);
      if (failure instanceof ApiFailure && failure.code === 'checksum_mismatch') onConflict();
    } finally {
      setPublishing(false);
    }
  };

  const failures = error instanceof ApiFailure && error.code === 'tests_failed' ? ((error.data as { failures?: FailedCase[] }).failures ?? []) : [];

  return (
    <section class="card" aria-labelledby="publish-title">
      <h2 id="publish-title">Publish</h2>
      <p class="hint">
        Freezes the saved draft as the next version ({rule.version ? `after ${rule.version}` : 'the first'}); executions run the latest published version. Every
        saved case must pass.
      </p>
      <div class="actions">
        <button type="button" onClick={publish} disabled={publishing || dirty || !permit.allowed} aria-describedby={permit.describedBy}>
          {publishing ? 'Publishing…' : 'Publish draft'}
        </button>
        {dirty && <span class="hint">Save your changes first: only the saved draft is published.</span>}
      </div>
      <Why permits={[permit]} />
      {published && (
        <Notice>
          Published as <strong>{published}</strong>.
        </Notice>
      )}
      <Failure error={error} title="Not published" />
      {failures.length > 0 && (
        <div class="scroll">
          <table class="failed-cases">
            <caption>Failing cases</caption>
            <thead>
              <tr>
                <th scope="col">Case</th>
                <th scope="col">Expected</th>
                <th scope="col">Actual</th>
              </tr>
            </thead>
            <tbody>
              {failures.map((failed) => (
                <tr key={failed.name} class="failed-cell">
                  <th scope="row">{failed.name}</th>
                  <td>
                    <pre>{compact(failed.expected)}</pre>
                  </td>
                  <td>{failed.error ? <p class="problem">Error: {failed.error}</p> : <pre>{compact(failed.actual)}</pre>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
