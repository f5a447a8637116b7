/**
 * JSON typed by hand (a test's params, a case's expected output, a step's
 * context): a textarea whose parse error is shown under it as it is typed,
 * tied to it for screen readers, so nothing unparsed is ever sent.
 */
import { Field } from './field.tsx';
import { parseObject, parseValue } from './json.ts';

export function JsonField(props: { label: string; text: string; onText(text: string): void; object?: boolean; rows?: number }) {
  const parsed = props.object ? parseObject(props.text) : parseValue(props.text);
  return (
    <Field label={props.label} class="full json-field" controlClass="code" problem={parsed.ok ? undefined : parsed.error}>
      {(control) => (
        <textarea {...control} rows={props.rows ?? 5} spellcheck={false} value={props.text} onInput={(event) => props.onText(event.currentTarget.value)} />
      )}
    </Field>
  );
}
