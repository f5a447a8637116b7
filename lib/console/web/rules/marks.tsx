/**
 * Problems and warnings shown where they are: a refused save names each field
 * at fault by its path (`definition.rules[2].when[0]`), the analysis names
 * rows, and every editor marks the field of that path with the message tied
 * to it by aria-describedby, so a screen reader reads it with the field.
 */
import type { ComponentChildren } from 'preact';
import { FeelField, type FeelKind, type FeelName } from '../feel/feel-field.tsx';
import { Field, Notes } from '../ui/field.tsx';
import type { Warning } from './model.ts';

export interface Marks {
  /** From the last refused save: path → why. */
  problems: ReadonlyMap<string, string>;
  /** From the last get or save: what the analysis found without refusing. */
  warnings: readonly Warning[];
}

export const noMarks: Marks = { problems: new Map(), warnings: [] };

/** What an edit touched: one field's path (its problem is then cleared), or the shape of the rule (every mark is then out of place). */
export type Touched = string | 'structure';

/** An element id for the messages of a path. */
const markId = (path: string) => `mark-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;

export interface Mark {
  class: string | undefined;
  invalid: boolean;
  describedBy: string | undefined;
  /** The messages to render beside the field (nothing when all is well). */
  note: ComponentChildren;
}

const warningsAt = (marks: Marks, path: string) => marks.warnings.filter((warning) => warning.path === path).map((warning) => warning.message);

/** How the field at `path` is marked: its problem first (one the page found itself, such as text that is no literal, before the last save's), then its warnings. */
export function markOf(marks: Marks, path: string, pageProblem?: string): Mark {
  const problem = pageProblem ?? marks.problems.get(path);
  const warnings = warningsAt(marks, path);
  if (problem === undefined && warnings.length === 0) return { class: undefined, invalid: false, describedBy: undefined, note: null };
  const id = markId(path);
  return {
    class: problem !== undefined ? 'cell-error' : 'cell-warning',
    invalid: problem !== undefined,
    describedBy: id,
    note: <Notes id={id} problem={problem} warnings={warnings} />,
  };
}

/** The warnings no editor field shows: listed above the editor. */
export function WarningList({ warnings }: { warnings: readonly Warning[] }) {
  if (warnings.length === 0) return null;
  return (
    <div class="warning" role="status">
      <strong>The analysis found {warnings.length === 1 ? 'one thing' : `${warnings.length} things`} to look at</strong>
      <ul>
        {warnings.map((warning) => (
          <li key={warning.path + warning.message}>
            <code>{warning.path}</code>: {warning.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

interface TextFieldProps {
  /** The visible label. */
  label: string;
  /** Added to the accessible name, not shown: which column or entry the field belongs to. */
  context?: string;
  path: string;
  marks: Marks;
  value: string;
  onValue(value: string): void;
  code?: boolean;
  /** FEEL: edited as code (feel/feel-field.tsx), with completion of `names`. */
  feel?: FeelKind;
  names?: readonly FeelName[];
  multiline?: boolean;
  required?: boolean;
  placeholder?: string;
  inputMode?: 'numeric';
}

/** A labelled text field with the problem or warnings of its path in place. */
export function TextField({ label, context, path, marks, value, onValue, code, feel, names, multiline, required, placeholder, inputMode }: TextFieldProps) {
  const problem = marks.problems.get(path);
  return (
    <Field
      label={
        <>
          {label}
          {context && <span class="visually-hidden"> {context}</span>}
        </>
      }
      problem={problem}
      warnings={warningsAt(marks, path)}
      controlClass={code || feel ? 'code' : undefined}
    >
      {(control) => {
        if (feel)
          return (
            <FeelField
              kind={feel}
              names={names}
              label={context ? `${label} ${context}` : label}
              id={control.id}
              class={control.class}
              describedBy={control['aria-describedby']}
              problem={problem}
              value={value}
              onValue={onValue}
              multiline={multiline}
              required={required}
              placeholder={placeholder}
            />
          );
        const shared = { ...control, value, required, placeholder, spellcheck: code ? false : undefined };
        return multiline ? (
          <textarea rows={3} {...shared} onInput={(event) => onValue(event.currentTarget.value)} />
        ) : (
          <input type="text" inputMode={inputMode} {...shared} onInput={(event) => onValue(event.currentTarget.value)} />
        );
      }}
    </Field>
  );
}

interface MarkedInputProps {
  /** The accessible name: where a visible label would crowd a grid cell or a list item, the place says the rest. */
  label: string;
  path: string;
  marks: Marks;
  value: string;
  onValue(value: string): void;
  /** A problem the page found in the text itself, shown before any save. */
  pageProblem?: string | undefined;
  code?: boolean;
  /** FEEL: edited as code (feel/feel-field.tsx), with completion of `names`. */
  feel?: FeelKind;
  names?: readonly FeelName[];
  placeholder?: string;
}

/** A text input named by its label alone, with the problem or warnings of its path beside it. */
export function MarkedInput({ label, path, marks, value, onValue, pageProblem, code, feel, names, placeholder }: MarkedInputProps) {
  const mark = markOf(marks, path, pageProblem);
  if (feel)
    return (
      <>
        <FeelField
          kind={feel}
          names={names}
          label={label}
          class={mark.class}
          describedBy={mark.describedBy}
          invalid={mark.invalid}
          problem={pageProblem ?? marks.problems.get(path)}
          placeholder={placeholder}
          value={value}
          onValue={onValue}
        />
        {mark.note}
      </>
    );
  return (
    <>
      <input
        type="text"
        class={[code ? 'code' : '', mark.class ?? ''].join(' ').trim() || undefined}
        aria-label={label}
        aria-invalid={mark.invalid || undefined}
        aria-describedby={mark.describedBy}
        spellcheck={code ? false : undefined}
        placeholder={placeholder}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
      {mark.note}
    </>
  );
}
