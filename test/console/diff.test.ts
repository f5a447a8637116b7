/** The console's line difference (version comparison): a longest common subsequence, laid out side by side. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLines, sideBySide, type DiffLine } from '../../lib/console/web/rules/line-diff.ts';

const sides = (lines: DiffLine[]) => ({
  before: lines.filter((line) => line.kind !== 'added').map((line) => line.text),
  after: lines.filter((line) => line.kind !== 'removed').map((line) => line.text),
});

describe('diffLines', () => {
  it('keeps equal texts whole', () => {
    expect(diffLines(['a', 'b'], ['a', 'b'])).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'same', text: 'b' },
    ]);
  });

  it('finds a changed line between shared ones', () => {
    expect(diffLines(['{', '  "x": 1,', '  "y": 2', '}'], ['{', '  "x": 3,', '  "y": 2', '}'])).toEqual([
      { kind: 'same', text: '{' },
      { kind: 'removed', text: '  "x": 1,' },
      { kind: 'added', text: '  "x": 3,' },
      { kind: 'same', text: '  "y": 2' },
      { kind: 'same', text: '}' },
    ]);
  });

  it('keeps the longest common subsequence, not only the shared ends', () => {
    const lines = diffLines(['a', 'b', 'c', 'd', 'e'], ['x', 'b', 'd', 'y', 'e']);
    expect(lines.filter((line) => line.kind === 'same').map((line) => line.text)).toEqual(['b', 'd', 'e']);
  });

  it('handles empty sides', () => {
    expect(diffLines([], ['a'])).toEqual([{ kind: 'added', text: 'a' }]);
    expect(diffLines(['a'], [])).toEqual([{ kind: 'removed', text: 'a' }]);
    expect(diffLines([], [])).toEqual([]);
  });

  it('always rebuilds both texts, keeping a longest common subsequence', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 12 });
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = diffLines(before, after);
        expect(sides(lines)).toEqual({ before, after });
        expect(lines.filter((line) => line.kind === 'same').length).toBe(lcsLength(before, after));
      }),
    );
  });
});

describe('sideBySide', () => {
  it('faces removed lines with the added lines after them and numbers each side', () => {
    const rows = sideBySide(diffLines(['a', 'b', 'c'], ['a', 'B', 'B2', 'c']));
    expect(rows).toEqual([
      { left: { number: 1, text: 'a' }, right: { number: 1, text: 'a' }, changed: false },
      { left: { number: 2, text: 'b' }, right: { number: 2, text: 'B' }, changed: true },
      { right: { number: 3, text: 'B2' }, changed: true },
      { left: { number: 3, text: 'c' }, right: { number: 4, text: 'c' }, changed: false },
    ]);
  });
});

/** The length of a longest common subsequence, by the textbook recursion, to check the module against. */
function lcsLength(a: string[], b: string[]): number {
  const memo = new Map<string, number>();
  const at = (i: number, j: number): number => {
    if (i === a.length || j === b.length) return 0;
    const key = `${i},${j}`;
    if (!memo.has(key)) memo.set(key, a[i] === b[j] ? 1 + at(i + 1, j + 1) : Math.max(at(i + 1, j), at(i, j + 1)));
    return memo.get(key)!;
  };
  return at(0, 0);
}
