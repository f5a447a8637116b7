/**
 * What a save sent, until the read after it comes back, beside the draft as
 * it is now: a page replaces its draft with each read of the record, except
 * one that follows a save while the person has typed since, whose edits it
 * keeps. The rule and workflow pages both edit this way.
 */
import { useRef } from 'preact/hooks';
import { sameJson } from './json.ts';

export function useSentDraft<D>(draft: D | undefined) {
  const sent = useRef<D | undefined>(undefined);
  const current = useRef(draft);
  current.current = draft;
  return {
    /** Records what a save sent, before the read that follows it is asked for. */
    sent: (value: D) => void (sent.current = value),
    /** For a read that came back: whether the draft was typed in since the save was sent. The save is forgotten, so one read answers it. */
    typedSinceSent: () => {
      const typed = sent.current !== undefined && current.current !== undefined && !sameJson(current.current, sent.current);
      sent.current = undefined;
      return typed;
    },
  };
}
