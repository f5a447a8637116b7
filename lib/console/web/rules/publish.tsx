/**
 * The rule's Publish panel: the saved draft published as the next version,
 * its failing cases shown when the API refuses (`ui/publish.tsx`). On a
 * protected branch the panel proposes the draft instead, as a change request
 * that others approve before it is published (`changes/propose.tsx`). The
 * button waits while there is nothing to publish (unsaved edits, or the saved
 * draft already the latest version), and says why (`publish-state.ts`).
 */
import { useId } from 'preact/hooks';
import { useConsole } from '../context.ts';
import { useProposal } from '../changes/propose.tsx';
import { describedBy } from '../ui/described-by.ts';
import { usePermit, Why } from '../ui/permitted.tsx';
import { PublishOutcome, usePublish } from '../ui/publish.tsx';
import type { RuleRecord } from './model.ts';
import { publishHeld } from './publish-state.ts';

interface Props {
  rule: RuleRecord;
  dirty: boolean;
  onPublished(): void;
  onConflict(): void;
}

export function PublishPanel({ rule, dirty, onPublished, onConflict }: Props) {
  const { requiredApprovals } = useConsole();
  const proposing = requiredApprovals > 0;
  const held = publishHeld(rule, dirty, 'served', proposing ? 'proposed' : 'published');
  const heldNote = useId();
  const { publish, publishing, published, error } = usePublish('rule', rule.id, { published: onPublished, conflict: onConflict }, rule.checksum);
  const proposal = useProposal({ entityType: 'rule', entityId: rule.id, checksum: rule.checksum, dirty, held: held && heldNote }, onConflict);
  const permit = usePermit('publishEntity');
  const next = rule.version ? `after ${rule.version}` : 'the first';

  return (
    <section class="card" aria-labelledby="publish-title">
      <h2 id="publish-title">{proposing ? 'Propose' : 'Publish'}</h2>
      <p class="hint">
        {proposing
          ? `This branch is protected: the saved draft becomes the next version (${next}) through a change request, once others approve it. Every saved case runs when it is proposed, and must pass when it is published.`
          : `Freezes the saved draft as the next version (${next}); executions run the latest published version. Every saved case must pass.`}
      </p>
      <div class="actions">
        {proposing ? (
          proposal.button
        ) : (
          <button
            type="button"
            onClick={() => publish({ checksum: rule.checksum })}
            disabled={publishing || !!held || !permit.allowed}
            aria-describedby={describedBy(permit.describedBy, held && heldNote)}
          >
            {publishing ? 'Publishing…' : 'Publish draft'}
          </button>
        )}
        {held && (
          <span class="hint" id={heldNote}>
            {held}
          </span>
        )}
      </div>
      <Why permits={[proposing ? proposal.permit : permit]} />
      {proposing ? proposal.form : <PublishOutcome published={published} error={error} />}
    </section>
  );
}
