/** What was just done (saved, published, revoked), said in a status region that screen readers read without moving focus. */
import type { ComponentChildren } from 'preact';

export function Notice({ children }: { children: ComponentChildren }) {
  if (!children) return null;
  return (
    <p class="notice" role="status">
      {children}
    </p>
  );
}
