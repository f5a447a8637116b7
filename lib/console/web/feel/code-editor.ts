/**
 * The FEEL code editor: CodeMirror 6 with the bpmn-io FEEL language
 * (@bpmn-io/lang-feel, over lezer-feel, the grammar the engine parses with).
 * It is a chunk of its own, fetched when the first FEEL field opens
 * (./feel-field.tsx); until then, and if it cannot be had, the field is a
 * plain text box.
 *
 * It gives highlighting (classes, coloured by feel.css so the page's colours
 * and dark mode apply), completion of the names the field may read and of the
 * engine's built-in functions with their signatures, matching brackets (a
 * range's ends, as in `(14..30]`, paired: ./brackets.ts), undo,
 * and the draft check's problem underlined where the check puts it. It checks
 * nothing itself: the draft check (the save's own) is the one source of
 * problems, so the field never disagrees with a save.
 *
 * Why not @bpmn-io/feel-editor, which wraps the same parts: it always lints
 * with its own checker and offers Camunda's built-ins (bundling their
 * documentation), neither of which can be turned off, and it has no undo.
 */
import './adopted-styles.ts';
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  completionStatus,
  snippetCompletion,
  type Completion,
  type CompletionSource,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, syntaxTree } from '@codemirror/language';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Annotation, Compartment, EditorState, Prec, Transaction, type Extension } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { feel, keywordCompletions, snippetCompletion as snippetsWhereExpression, snippets } from '@bpmn-io/lang-feel';
import { tagHighlighter, tags } from '@lezer/highlight';
import { feelBracketMatching } from './brackets.ts';
import { completionsOf, type FeelCompletion, type FeelName } from './completions.ts';
import { problemRanges } from './problem-range.ts';

export type FeelKind = 'expression' | 'unaryTests';

export interface FeelEditorOptions {
  value: string;
  kind: FeelKind;
  names: readonly FeelName[];
  problem: string | undefined;
  /** Set on the editable element: its accessible name, description, id, invalid and required marks. */
  attributes: Record<string, string>;
  multiline: boolean;
  placeholder: string | undefined;
}

export interface FeelEditorEvents {
  onValue(text: string): void;
  /** Sees each key first; true when it took the key (the editor and the browser then leave it alone). While the completion list is open, the keys that work the list are the list's. */
  onKeyDown?(event: KeyboardEvent): boolean | void;
  onBlur?(): void;
}

export interface FeelEditor {
  /** Brings the editor in line with the options (only what changed is changed); a new value replaces the text without being reported back. */
  update(options: FeelEditorOptions): void;
  /** Focuses the editor with the given selection, or the cursor at the end of the text. */
  focus(selection?: { anchor: number; head: number }): void;
  destroy(): void;
  readonly view: EditorView;
}

/** Token classes, coloured by feel.css (so the page's colours and dark mode apply, and no style is made here). */
const highlighter = tagHighlighter([
  { tag: [tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword], class: 'feel-keyword' },
  { tag: [tags.string, tags.special(tags.string)], class: 'feel-string' },
  { tag: tags.number, class: 'feel-number' },
  { tag: [tags.bool, tags.null], class: 'feel-literal' },
  { tag: [tags.function(tags.variableName), tags.standard(tags.function(tags.variableName))], class: 'feel-function' },
  { tag: [tags.variableName, tags.propertyName], class: 'feel-name' },
  { tag: [tags.compareOperator, tags.arithmeticOperator, tags.modifier], class: 'feel-operator' },
  { tag: tags.typeName, class: 'feel-type' },
  { tag: [tags.lineComment, tags.blockComment], class: 'feel-comment' },
]);

/** Text set from outside (the draft changed elsewhere): not reported back, not undone. */
const fromOutside = Annotation.define<true>();

