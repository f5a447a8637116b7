/** What the change-request views read, typed by the generated schema so that they follow the API. */
import type { operations } from '../schema.ts';

export type ChangeRequest = operations['getChangeRequest']['responses'][200]['content']['application/json']['data'];

/** "1 approval", "2 approvals". */
export const approvalsOf = (count: number) => `${count} approval${count === 1 ? '' : 's'}`;

/**
 * A request's approvals against what its branch requires now: "1 of the 2
 * approvals the branch requires", or, once the branch's protection requires
 * none (removed since it was proposed), "1 approval; the branch no longer requires any" rather than "1 of 0".
 */
export const approvalsAgainst = (counted: number, required: number) =>
  required === 0 ? `${approvalsOf(counted)}; the branch no longer requires any` : `${counted} of the ${approvalsOf(required)} the branch requires`;

/** The same, short, for a list's cell: "1 of 2", or "1 (none required)". */
export const approvalsCell = (counted: number, required: number) => (required === 0 ? `${counted} (none required)` : `${counted} of ${required}`);

/** When an open request can be published, as far as approvals go. */
export const publishableOnce = (required: number) =>
  required === 0
    ? 'The branch no longer requires approvals, so it can be published without any.'
    : `Once it has ${approvalsOf(required)}, it can be published.`;
