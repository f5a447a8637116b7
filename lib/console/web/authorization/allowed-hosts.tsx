/**
 * A credential's allowed hosts, as people type them: one per line or comma
 * separated. The same field serves the New Authentication form, where the
 * API requires them, and the panel that changes them.
 */
import type { Ref } from 'preact';
import { Field } from '../ui/field.tsx';

/** The hosts typed, as the API takes them. */
export const hostList = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** What the API said of the hosts: of the list, or of a host it refused (named, since the API gives its place in the list). */
function hostsProblem(problems: ReadonlyMap<string, string>, hosts: string[]) {
  const said = [...problems].flatMap(([field, message]) => {
    if (field === 'allowedHosts') return [message];
    const at = /^allowedHosts\[(\d+)\]$/.exec(field);
    return at ? [`${hosts[Number(at[1])] ?? `host ${Number(at[1]) + 1}`}: ${message}`] : [];
  });
  return said.length ? said.join('; ') : undefined;
}

export function AllowedHostsField(props: {
  value: string;
  onInput(value: string): void;
  problems: ReadonlyMap<string, string>;
  /** For a panel that opens on this field. */
  controlRef?: Ref<HTMLTextAreaElement>;
}) {
  return (
    <Field
      label="Allowed hosts"
      class="full"
      controlClass="code"
      hint="one per line or comma separated: api.example.com, *.example.com, with an optional :port. The key is sent to no other host."
      problem={hostsProblem(props.problems, hostList(props.value))}
    >
      {(control) => (
        <textarea
          {...control}
          ref={props.controlRef}
          required
          rows={3}
          spellcheck={false}
          value={props.value}
          onInput={(e) => props.onInput(e.currentTarget.value)}
          placeholder="api.example.com"
        />
      )}
    </Field>
  );
}
