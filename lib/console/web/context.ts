/** What every view reaches: the API client, the session it speaks for, and what the session's key may do. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from './api.ts';
import type { Caller, Can } from './permissions.ts';
import type { Session } from './session.ts';

export interface Console {
  api: Api;
  session: Session;
  /** The signed-in key, as GET /dev/v1/me describes it. */
  caller: Caller;
  /** Whether the key may call an operation on the session's branch, and why not (`permissions.ts`). */
  can: Can;
}

export const ConsoleContext = createContext<Console | undefined>(undefined);

export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}
