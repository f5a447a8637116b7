/** The version comparison's first pick: the draft against the latest version, or the two latest when the draft is the latest. */
import { describe, expect, it } from 'vitest';
import { defaultComparison, draftLabel } from '../../lib/console/web/rules/comparison.ts';

const versions = (...checksums: string[]) => checksums.map((checksum, at) => ({ version: `v${at + 1}`, checksum }));

describe('defaultComparison', () => {
  it('compares the latest version with the saved draft that differs from it', () => {
    expect(defaultComparison(versions('a', 'b'), 'c')).toEqual({ left: 'v2', right: draftLabel });
    // A draft back to an older version's content still differs from the latest.
    expect(defaultComparison(versions('a', 'b'), 'a')).toEqual({ left: 'v2', right: draftLabel });
  });

  it('compares the two latest versions when the saved draft is the latest', () => {
    expect(defaultComparison(versions('a', 'b', 'c'), 'c')).toEqual({ left: 'v2', right: 'v3' });
  });

  it('compares the only version with the draft, and offers the draft alone before any', () => {
    expect(defaultComparison(versions('a'), 'a')).toEqual({ left: 'v1', right: draftLabel });
    expect(defaultComparison([], 'a')).toEqual({ left: draftLabel, right: draftLabel });
  });
});
