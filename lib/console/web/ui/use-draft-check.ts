/** A draft checked as it is typed, by the save's own check (`../draft-check.ts`, in a worker), a moment after the last change. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { EntityType } from '../../../vocabulary/kinds.ts';
import type { DraftCheck } from '../draft-check.ts';
import type { DraftCheckAnswer, DraftCheckRequest } from '../draft-check-worker.ts';

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

let worker: Worker | undefined;
let asked = 0;
const waiting = new Map<number, (check: DraftCheck | undefined) => void>();

/**
 * The check of `record`, made by the worker (started on first use, beside
 * the page as `draft-check-worker.js`); undefined when the worker cannot be
 * had (a page left open across a deployment asks for a file that is gone):
 * the page then shows what the save answers, and the next check starts it again.
 */
function checkInWorker(request: Omit<DraftCheckRequest, 'id'>): Promise<DraftCheck | undefined> {
  if (!worker) {
    worker = new Worker('draft-check-worker.js', { type: 'module' });
    worker.onmessage = ({ data }: MessageEvent<DraftCheckAnswer>) => {
      waiting.get(data.id)?.(data.check);
      waiting.delete(data.id);
    };
    worker.onerror = () => {
      worker = undefined;
      for (const answer of waiting.values()) answer(undefined);
      waiting.clear();
    };
  }
  const id = ++asked;
  worker.postMessage({ id, ...request } satisfies DraftCheckRequest);
  return new Promise((resolve) => waiting.set(id, resolve));
}

/**
 * What a save of `record` would answer: its problems by field, and a rule's
 * warnings; undefined without a record, and until the first check has run.
 * While a newer record waits for its check, the last check's answer stays,
 * so marks do not flicker as a person types. A record is read by identity:
 * hand the same object until the draft changes.
 */
export function useDraftCheck(entityType: EntityType, record: Record<string, unknown> | undefined): DraftCheck | undefined {
  // Written once per record, not once per render: a large table's text is long.
  const text = useMemo(() => record && JSON.stringify(record), [record]);
  const [problems, setProblems] = useState<DraftCheck>();
  useEffect(() => {
    if (!text) return setProblems(undefined);
    let current = true;
    const timer = setTimeout(async () => {
      const check = await checkInWorker({ entityType, record: text });
      if (check && current) setProblems(check);
    }, draftCheckDelayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [entityType, text]);
  return text ? problems : undefined;
}
