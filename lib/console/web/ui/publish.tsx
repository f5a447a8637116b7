/**
 * Publishing a saved draft as the next version, wherever a page offers it: a
 * rule's Publish panel, or a change request once it is approved. The API runs
 * the saved cases first: when it refuses (409 tests_failed) every failing
 * case is shown with what it expected and what came; when it publishes, the
 * new version. The failing-cases table serves a change request's results too.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import type { EntityType } from '../route.ts';
import type { operations } from '../schema.ts';
import { Failure } from './failure.tsx';
import { compact } from './json.ts';
import { Notice } from './notice.tsx';

type PublishBody = NonNullable<operations['publishEntity']['requestBody']>['content']['application/json'];

interface FailedCase {
  name: string;
  expected: unknown;
  actual: unknown;
  error?: string;
}

/**
 * The publish call and what it answered; `onConflict` hears of a draft
 * changed since the page read it (409 checksum_mismatch). What it answered is
 * about the draft it published (`checksum`, the saved draft's as the page
 * holds it): once the page holds another (a save), the answer is no longer
 * shown, so that no "Published" or refusal stays on screen about a draft that
 * is gone.
 */
export function usePublish(entityType: EntityType, entityId: string, on: { published(): void; conflict?(): void }, checksum?: string) {
  const { api } = useConsole();
  const [publishing, setPublishing] = useState(false);
  const [answer, setAnswer] = useState<{ of?: string; published?: string; error?: unknown }>({});

  const publish = async (body: PublishBody) => {
    setPublishing(true);
    setAnswer({});
    try {
      const answered = await api.data(api.client.POST('/dev/v1/{entityType}/{entityId}/publish', { params: { path: { entityType, entityId } }, body }));
      setAnswer({ of: checksum, published: answered.version });
      on.published();
    } catch (failure) {
      setAnswer({ of: checksum, error: failure });
      if (failure instanceof ApiFailure && failure.code === 'checksum_mismatch') on.conflict?.();
    } finally {
      setPublishing(false);
    }
  };

  const current = answer.of === checksum ? answer : {};
  return { publish, publishing, published: current.published, error: current.error };
}

/** What a publish answered: the version it made, or why not, with each failing case. */
export function PublishOutcome({ published, error }: { published: string | undefined; error: unknown }) {
  const failures = error instanceof ApiFailure && error.code === 'tests_failed' ? ((error.data as { failures?: FailedCase[] }).failures ?? []) : [];
  return (
    <>
      {published && (
        <Notice>
          Published as <strong>{published}</strong>.
        </Notice>
      )}
      <Failure error={error} title="Not published" />
      <FailingCases
        failures={failures}
        columns={[
          { header: 'Expected', cell: (failed) => <pre>{compact(failed.expected)}</pre> },
          { header: 'Actual', cell: (failed) => (failed.error ? <p class="problem">Error: {failed.error}</p> : <pre>{compact(failed.actual)}</pre>) },
        ]}
      />
    </>
  );
}

/** Failing test cases, a row each: the case's name, then what is known of how it failed (what it expected and what came, or why). */
export function FailingCases<F extends { name: string }>(props: { failures: F[]; columns: { header: string; cell(failed: F): ComponentChildren }[] }) {
  if (props.failures.length === 0) return null;
  return (
    <div class="scroll">
      <table class="failed-cases">
        <caption>Failing cases</caption>
        <thead>
          <tr>
            <th scope="col">Case</th>
            {props.columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.failures.map((failed) => (
            <tr key={failed.name} class="failed-cell">
              <th scope="row">{failed.name}</th>
              {props.columns.map((column) => (
                <td key={column.header}>{column.cell(failed)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
