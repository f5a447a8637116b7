/**
 * Matching brackets in FEEL, ranges included. A range (DMN's interval) opens with `(`, `[` or `]` and closes
 * with `)`, `]` or `[`, so `(14..30]` and `]1..5[` are whole; CodeMirror pairs brackets by kind and would mark
 * them as mismatched. The grammar knows better: the two ends of an Interval node are a pair, whatever their
 * kinds, and that is how they are marked. Anything else is marked as CodeMirror finds it, so `(1 + 2` stays
 * unmatched.
 */
import { bracketMatching, syntaxTree, type MatchResult } from '@codemirror/language';
import type { EditorState, Extension, Range } from '@codemirror/state';
import { Decoration } from '@codemirror/view';

const opening = new Set(['(', '[', ']']);
const closing = new Set([')', ']', '[']);

/** The match CodeMirror found, or, when its bracket is an end of a whole range, that range's two ends as a pair. */
export function withRanges(match: MatchResult, state: EditorState): MatchResult {
  const bracket = syntaxTree(state).resolveInner(match.start.from, 1);
  const range = bracket.parent;
  if (range?.name !== 'Interval' || bracket.from !== match.start.from) return match;
  const first = range.firstChild;
  const last = range.lastChild;
  if (!first || !last || !opening.has(first.name) || !closing.has(last.name) || last.from === first.from) return match;
  const other = bracket.from === first.from ? last : bracket.from === last.from ? first : undefined;
  if (!other) return match;
  return { start: { from: bracket.from, to: bracket.to }, end: { from: other.from, to: other.to }, matched: true };
}

const matchingMark = Decoration.mark({ class: 'cm-matchingBracket' });
const nonmatchingMark = Decoration.mark({ class: 'cm-nonmatchingBracket' });

/** CodeMirror's bracket matching, with its marks, pairing the ends of ranges. */
export const feelBracketMatching: Extension = bracketMatching({
  renderMatch(found, state) {
    const match = withRanges(found, state);
    const mark = match.matched ? matchingMark : nonmatchingMark;
    const marks: Range<Decoration>[] = [mark.range(match.start.from, match.start.to)];
    if (match.end) marks.push(mark.range(match.end.from, match.end.to));
    return marks;
  },
});
