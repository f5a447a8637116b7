/**
 * An output column's values beyond its cells: the allowed values, an ordered
 * list whose order ranks rows for the `priority` and `outputOrder` hit
 * policies (first is highest), and the default answered when no row matches.
 * Allowed values are values, written as FEEL literals; text that is none is
 * said at once on its field and held as null, which the API refuses, so
 * nothing half-typed is ever saved as something else. The default is an
 * output entry like a cell, and keeps the cells' round-trip rule.
 */
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { OutputEntry } from '../../../engine/definitions.ts';
import { MarkedInput, TextField, type Marks, type Touched } from './marks.tsx';
import { sameJson } from '../ui/json.ts';
import { allowedOf, allowedText, entryOf, entryText } from './model.ts';
import { moved, without } from './reorder.ts';

interface AllowedValuesProps {
  values: readonly OutputEntry[] | undefined;
  /** The output's path: `definition.outputs[0]`. */
  path: string;
  /** Which output, for the accessible names: `of output 1`. */
  context: string;
  marks: Marks;
  /** The new list, or undefined for none (the API takes no empty list). */
  onValues(next: OutputEntry[] | undefined, touched: Touched): void;
}

/** What a text commits: its value, or null for text that is no literal. */
const committed = (text: string, previous: OutputEntry | undefined) => {
  const parsed = allowedOf(text, previous);
  return parsed.ok ? parsed.value : null;
};

export function AllowedValues({ values, path, context, marks, onValues }: AllowedValuesProps) {
  const list = values ?? [];
  const hintId = useId();
  const box = useRef<HTMLFieldSetElement>(null);
  // The text typed into each slot, moved with its value: shown while it still stands for the slot's value, so typing is never rewritten under the cursor.
  const [texts, setTexts] = useState<(string | undefined)[]>([]);
  const textsNow = list.map((_, i) => texts[i]);
  // After an add, a move or a delete, focus goes where the keyboard user expects it (by accessible name, within this list).
  const focusNext = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    const target = box.current?.querySelector<HTMLElement>(`[aria-label="${CSS.escape(focusNext.current)}"]`);
    focusNext.current = undefined;
    target?.focus();
  });

  const shown = (i: number) => {
    const text = textsNow[i];
    return text !== undefined && sameJson(committed(text, list[i]), list[i]) ? text : allowedText(list[i]);
  };
  const nameOf = (i: number) => shown(i).trim() || String(i + 1);
  const fieldLabel = (i: number) => `Allowed value ${i + 1} ${context}`;

  const edit = (i: number, text: string) => {
    setTexts(textsNow.map((each, j) => (j === i ? text : each)));
    onValues(
      list.map((value, j) => (j === i ? committed(text, value) : value)),
      `${path}.allowedValues[${i}]`,
    );
  };
  const add = () => {
    setTexts([...textsNow, '']);
    onValues([...list, null], 'structure');
    focusNext.current = fieldLabel(list.length);
  };
  const move = (i: number, to: number) => {
    const name = nameOf(i);
    setTexts(moved(textsNow, i, to));
    onValues(moved(list, i, to), 'structure');
    const up = to < i;
    const atEnd = up ? to === 0 : to === list.length - 1;
    focusNext.current = `Move allowed value ${name} ${up !== atEnd ? 'up' : 'down'}`;
  };
  const remove = (i: number) => {
    setTexts(without(textsNow, i));
    const next = without(list, i);
    onValues(next.length ? next : undefined, 'structure');
    focusNext.current = `Add allowed value ${context}`;
  };

  return (
    <fieldset class="allowed-values" ref={box} aria-describedby={hintId}>
      <legend>
        Allowed values<span class="visually-hidden"> {context}</span>
      </legend>
      <span class="hint" id={hintId}>
        First ranks highest: under the hit policies priority and output order, this order ranks the rows.
      </span>
      {list.length > 0 && (
        <ol>
          {list.map((_, i) => {
            const text = shown(i);
            const parsed = allowedOf(text, list[i]);
            const name = nameOf(i);
            return (
              <li key={i}>
                <div class="allowed-value">
                  <MarkedInput
                    label={fieldLabel(i)}
                    path={`${path}.allowedValues[${i}]`}
                    marks={marks}
                    value={text}
                    pageProblem={!parsed.ok && text.trim() ? parsed.error : undefined}
                    onValue={(next) => edit(i, next)}
                    code
                  />
                  <button type="button" class="icon secondary" aria-label={`Move allowed value ${name} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>
                    ↑
                  </button>
                  <button
                    type="button"
                    class="icon secondary"
                    aria-label={`Move allowed value ${name} down`}
                    disabled={i === list.length - 1}
                    onClick={() => move(i, i + 1)}
                  >
                    ↓
                  </button>
                  <button type="button" class="icon secondary" aria-label={`Delete allowed value ${name}`} onClick={() => remove(i)}>
                    ✕
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <button type="button" class="secondary" aria-label={`Add allowed value ${context}`} onClick={add}>
        Add allowed value
      </button>
    </fieldset>
  );
}

/** The default output entry: FEEL or a literal like a cell, or empty for none. */
export function DefaultField({
  value,
  path,
  context,
  marks,
  onValue,
}: {
  value: OutputEntry | undefined;
  path: string;
  context: string;
  marks: Marks;
  onValue(next: OutputEntry | undefined): void;
}) {
  return (
    <TextField
      label="Default"
      context={context}
      path={`${path}.default`}
      marks={marks}
      value={value === undefined ? '' : entryText(value)}
      onValue={(text) => onValue(text.trim() ? entryOf(text, value) : undefined)}
      placeholder="none"
      feel="expression"
    />
  );
}
