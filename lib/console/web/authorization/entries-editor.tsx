/**
 * Name → value entries (an integration's headers, a step's query, headers,
 * inputs or output) as rows a person can add, change and remove. Rows keep
 * their own order and may be half-typed (no name yet); what is passed up is
 * the map of the named ones, which is what the API stores.
 */
import { useState } from 'preact/hooks';
import { FeelField, type FeelName } from '../feel/feel-field.tsx';
import { Field } from '../ui/field.tsx';

interface Row {
  name: string;
  value: string;
}

export interface EntriesProps {
  legend: string;
  value: Record<string, string>;
  onChange(value: Record<string, string>): void;
  nameLabel: string;
  valueLabel: string;
  /** Values are FEEL: edited as code, with completion of `names`. */
  feel?: boolean;
  names?: readonly FeelName[];
  /** The problem the API gave for an entry, by its name. */
  problemOf?(name: string): string | undefined;
  hint?: string;
}

export function EntriesEditor(props: EntriesProps) {
  const [rows, setRows] = useState<Row[]>(() => Object.entries(props.value).map(([name, value]) => ({ name, value })));
  const update = (next: Row[]) => {
    setRows(next);
    props.onChange(Object.fromEntries(next.filter((row) => row.name.trim() !== '').map((row) => [row.name.trim(), row.value])));
  };
  return (
    <fieldset class="entries">
      <legend>{props.legend}</legend>
      {props.hint && <p class="hint">{props.hint}</p>}
      {rows.length === 0 && <p class="muted">None.</p>}
      {rows.map((row, index) => (
        <EntryRow
          key={index}
          index={index}
          row={row}
          props={props}
          onChange={(changed) => update(rows.map((r, i) => (i === index ? changed : r)))}
          onRemove={() => update(rows.filter((_, i) => i !== index))}
        />
      ))}
      <button type="button" class="secondary" onClick={() => setRows([...rows, { name: '', value: '' }])}>
        Add {props.nameLabel.toLowerCase()}
      </button>
    </fieldset>
  );
}

function EntryRow({ index, row, props, onChange, onRemove }: { index: number; row: Row; props: EntriesProps; onChange(row: Row): void; onRemove(): void }) {
  const n = index + 1;
  const problem = row.name ? props.problemOf?.(row.name.trim()) : undefined;
  return (
    <div class="entry">
      <Field label={`${props.nameLabel} ${n}`} controlClass="code">
        {(control) => <input {...control} value={row.name} spellcheck={false} onInput={(e) => onChange({ ...row, name: e.currentTarget.value })} />}
      </Field>
      <Field label={`${props.valueLabel} ${n}`} class="grow" controlClass={props.feel ? 'code' : ''} problem={problem}>
        {(control) =>
          props.feel ? (
            <FeelField
              kind="expression"
              names={props.names}
              label={`${props.valueLabel} ${n}`}
              id={control.id}
              class={control.class}
              describedBy={control['aria-describedby']}
              problem={problem}
              value={row.value}
              onValue={(value) => onChange({ ...row, value })}
            />
          ) : (
            <input {...control} value={row.value} spellcheck={false} onInput={(e) => onChange({ ...row, value: e.currentTarget.value })} />
          )
        }
      </Field>
      <button
        type="button"
        class="quiet icon"
        aria-label={`Remove ${props.nameLabel.toLowerCase()} ${n}${row.name ? ` (${row.name})` : ''}`}
        onClick={onRemove}
      >
        ✕
      </button>
    </div>
  );
}
