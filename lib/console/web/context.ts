/** What every view reaches: the API client, the session it speaks for, what the session's key may do, and the branches with their protection. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from './api.ts';
import type { Caller, Can } from './permissions.ts';
import type { operations } from './schema.ts';
import type { Session } from './session.ts';

export type Branch = operations['listBranches']['responses'][200]['content']['application/json']['data'][number];

export interface Console {
  api: Api;
  session: Session;
  /** The signed-in key, as GET /dev/v1/me describes it. */
  caller: Caller;
  /** Whether the key may call an operation on the session's branch, and why not (`permissions.ts`). */
  can: Can;
  /** The workspace's branches, each with the approvals a change needs there (0: not protected); none when the key may not list them. */
  branches: Branch[];
  /** The approvals a change needs on the session's branch before it is published: above 0, pages propose where they would publish. */
  requiredApprovals: number;
}

export const ConsoleContext = createContext<Console | undefined>(undefined);

export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}
