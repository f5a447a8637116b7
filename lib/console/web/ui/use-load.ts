/** Loads something for a view and reloads it on demand: its value, its failure, and whether it is on the way. */
import { useCallback, useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  value: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: () => Promise<T>, dependencies: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean }>({ value: undefined, error: undefined, loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((before) => ({ ...before, loading: true }));
    load().then(
      (value) => current && setState({ value, error: undefined, loading: false }),
      (error: unknown) => current && setState({ value: undefined, error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...dependencies, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}
