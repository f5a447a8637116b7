/**
 * The line difference behind the version comparison: the longest common
 * subsequence of two texts' lines, laid out side by side. Written here rather
 * than taken from a package because the console needs only this much, and
 * pretty-printed definitions differ in few lines.
 */

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** One row of the side-by-side view; a side is absent where the other has lines it lacks. */
export interface SideBySideRow {
  left?: { number: number; text: string };
  right?: { number: number; text: string };
  changed: boolean;
}

/**
 * Above this many cells the table of common lengths would take too much
 * memory for a browser tab (4 bytes a cell): the differing middle is then
 * shown as removed and added whole, which is still a correct difference.
 */
const largestTable = 4_000_000;

/** The lines of `before` and `after` in order, each kept, removed or added, with as many kept as possible. */
export function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] {
  // Shared first and last lines need no table: definitions usually differ in a few places.
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  const same = (text: string): DiffLine => ({ kind: 'same', text });
  const head = before.slice(0, start).map(same);
  const tail = before.slice(endBefore).map(same);
  return [...head, ...diffMiddle(before.slice(start, endBefore), after.slice(start, endAfter)), ...tail];
}

function diffMiddle(before: readonly string[], after: readonly string[]): DiffLine[] {
  const removed = (text: string): DiffLine => ({ kind: 'removed', text });
  const added = (text: string): DiffLine => ({ kind: 'added', text });
  const rows = before.length;
  const columns = after.length;
  if (rows === 0 || columns === 0 || (rows + 1) * (columns + 1) > largestTable) return [...before.map(removed), ...after.map(added)];

  // common[i][j]: the length of the longest common subsequence of before[i..] and after[j..].
  const width = columns + 1;
  const common = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--)
    for (let j = columns - 1; j >= 0; j--)
      common[i * width + j] =
        before[i] === after[j] ? common[(i + 1) * width + j + 1]! + 1 : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);

  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < rows && j < columns) {
    if (before[i] === after[j]) {
      lines.push({ kind: 'same', text: before[i]! });
      i++;
      j++;
    } else if (common[(i + 1) * width + j]! >= common[i * width + j + 1]!) lines.push(removed(before[i++]!));
    else lines.push(added(after[j++]!));
  }
  while (i < rows) lines.push(removed(before[i++]!));
  while (j < columns) lines.push(added(after[j++]!));
  return lines;
}

/** The difference as rows of two columns: a run of removed lines faces the run of added lines that follows it, row by row. */
export function sideBySide(lines: readonly DiffLine[]): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  let leftNumber = 0;
  let rightNumber = 0;
  let at = 0;
  while (at < lines.length) {
    const line = lines[at]!;
    if (line.kind === 'same') {
      rows.push({ left: { number: ++leftNumber, text: line.text }, right: { number: ++rightNumber, text: line.text }, changed: false });
      at++;
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (at < lines.length && lines[at]!.kind !== 'same') {
      const change = lines[at++]!;
      (change.kind === 'removed' ? removed : added).push(change.text);
    }
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const left = removed[k];
      const right = added[k];
      rows.push({
        ...(left !== undefined && { left: { number: ++leftNumber, text: left } }),
        ...(right !== undefined && { right: { number: ++rightNumber, text: right } }),
        changed: true,
      });
    }
  }
  return rows;
}
