/**
 * A grid cell being edited: it opens with the cell's text (or the key typed
 * over it) and the caret at its end. Enter keeps the text and goes down,
 * Tab across, Escape leaves the cell as it was; leaving the cell otherwise
 * keeps the text, as a spreadsheet does.
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { FeelField, type FeelName } from '../feel/feel-field.tsx';
import type { GridPoint } from './grid-model.ts';

interface Props {
  label: string;
  text: string;
  /** The FEEL the cell holds, or none (a description). */
  feel: 'unaryTests' | 'expression' | undefined;
  names: readonly FeelName[];
  problem: string | undefined;
  onCommit(text: string, move?: Partial<GridPoint>): void;
  onCancel(): void;
}

/** Where each key that ends the editing goes. */
export function editorKey(event: KeyboardEvent): { move: Partial<GridPoint> } | 'cancel' | undefined {
  if (event.key === 'Escape') return 'cancel';
  if (event.key === 'Enter' && !event.altKey && !event.ctrlKey && !event.metaKey) return { move: { item: event.shiftKey ? -1 : 1 } };
  if (event.key === 'Tab') return { move: { c: event.shiftKey ? -1 : 1 } };
  return undefined;
}

export function FeelCellEditor({ label, text, feel, names, problem, onCommit, onCancel }: Props) {
  const [value, setValue] = useState(text);
  const latest = useRef(value);
  latest.current = value;
  const host = useRef<HTMLSpanElement>(null);
  const done = useRef(false);
  const finish = (act: () => void) => {
    if (done.current) return;
    done.current = true;
    act();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const ending = editorKey(event);
    if (!ending) return false;
    event.stopPropagation();
    finish(() => (ending === 'cancel' ? onCancel() : onCommit(value, ending.move)));
    return true;
  };
  if (!feel) return <PlainCellEditor label={label} value={value} onValue={setValue} onKeyDown={onKeyDown} onBlur={() => finish(() => onCommit(value))} />;
  // The plain box the field starts as gives way to the code editor when its chunk arrives, taking the focus with it: that
  // blur is no leaving. The cell is left when, once the focus has settled, it is no longer inside.
  const left = () =>
    setTimeout(() => {
      if (!host.current?.contains(document.activeElement)) finish(() => onCommit(latest.current));
    });
  return (
    <span class="cell-editor-host" ref={host}>
      <FeelField
        class="cell-editor"
        label={label}
        kind={feel}
        value={value}
        onValue={setValue}
        names={names}
        problem={problem}
        autoFocus
        onKeyDown={onKeyDown}
        onBlur={left}
      />
    </span>
  );
}

/** A description's editor: plain text, no FEEL. */
function PlainCellEditor(props: { label: string; value: string; onValue(text: string): void; onKeyDown(event: KeyboardEvent): boolean; onBlur(): void }) {
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    const element = input.current;
    element?.focus();
    element?.setSelectionRange(element.value.length, element.value.length);
  }, []);
  return (
    <input
      ref={input}
      class="cell-editor"
      aria-label={props.label}
      value={props.value}
      onInput={(event) => props.onValue(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (props.onKeyDown(event)) event.preventDefault();
      }}
      onBlur={props.onBlur}
    />
  );
}
