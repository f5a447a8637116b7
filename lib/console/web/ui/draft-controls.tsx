/**
 * What a page that edits a draft shows of its editing cycle
 * (`./use-entity-draft.ts`), the same on every such page: Undo and Redo with
 * their shortcuts, and above the form the conflict, the last failure or the
 * notice of what was just done.
 */
import { Failure } from './failure.tsx';
import { Notice } from './notice.tsx';
import type { EntityDraft } from './use-entity-draft.ts';

/**
 * Undo and Redo for the action bar: they work from any focus, and name the
 * keys that do the same where the focus is not in a text field (whose own
 * undo the keys keep). What they did is said in a status region.
 */
export function UndoRedo({ cycle }: { cycle: EntityDraft<unknown> }) {
  return (
    <>
      <button
        type="button"
        class="secondary"
        onClick={cycle.undo}
        disabled={!cycle.canUndo}
        aria-keyshortcuts="Control+Z Meta+Z"
        title="Undo the last edit (Ctrl+Z or ⌘Z outside a text field)"
      >
        Undo
      </button>
      <button
        type="button"
        class="secondary"
        onClick={cycle.redo}
        disabled={!cycle.canRedo}
        aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
        title="Redo what was undone (Ctrl+Shift+Z, ⌘⇧Z or Ctrl+Y outside a text field)"
      >
        Redo
      </button>
      <span class="visually-hidden" role="status">
        {cycle.lastStep && (cycle.lastStep === 'undo' ? 'Undone.' : 'Redone.')}
      </span>
    </>
  );
}

/** The conflict (with the way out: read the record again), else the last failure, and the notice of what was just done. */
export function DraftAlerts({ cycle, noun }: { cycle: EntityDraft<unknown>; noun: 'rule' | 'workflow' }) {
  return (
    <>
      {cycle.conflict ? (
        <div class="failure conflict" role="alert">
          <strong>Someone else changed this {noun} since you opened it</strong>
          <p>
            Your changes were not saved, and nothing was overwritten. Reload to see the {noun} as it is now; your unsaved changes will be lost, so copy anything
            you need first.
          </p>
          <p class="muted">HTTP 409 · checksum_mismatch</p>
          <div class="actions">
            <button type="button" onClick={cycle.reload}>
              Reload the {noun}
            </button>
          </div>
        </div>
      ) : (
        <Failure error={cycle.failure?.error} title={cycle.failure?.title} />
      )}
      <Notice>{cycle.notice}</Notice>
    </>
  );
}
