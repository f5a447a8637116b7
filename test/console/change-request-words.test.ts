/** How a change request's approvals read against what its branch requires now, including once it requires none. */
import { describe, expect, it } from 'vitest';
import { approvalsAgainst, approvalsCell, approvalsOf, publishableOnce } from '../../lib/console/web/changes/model.ts';

describe('approval words', () => {
  it('counts approvals in the singular and plural', () => {
    expect(approvalsOf(1)).toBe('1 approval');
    expect(approvalsOf(0)).toBe('0 approvals');
  });

  it('weighs the approvals against what the branch requires', () => {
    expect(approvalsAgainst(1, 2)).toBe('1 of the 2 approvals the branch requires');
    expect(approvalsCell(1, 2)).toBe('1 of 2');
    expect(publishableOnce(2)).toBe('Once it has 2 approvals, it can be published.');
  });

  it('says the branch requires none, not "1 of 0", once its protection is removed', () => {
    expect(approvalsAgainst(1, 0)).toBe('1 approval; the branch no longer requires any');
    expect(approvalsCell(1, 0)).toBe('1 (none required)');
    expect(publishableOnce(0)).toBe('The branch no longer requires approvals, so it can be published without any.');
    for (const words of [approvalsAgainst(1, 0), approvalsCell(1, 0), publishableOnce(0)]) expect(words).not.toMatch(/\b0 approvals|of 0/);
  });
});
