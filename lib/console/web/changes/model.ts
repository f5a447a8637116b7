/** What the change-request views read, typed by the generated schema so that they follow the API. */
import type { operations } from '../schema.ts';

export type ChangeRequest = operations['getChangeRequest']['responses'][200]['content']['application/json']['data'];

/** "1 approval", "2 approvals". */
export const approvalsOf = (count: number) => `${count} approval${count === 1 ? '' : 's'}`;
