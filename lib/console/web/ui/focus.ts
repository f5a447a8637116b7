/** Moves focus into a panel that opened at a person's request, so that a keyboard user lands in it and a screen reader reads it. */
import { useEffect, useRef } from 'preact/hooks';

export function useFocusOnOpen<T extends HTMLElement>(enabled = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (enabled) ref.current?.focus();
  }, []);
  return ref;
}
