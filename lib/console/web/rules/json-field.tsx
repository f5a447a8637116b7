/**
 * JSON typed by hand (a test's params, a case's expected output, a
 * schedule's params): a textarea whose parse error is shown under it as it is
 * typed, tied to it for screen readers, so nothing unparsed is ever sent.
 */
import { markId } from './marks.tsx';

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** The text's value, or why it is not JSON (or not an object, when one is needed). */
export function parseJson(text: string, options: { object?: boolean } = {}): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (options.object && (typeof value !== 'object' || value === null || Array.isArray(value))) return { ok: false, error: 'Must be a JSON object, such as {"age": 30}.' };
  return { ok: true, value };
}

interface Props {
  label: string;
  /** Unique on the page: names the element that holds the error. */
  name: string;
  text: string;
  onText(text: string): void;
  object?: boolean;
  rows?: number;
}

export function JsonField({ label, name, text, onText, object, rows = 5 }: Props) {
  const parsed = parseJson(text, { object });
  const errorId = markId(`json-${name}`);
  return (
    <label class="field json-field">
      {label}
      <textarea
        class={parsed.ok ? 'code' : 'code cell-error'}
        rows={rows}
        spellcheck={false}
        value={text}
        aria-invalid={!parsed.ok || undefined}
        aria-describedby={parsed.ok ? undefined : errorId}
        onInput={(event) => onText(event.currentTarget.value)}
      />
      {!parsed.ok && (
        <span id={errorId} class="problem">
          {parsed.error}
        </span>
      )}
    </label>
  );
}