/** The keys a host may not take while the completion list is open: they pick from it. */
const listKeys = new Set(['Enter', 'Escape', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown']);

/** The field's own names come before built-ins that match as well ("coun": country, then count). */
const toCompletion = (c: FeelCompletion): Completion =>
  c.snippet ? snippetCompletion(c.snippet, { label: c.label, detail: c.detail, type: c.type }) : { label: c.label, detail: c.detail, type: c.type, boost: 1 };

/**
 * Offers the names and built-ins where a name is read (not after a dot, not where a name is defined, not in a
 * string or comment), and anywhere when asked (Ctrl+Space). The tree holds a name of several words ("date of
 * birth") as one node, so the completion replaces all of it.
 */
function namesSource(options: readonly Completion[]): CompletionSource {
  return (context) => {
    const node = syntaxTree(context.state).resolveInner(context.pos, -1);
    const name = node.name === 'Identifier' ? node.parent : node;
    if (name?.name === 'VariableName') return { from: name.from, options, validFor: /^[\p{L}\p{N}_?' ]*$/u };
    return context.explicit ? { from: context.pos, options } : null;
  };
}

/** FEEL here has no function values: the snippet that writes one is left out. */
const feelSnippets = snippets.filter((snippet) => snippet.label !== 'function');

function language(kind: FeelKind, names: readonly FeelName[]): Extension {
  const options = completionsOf(names).map(toCompletion);
  return feel({
    dialect: kind,
    // Names of several words parse as one only when the parser is told them, as the engine's parse is.
    context: Object.fromEntries(names.map((n) => [n.name, null])),
    completions: [namesSource(options), snippetsWhereExpression(feelSnippets), ...keywordCompletions],
  });
}

/** A field of one line takes no line breaks: Enter does nothing (a host may take it first), and pasted breaks become spaces. */
const oneLine: Extension = [
  Prec.high(keymap.of([{ key: 'Enter', run: () => true }])),
  EditorState.transactionFilter.of((tr) => {
    if (!tr.docChanged || tr.annotation(fromOutside) || tr.newDoc.lines === 1) return tr;
    const changes: { from: number; to: number; insert: string }[] = [];
    // CodeMirror holds every line break as "\n": one character for one space, so the selection stays where it was.
    tr.changes.iterChanges((from, to, _fromB, _toB, inserted) => changes.push({ from, to, insert: inserted.toString().replace(/\n/g, ' ') }));
    return [{ changes, selection: tr.selection, scrollIntoView: tr.scrollIntoView, userEvent: tr.annotation(Transaction.userEvent) }];
  }),
];

/**
 * What the browser would edit: the range it names, else its selection (one made by script, as a test's fill
 * makes, reaches the browser before the editor reads it), else the editor's.
 */
function browserRange(view: EditorView, event: InputEvent): { from: number; to: number } {
  const inside = (node: Node | null): node is Node => node !== null && view.contentDOM.contains(node);
  const target = event.getTargetRanges().find((range) => inside(range.startContainer) && inside(range.endContainer));
  if (target) return { from: view.posAtDOM(target.startContainer, target.startOffset), to: view.posAtDOM(target.endContainer, target.endOffset) };
  const selection = (view.root as Document).getSelection();
  if (selection && inside(selection.anchorNode) && inside(selection.focusNode)) {
    const anchor = view.posAtDOM(selection.anchorNode, selection.anchorOffset);
    const head = view.posAtDOM(selection.focusNode, selection.focusOffset);
    return { from: Math.min(anchor, head), to: Math.max(anchor, head) };
  }
  return view.state.selection.main;
}

/**
 * Typed text goes in through the editor, not the browser. Chrome, replacing or deleting highlighted text in
 * place, keeps the text's colour for what is typed next in a style attribute, which the console's policy
 * refuses (CodeMirror then redraws the line from its own state, but the refusal is reported). Keys that delete
 * are CodeMirror's own already; this takes text typed (not composed: an input method's text stays the
 * browser's) and what deletes a selection by other means (the browser's menu, a test's fill).
 */
const typedThroughEditor = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (view.composing || event.isComposing) return false;
    const inserts = event.inputType === 'insertText' && event.data !== null;
    if (!inserts && !event.inputType.startsWith('delete')) return false;
    const { from, to } = browserRange(view, event);
    if (!inserts && from === to) return false;
    event.preventDefault();
    const text = inserts ? event.data! : '';
    const edit = () =>
      view.state.update({
        changes: { from, to, insert: text },
        selection: { anchor: from + text.length },
        userEvent: inserts ? 'input.type' : 'delete.selection',
        scrollIntoView: true,
      });
    if (!inserts || !view.state.facet(EditorView.inputHandler).some((handler) => handler(view, from, to, text, edit))) view.dispatch(edit());
    return true;
  },
});

function diagnosticsOf(text: string, problem: string | undefined): Diagnostic[] {
  if (problem === undefined) return [];
  return problemRanges(text, problem).map(({ from, to }) => ({ from, to, severity: 'error', message: problem }));
}

/** Callers make their names afresh at each render: the language is only made again when they differ. */
const sameNames = (a: readonly FeelName[], b: readonly FeelName[]) =>
  a.length === b.length && a.every((name, i) => name.name === b[i]!.name && name.detail === b[i]!.detail);

/** The smallest change from `from` to `to`: what is the same at both ends stays, so the cursor stays where it was. */
function difference(from: string, to: string) {
  let start = 0;
  while (start < from.length && start < to.length && from[start] === to[start]) start++;
  let end = 0;
  while (end < from.length - start && end < to.length - start && from[from.length - 1 - end] === to[to.length - 1 - end]) end++;
  return { from: start, to: from.length - end, insert: to.slice(start, to.length - end) };
}

export function createFeelEditor(parent: HTMLElement, initial: FeelEditorOptions, events: FeelEditorEvents): FeelEditor {
  const languageSlot = new Compartment();
  const attributesSlot = new Compartment();
  const placeholderSlot = new Compartment();
  let current = initial;

  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: initial.value,
      extensions: [
        Prec.highest(
          EditorView.domEventHandlers({
            keydown: (event, view) => {
              if (completionStatus(view.state) === 'active' && listKeys.has(event.key)) return false;
              if (events.onKeyDown?.(event) !== true) return false;
              event.preventDefault();
              return true;
            },
          }),
        ),
        typedThroughEditor,
        languageSlot.of(language(initial.kind, initial.names)),
        attributesSlot.of(EditorView.contentAttributes.of(initial.attributes)),
        placeholderSlot.of(initial.placeholder ? placeholder(initial.placeholder) : []),
        initial.multiline ? EditorView.lineWrapping : oneLine,
        syntaxHighlighting(highlighter),
        history(),
        feelBracketMatching,
        closeBrackets(),
        autocompletion({ icons: false }),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged && update.transactions.some((tr) => tr.docChanged && !tr.annotation(fromOutside))) events.onValue(update.state.doc.toString());
          if (update.focusChanged && !update.view.hasFocus) events.onBlur?.();
        }),
      ],
    }),
  });
  view.dispatch(setDiagnostics(view.state, diagnosticsOf(initial.value, initial.problem)));

  return {
    view,
    update(next) {
      const effects = [];
      if (next.kind !== current.kind || !sameNames(next.names, current.names)) effects.push(languageSlot.reconfigure(language(next.kind, next.names)));
      if (JSON.stringify(next.attributes) !== JSON.stringify(current.attributes))
        effects.push(attributesSlot.reconfigure(EditorView.contentAttributes.of(next.attributes)));
      if (next.placeholder !== current.placeholder) effects.push(placeholderSlot.reconfigure(next.placeholder ? placeholder(next.placeholder) : []));
      const text = view.state.doc.toString();
      if (next.value !== text)
        view.dispatch({ changes: difference(text, next.value), annotations: [fromOutside.of(true), Transaction.addToHistory.of(false)] });
      if (effects.length > 0) view.dispatch({ effects });
      if (next.problem !== current.problem || next.value !== text) view.dispatch(setDiagnostics(view.state, diagnosticsOf(next.value, next.problem)));
      current = next;
    },
    focus(selection) {
      view.focus();
      if (selection)
        view.dispatch({ selection: { anchor: Math.min(selection.anchor, view.state.doc.length), head: Math.min(selection.head, view.state.doc.length) } });
    },
    destroy: () => view.destroy(),
  };
}
