/** A draft checked as it is typed, by the save's own check (`../draft-check.ts`), a moment after the last change. */
import { useEffect, useState } from 'preact/hooks';
import type { EntityType } from '../../../entities/kinds.ts';
import type { DraftCheck } from '../draft-check.ts';
import { onDemand } from './on-demand.ts';

/** The fields of a read record that a save keeps, as the API builds the record it checks (`updateEntity`): the draft's own fields go on top. */
export const recordFields = ({ id, name, description, tags, type }: { id: string; name: string; description: string; tags: string[]; type: string }) => ({
  id,
  name,
  description,
  tags,
  type,
});

/** How long typing must pause before the draft is checked: long enough not to judge a word half typed. */
export const draftCheckDelayMs = 300;

const loadDraftCheck = onDemand(() => import('../draft-check.ts'));

/**
 * What a save of `record` would answer: its problems by field, and a rule's
 * warnings; undefined without a record, and until the first check has run.
 * While a newer record waits for its check, the last check's answer stays,
 * so marks do not flicker as a person types.
 */
export function useDraftCheck(entityType: EntityType, record: Record<string, unknown> | undefined): DraftCheck | undefined {
  const text = record && JSON.stringify(record);
  const [problems, setProblems] = useState<DraftCheck>();
  useEffect(() => {
    if (!text) return setProblems(undefined);
    let current = true;
    const timer = setTimeout(async () => {
      const check = await loadDraftCheck();
      if (check && current) setProblems(check.draftProblems(entityType, JSON.parse(text) as Record<string, unknown>));
    }, draftCheckDelayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [entityType, text]);
  return text ? problems : undefined;
}
