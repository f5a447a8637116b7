/**
 * "Propose", in place of Publish on a protected branch: the button a page
 * puts where its Publish would be, and the form it opens, which asks what
 * changes and why, proposes the saved draft by the checksum the page holds,
 * and opens the change request. Like a publish, only the saved draft goes:
 * with unsaved edits the button waits for a save, and a draft changed
 * elsewhere meanwhile (409 checksum_mismatch) is the page's conflict.
 */
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import { hrefOf, navigate, type EntityType } from '../route.ts';
import { describedBy } from '../ui/described-by.ts';
import { Field } from '../ui/field.tsx';
import { useFocusOnOpen } from '../ui/focus.ts';
import { usePermit } from '../ui/permitted.tsx';
import { PanelForm } from '../ui/record-section.tsx';
import { approvalsOf } from './model.ts';

interface Draft {
  entityType: EntityType;
  entityId: string;
  /** The saved draft's checksum, as the page read it. */
  checksum: string;
  /** Whether the page holds edits not saved yet. */
  dirty: boolean;
  /** The id of the page's note saying why the draft cannot be proposed now (nothing new to propose); absent when it can. */
  held?: string;
}

/** The Propose button, the form it opens (false while closed), and the permit whose reason the page shows with its others. */
export function useProposal(draft: Draft, onConflict: (failure: ApiFailure) => void) {
  const permit = usePermit('proposeChange');
  const [open, setOpen] = useState(false);
  return {
    permit,
    button: (
      <button
        type="button"
        aria-expanded={open}
        disabled={draft.dirty || !!draft.held || !permit.allowed}
        aria-describedby={describedBy(permit.describedBy, draft.held)}
        title={draft.dirty ? 'Save the draft first: only the saved draft is proposed' : undefined}
        onClick={() => setOpen(true)}
      >
        Propose
      </button>
    ),
    form: open && <ProposeForm draft={draft} onConflict={onConflict} onCancel={() => setOpen(false)} />,
  };
}

function ProposeForm({ draft, onConflict, onCancel }: { draft: Draft; onConflict(failure: ApiFailure): void; onCancel(): void }) {
  const { api, requiredApprovals } = useConsole();
  const [description, setDescription] = useState('');
  const first = useFocusOnOpen<HTMLTextAreaElement>();
  const propose = async () => {
    const { entityType, entityId, checksum } = draft;
    try {
      const request = await api.data(
        api.client.POST('/dev/v1/{entityType}/{entityId}/change-requests', {
          params: { path: { entityType, entityId } },
          body: { checksum, description: description.trim() },
        }),
      );
      navigate(hrefOf.changeRequest(entityType, entityId, request.id));
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.code === 'checksum_mismatch') onConflict(failure);
      throw failure;
    }
  };
  return (
    <PanelForm
      title="Propose the saved draft"
      hint={`It is published once it has ${approvalsOf(requiredApprovals)} by people other than you. The request shows what it changes against the latest published version and runs the draft's test cases.`}
      submit="Propose change"
      busy="Proposing…"
      cancel="Cancel"
      failureTitle="Not proposed"
      onSubmit={propose}
      onCancel={onCancel}
    >
      {(problems) => (
        <Field label="Description" hint="what changes, and why" problem={problems.get('description')} class="full">
          {(control) => <textarea {...control} ref={first} required rows={3} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
        </Field>
      )}
    </PanelForm>
  );
}
