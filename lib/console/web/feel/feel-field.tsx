/**
 * A FEEL field edited as code (./code-editor.ts, CodeMirror with the FEEL
 * language): highlighting, completion of the names it may read and of the
 * built-in functions, matching brackets, and the draft check's problem
 * underlined where the check puts it.
 *
 * The editor is a chunk of its own, fetched when the first FEEL field opens,
 * so the console's first load does not carry it. Until it arrives (or when it
 * cannot be had: a page left open across a deployment asks for a chunk that
 * is gone) the field is a plain text box with the same value, name,
 * description and marks, so nothing typed is lost or waits; a field that
 * opens once the chunk is there is an editor at once.
 */
import './feel.css';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { onDemand } from '../ui/on-demand.ts';
import type { FeelName } from './completions.ts';
import type { FeelEditor, FeelEditorOptions, FeelKind } from './code-editor.ts';

export type { FeelName } from './completions.ts';
export type { FeelKind } from './code-editor.ts';

type CodeEditor = typeof import('./code-editor.ts');

const loadCodeEditor = onDemand(() => import('./code-editor.ts'));
/** The editor's module once fetched: fields opened from then on start as editors. */
let loaded: CodeEditor | undefined;

/** Fetches the editor ahead of its first field, so that one opens as an editor at once (the grid asks when it is first focused). */
export const preloadFeelEditor = () =>
  void loadCodeEditor().then((module) => {
    loaded ??= module;
  });

export interface FeelFieldProps {
  /** The accessible name (a visible label beside it may say it too). */
  label: string;
  value: string;
  onValue(text: string): void;
  /** An expression (a condition, a value) or the unary tests of a decision table's input cell. */
  kind: FeelKind;
  /** What the field may read, offered by completion before the built-in functions (./names.ts). */
  names?: readonly FeelName[];
  /** The draft check's problem with this text: underlined where it says ("at line 1, column 4"), else the whole text. */
  problem?: string | undefined;
  /** The id of what describes the field: its problem and warnings. */
  describedBy?: string | undefined;
  /** Marked invalid for assistive technology; by default when there is a problem. */
  invalid?: boolean;
  id?: string | undefined;
  required?: boolean | undefined;
  placeholder?: string | undefined;
  /** Several lines (Enter breaks the line); otherwise one, as a text input. */
  multiline?: boolean | undefined;
  /** Focused when it opens, the cursor at the end of the text (a grid's cell opened for editing). */
  autoFocus?: boolean;
  /**
   * Sees each key before the editor; true when it took the key (a grid's Enter, Escape, Tab): the editor and
   * the browser then leave it alone. While the completion list is open, Enter, Escape and the arrows are the list's.
   */
  onKeyDown?(event: KeyboardEvent): boolean | void;
  onBlur?(): void;
  class?: string | undefined;
}

function editorOptions(props: FeelFieldProps): FeelEditorOptions {
  const invalid = props.invalid ?? props.problem !== undefined;
  return {
    value: props.value,
    kind: props.kind,
    names: props.names ?? [],
    problem: props.problem,
    multiline: props.multiline ?? false,
    placeholder: props.placeholder,
    attributes: {
      'aria-label': props.label,
      'aria-multiline': String(props.multiline ?? false),
      ...(props.id && { id: props.id }),
      ...(props.describedBy && { 'aria-describedby': props.describedBy }),
      ...(invalid && { 'aria-invalid': 'true' }),
      ...(props.required && { 'aria-required': 'true' }),
    },
  };
}

export function FeelField(props: FeelFieldProps) {
  const [codeEditor, setCodeEditor] = useState(loaded);
  const host = useRef<HTMLDivElement>(null);
  const plain = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const editor = useRef<FeelEditor | undefined>(undefined);
  // The plain box's focus and selection when the editor arrives, handed over so that typing goes on where it was.
  const handOver = useRef<{ anchor: number; head: number } | undefined>(undefined);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    if (codeEditor) return;
    let mounted = true;
    void loadCodeEditor().then((module) => {
      if (!module) return;
      loaded = module;
      if (!mounted) return;
      const box = plain.current;
      if (box && box === document.activeElement) handOver.current = { anchor: box.selectionStart ?? 0, head: box.selectionEnd ?? 0 };
      setCodeEditor(module);
    });
    return () => {
      mounted = false;
    };
  }, []);

  useLayoutEffect(() => {
    if (!codeEditor || !host.current) return;
    const made = codeEditor.createFeelEditor(host.current, editorOptions(latest.current), {
      onValue: (text) => latest.current.onValue(text),
      onKeyDown: (event) => latest.current.onKeyDown?.(event),
      onBlur: () => latest.current.onBlur?.(),
    });
    editor.current = made;
    const end = made.view.state.doc.length;
    if (handOver.current || latest.current.autoFocus) made.focus(handOver.current ?? { anchor: end, head: end });
    handOver.current = undefined;
    return () => {
      made.destroy();
      editor.current = undefined;
    };
  }, [codeEditor]);

  useLayoutEffect(() => {
    editor.current?.update(editorOptions(props));
  });

  useLayoutEffect(() => {
    const box = plain.current;
    if (!latest.current.autoFocus || !box) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, []);

  // The marks' classes go on what has the border: the editor's frame (by feel.css), or the plain box.
  if (codeEditor) return <div class={['feel-field', props.multiline && 'multiline', props.class].filter(Boolean).join(' ')} ref={host} />;

  const invalid = props.invalid ?? props.problem !== undefined;
  const shared = {
    id: props.id,
    ref: plain,
    class: ['code', props.class].filter(Boolean).join(' '),
    value: props.value,
    spellcheck: false,
    placeholder: props.placeholder,
    required: props.required,
    'aria-label': props.label,
    'aria-describedby': props.describedBy,
    'aria-invalid': invalid || undefined,
    onInput: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => props.onValue(event.currentTarget.value),
    onKeyDown: (event: KeyboardEvent) => {
      if (props.onKeyDown?.(event) === true) event.preventDefault();
    },
    onBlur: () => props.onBlur?.(),
  };
  return (
    <div class={['feel-field', props.multiline && 'multiline'].filter(Boolean).join(' ')}>
      {props.multiline ? <textarea rows={3} {...shared} /> : <input type="text" {...shared} />}
    </div>
  );
}
