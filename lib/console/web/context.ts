/** What every view reaches: the API client and the session it speaks for. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from './api.ts';
import type { Session } from './session.ts';

export interface Console {
  api: Api;
  session: Session;
}

export const ConsoleContext = createContext<Console | undefined>(undefined);

export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}
