/**
 * Moves focus into a panel that opened at a person's request, so that a
 * keyboard user lands in it and a screen reader reads it. In a layout effect,
 * in the same task as the render: an effect after paint moved the focus
 * under someone already typing in the panel, so their keys went to another
 * field. The console's other focus moves (after a move, an add or a delete)
 * are layout effects for the same reason.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';

export function useFocusOnOpen<T extends HTMLElement>(enabled = true) {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    if (enabled) ref.current?.focus();
  }, []);
  return ref;
}
