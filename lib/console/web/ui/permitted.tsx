/**
 * Controls the signed-in key may not use. A page names the operation a
 * control calls; `can` (../permissions.ts) decides. A control the key may
 * not use is disabled (a button a person looks for) or hidden (a row's
 * actions, repeated on every row), and the page says why once, beside it:
 * the note describes the disabled control for a screen reader.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { useConsole } from '../context.ts';
import type { OperationId } from '../permissions.ts';

export type Permit = { allowed: true; describedBy?: undefined } | { allowed: false; reason: string; describedBy: string };

/** Whether the key may call `operation`, with the id of the note that says why not (for the control's aria-describedby). */
export function usePermit(operation: OperationId): Permit {
  const { can } = useConsole();
  const id = useId();
  const verdict = can(operation);
  return verdict.allowed ? verdict : { allowed: false, reason: verdict.reason, describedBy: id };
}

/** Why the key may not do what some controls do: a line for each refused permit (one permit an operation), nothing when all are allowed. */
export function Why({ permits }: { permits: Permit[] }) {
  const refused = permits.filter((permit) => !permit.allowed);
  if (refused.length === 0) return null;
  return (
    <div class="why-not">
      {refused.map((permit) => (
        <p key={permit.describedBy} id={permit.describedBy}>
          {permit.reason}
        </p>
      ))}
    </div>
  );
}

/** A view the key may not open (its first read is refused): its title and why, in place of what it would show. */
export function PermittedView(props: { operation: OperationId; title: string; children: ComponentChildren }) {
  const permit = usePermit(props.operation);
  if (permit.allowed) return <>{props.children}</>;
  return (
    <section aria-labelledby="refused-title">
      <h1 id="refused-title">{props.title}</h1>
      <Why permits={[permit]} />
    </section>
  );
}
