/** A JSON object typed by a person (params, a step's context): its text, and the object or why it is not one. */
import { Field } from '../authorization/field.tsx';

export function parseObject(text: string): { value: Record<string, unknown> } | { error: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'must be a JSON object, like {"amount": 10}' };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { error: `is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export function JsonField(props: { label: string; value: string; onInput(text: string): void; problem: string | undefined; rows?: number }) {
  return (
    <Field label={props.label} class="full json-field" controlClass="code" problem={props.problem}>
      {(control) => <textarea {...control} rows={props.rows ?? 6} spellcheck={false} value={props.value} onInput={(e) => props.onInput(e.currentTarget.value)} />}
    </Field>
  );
}

/** A value for people: JSON, indented. */
export const shown = (value: unknown) => JSON.stringify(value, null, 2);
