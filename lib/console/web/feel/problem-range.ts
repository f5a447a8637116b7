/**
 * Where in a FEEL field's text the draft check's problem lies, to underline
 * it there. The check (the save's own, lib/engine/prepare.ts and
 * lib/workflows/validate.ts) names a syntax error's place in its message,
 * "unexpected "]" at line 2, column 5" (FeelSyntaxError writes "(line 2,
 * column 5)"); the message is all a field is given, so the place is read back
 * from it. A problem that names no place but quotes a name the text reads
 * (""x" is not a declared input") is where the text reads it; any other (a
 * type that does not fit) is the whole text's.
 */

/** A stretch of the text, by offsets (`to` excluded); empty only when the text is. */
export interface ProblemRange {
  from: number;
  to: number;
}

const place = /(?:\bat line|\(line) (\d+), column (\d+)\)?/g;
const unexpected = /unexpected "(.*)"\s*$/;
/** What one token of FEEL runs to, at most: the next space or bracket. */
const token = /^[^\s()[\]{},]+/;
const quoted = /"([^"\n]+)"/;
const nameCharacter = /[\p{L}\p{N}_]/u;

/** The offset of a 1-based line and column, counted as the check counts them (lines split at "\n", columns in UTF-16 units). */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let at = 1; at < line; at++) {
    const end = text.indexOf('\n', offset);
    if (end < 0) return text.length;
    offset = end + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  return Math.min(offset + column - 1, lineEnd < 0 ? text.length : lineEnd);
}

/**
 * The stretch a problem found at `offset` covers: the text the message quotes
 * when it stands there ("unexpected "]""), the last character when the text
 * ends too soon, else the token that starts there.
 */
function rangeAt(text: string, offset: number, said: string): ProblemRange {
  const found = unexpected.exec(said)?.[1];
  if (found && text.startsWith(found, offset)) return { from: offset, to: offset + found.length };
  const end = text.trimEnd().length;
  if (offset >= end) return end === 0 ? { from: 0, to: 0 } : { from: end - 1, to: end };
  return { from: offset, to: offset + (token.exec(text.slice(offset))?.[0].length ?? 1) };
}

/** Where `text` reads `name` as a name: not as part of a longer one. */
function readsOf(text: string, name: string): ProblemRange[] {
  const ranges: ProblemRange[] = [];
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if ((before === undefined || !nameCharacter.test(before)) && (after === undefined || !nameCharacter.test(after)))
      ranges.push({ from: at, to: at + name.length });
  }
  return ranges;
}

/** Each place the problem names in `text`; else where the text reads the name it quotes; else the whole text. */
export function problemRanges(text: string, problem: string): ProblemRange[] {
  const ranges: ProblemRange[] = [];
  let said = 0;
  for (const found of problem.matchAll(place)) {
    const offset = offsetOf(text, Number(found[1]), Number(found[2]));
    ranges.push(rangeAt(text, offset, problem.slice(said, found.index)));
    said = found.index + found[0].length;
  }
  if (ranges.length > 0) return ranges;
  const name = quoted.exec(problem)?.[1];
  const reads = name ? readsOf(text, name) : [];
  return reads.length > 0 ? reads : [{ from: 0, to: text.length }];
}
