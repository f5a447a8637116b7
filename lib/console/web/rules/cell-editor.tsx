/**
 * A grid cell being edited: it opens with the cell's text (or the key typed
 * over it) and the caret at its end. Enter keeps the text and goes down,
 * Tab across, Escape leaves the cell as it was; leaving the cell otherwise
 * keeps the text, as a spreadsheet does.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { GridPoint } from './grid-model.ts';

interface Props {
  label: string;
  text: string;
  /** The FEEL the cell holds, or none (a description). */
  feel: 'unaryTests' | 'expression' | undefined;
  names: readonly { name: string; detail?: string }[];
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

export function FeelCellEditor({ label, text, onCommit, onCancel }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  useLayoutEffect(() => {
    const element = input.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);
  const finish = (act: () => void) => {
    if (done.current) return;
    done.current = true;
    act();
  };
  return (
    <input
      ref={input}
      class="cell-editor code"
      aria-label={label}
      spellcheck={false}
      value={text}
      onKeyDown={(event) => {
        const ending = editorKey(event);
        if (!ending) return;
        event.preventDefault();
        event.stopPropagation();
        const value = event.currentTarget.value;
        finish(() => (ending === 'cancel' ? onCancel() : onCommit(value, ending.move)));
      }}
      onBlur={(event) => {
        const value = event.currentTarget.value;
        finish(() => onCommit(value));
      }}
    />
  );
}
