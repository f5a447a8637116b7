/**
 * How the console shows a failed call: the API's own message (written for
 * people), its code, and each field it names. Every error envelope is shown
 * this way, in an alert region that screen readers announce.
 */
import { ApiFailure } from '../api.ts';

export function Failure({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const failure = error instanceof ApiFailure ? error : new ApiFailure(0, 'console_error', error instanceof Error ? error.message : String(error), {});
  const fields = [...failure.fieldProblems];
  const cases = ((failure.data ?? {}) as { failures?: unknown[] }).failures;
  return (
    <div class="failure" role="alert">
      <strong>{title ?? 'That did not work'}</strong>
      <p>{failure.message}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map(([field, message]) => (
            <li key={field}>
              <code>{field}</code>: {message}
            </li>
          ))}
        </ul>
      )}
      {Array.isArray(cases) && cases.length > 0 && <p>{cases.length} saved test case(s) failed; see them below.</p>}
      <p class="muted">
        {failure.status ? `HTTP ${failure.status}` : 'No answer'}
        {failure.code && ` · ${failure.code}`}
      </p>
    </div>
  );
}
