/**
 * The editing cycle a rule's and a workflow's pages share, so that the page
 * keeps only its form: the record read, the draft edited in memory, checked
 * as it is typed by the save's own check, saved with the checksum it was read
 * at (a change made meanwhile by someone else is refused, 409, and shown as
 * the page's one conflict until the record is read again), the marks a
 * refused save left on its fields, undo and redo of every edit until the
 * draft is saved, a question before a page with unsaved edits is left, and
 * the notice of what was just done, which goes at the next edit.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import { useLeaveWarning, type EntityType } from '../route.ts';
import type { operations } from '../schema.ts';
import { canRedo, canUndo, changedField, edited, historyOf, redone, settled, undone, type History } from './history.ts';
import { sameJson } from './json.ts';
import { recordFields, useDraftCheck } from './use-draft-check.ts';
import { useLoad } from './use-load.ts';
import { useSentDraft } from './use-sent-draft.ts';

/** A rule or workflow as the API reads it. */
export type EntityRead = operations['getEntity']['responses'][200]['content']['application/json']['data'];

type Warning = EntityRead['warnings'][number];

/** The fields of the record a save of the draft sets: the body of the save besides its checksum. */
export interface SavedFields {
  name?: string;
  description?: string;
  definition: Record<string, unknown>;
}

export interface DraftSpec<D> {
  entityType: EntityType;
  id: string;
  /** What the page edits of a read of the record. */
  draftOf(record: EntityRead): D;
  fieldsOf(draft: D): SavedFields;
  /** What the page says once a save went through. */
  savedNotice: string;
}

/** What the fields show: the problems of a refused save (or of the check as typed) by path, and the analysis's warnings. */
export interface DraftMarks {
  problems: Map<string, string>;
  warnings: Warning[];
}

const noMarks: DraftMarks = { problems: new Map(), warnings: [] };

export interface EntityDraft<D> {
  record: EntityRead | undefined;
  loadError: unknown;
  loading: boolean;
  draft: D | undefined;
  /** Whether the draft holds what the record does not. */
  dirty: boolean;
  /** What the fields show: once the draft changes, what the save's own check says of it as it is; until then, what the last save or read answered. */
  marks: DraftMarks;
  /**
   * An edit of the form: `touched` is the path of the one field it changed
   * (its mark is cleared, and typing on in it is one step to undo), or
   * 'structure' for the shape (every mark is then out of place); without
   * it, the field is told from what changed.
   */
  edit(next: D, touched?: string): void;
  undo(): void;
  redo(): void;
  canUndo: boolean;
  canRedo: boolean;
  /** What the last undo or redo did, from the keys or the buttons, for a status region to say. */
  lastStep: 'undo' | 'redo' | undefined;
  /** Counts the times the draft was replaced other than by the form (a read, an undo, a redo): a form that keeps text of its own starts again from the draft. */
  replaced: number;
  save(): Promise<void>;
  saving: boolean;
  /** The checksum the next save (or publish) names: the last read's, or the last save's before the read that follows it comes back. */
  checksum: string;
  /** Someone else changed the record since it was read (409 checksum_mismatch), from a save or any call on the draft: until it is read again. */
  conflict: boolean;
  /** What failed last and how the page titles it (a conflict is shown as such instead). */
  failure: { error: unknown; title: string } | undefined;
  /** A call on the draft failed: a conflict becomes the page's conflict, a refusal naming fields marks them; undefined when the last failure is over (the call is made again). */
  failed(error: unknown, title?: string): void;
  /** A panel's call on the draft was refused as a conflict (it shows its own failure). */
  markConflict(): void;
  /** Drops the edits and the conflict, and reads the record again. */
  reload(): void;
  /** Reads the record again after the page changed it (a publish): edits typed since are kept, as after a save. */
  refresh(): void;
  notice: string | undefined;
  /** Says what was just done (or nothing): it goes at the next edit. */
  announce(text: string | undefined): void;
}

/** Inputs whose own undo (of the text typed in them) a page-level undo must leave alone. */
const notTyped = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image', 'hidden']);

/** Whether the focus is where the browser's own undo works on typed text: a text field, a list, or a code editor. */
export function keepsOwnUndo(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !notTyped.has(target.type);
}

/** Ctrl/Cmd+Z undoes; Ctrl/Cmd+Shift+Z and Ctrl+Y redo. */
export function undoKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): 'undo' | 'redo' | undefined {
  if (event.altKey || !(event.ctrlKey || event.metaKey)) return undefined;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && event.ctrlKey && !event.shiftKey) return 'redo';
  return undefined;
}

export function useEntityDraft<D>(spec: DraftSpec<D>): EntityDraft<D> {
  const { api } = useConsole();
  const { entityType, id } = spec;
  const loaded = useLoad(
    () => api.data(api.client.GET('/dev/v1/{entityType}/{entityId}', { params: { path: { entityType, entityId: id } } })),
    [entityType, id],
  );
  const record = loaded.value;
  const [history, setHistory] = useState<History<D>>();
  const draft = history?.present;
  const [replaced, setReplaced] = useState(0);
  const [lastStep, setLastStep] = useState<'undo' | 'redo'>();
  const [checksum, setChecksum] = useState('');
  const [savedMarks, setSavedMarks] = useState<DraftMarks>(noMarks);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown; title: string }>();
  const [conflict, setConflict] = useState(false);
  const [notice, setNotice] = useState<string>();
  // Until the next change, the fields show what the last save answered; from then on, what the save's own check says of the draft as it is.
  const [editedSinceSave, setEditedSinceSave] = useState(false);
  const fields = useMemo(() => draft && spec.fieldsOf(draft), [draft]);
  const checkedRecord = useMemo(
    () => (editedSinceSave && record && fields ? { ...recordFields(record), ...fields } : undefined),
    [editedSinceSave, record, fields],
  );
  const checked = useDraftCheck(entityType, checkedRecord);
  // Edits typed while the read after a save was on its way are kept.
  const sentDraft = useSentDraft(draft);

  // Each read of the record (the first, a reload, the read after a save) is what the page edits from then on.
  useEffect(() => {
    if (!record) return;
    setChecksum(record.checksum);
    setSavedMarks({ problems: new Map(), warnings: record.warnings });
    if (sentDraft.typedSinceSent()) return;
    setHistory(historyOf(spec.draftOf(record)));
    setEditedSinceSave(false);
    setReplaced((n) => n + 1);
  }, [record]);

  const saved = useMemo(() => record && spec.fieldsOf(spec.draftOf(record)), [record]);
  const dirty = useMemo(() => !!saved && !!fields && !sameJson(fields, saved), [saved, fields]);
  useLeaveWarning(dirty ? `Leave the ${entityType} ${id}? Your unsaved changes will be lost.` : undefined);

  /** The draft changed: the check as typed takes over the marks, and what was just done is old news. */
  const changed = () => {
    setEditedSinceSave(true);
    setNotice(undefined);
  };

  const edit = (next: D, touched?: string) => {
    const at = performance.now();
    setLastStep(undefined);
    setHistory((now) => {
      if (!now || next === now.present) return now;
      return edited(now, next, touched === 'structure' ? undefined : (touched ?? changedField(now.present, next)), at);
    });
    changed();
    if (touched === 'structure') setSavedMarks(noMarks);
    else if (touched !== undefined && savedMarks.problems.has(touched)) {
      const problems = new Map(savedMarks.problems);
      problems.delete(touched);
      setSavedMarks({ ...savedMarks, problems });
    }
  };

  const step = (kind: 'undo' | 'redo', move: (history: History<D>) => History<D>) => () => {
    if (!history) return;
    const next = move(history);
    if (next === history) return;
    setHistory(next);
    setReplaced((n) => n + 1);
    setLastStep(kind);
    changed();
  };
  const undo = step('undo', undone);
  const redo = step('redo', redone);

  // The page's undo, from wherever the focus is but a field that undoes its own typing; the latest draft's, whenever the key comes.
  const keyed = useRef({ undo, redo });
  keyed.current = { undo, redo };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const move = undoKey(event);
      if (!move || event.defaultPrevented || keepsOwnUndo(event.target)) return;
      event.preventDefault();
      keyed.current[move]();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const failed = (error: unknown, title = 'That did not work') => {
    setFailure(error === undefined ? undefined : { error, title });
    if (!(error instanceof ApiFailure)) return;
    if (error.status === 409 && error.code === 'checksum_mismatch') setConflict(true);
    else if (error.fieldProblems.size) setSavedMarks((marks) => ({ ...marks, problems: error.fieldProblems }));
  };

  const save = async () => {
    if (!draft || !fields) return;
    setSaving(true);
    setEditedSinceSave(false);
    setFailure(undefined);
    setNotice(undefined);
    try {
      const answer = await api.data(
        api.client.PATCH('/dev/v1/{entityType}/{entityId}', { params: { path: { entityType, entityId: id } }, body: { checksum, ...fields } }),
      );
      setSavedMarks({ problems: new Map(), warnings: answer.warnings });
      // The next save names this checksum, even before the read after this one comes back.
      setChecksum(answer.checksum);
      setNotice(spec.savedNotice);
      setHistory((now) => now && settled(now));
      sentDraft.sent(draft);
      loaded.reload();
    } catch (error) {
      failed(error, error instanceof ApiFailure && error.fieldProblems.size ? 'Not saved: fix the marked fields' : 'Not saved');
    } finally {
      setSaving(false);
    }
  };

  const reload = () => {
    setConflict(false);
    setFailure(undefined);
    setNotice(undefined);
    loaded.reload();
  };

  return {
    record,
    loadError: loaded.error,
    loading: loaded.loading,
    draft,
    dirty,
    marks: checked ?? savedMarks,
    edit,
    undo,
    redo,
    canUndo: !!history && canUndo(history),
    canRedo: !!history && canRedo(history),
    lastStep,
    replaced,
    save,
    saving,
    checksum,
    conflict,
    failure,
    failed,
    markConflict: () => setConflict(true),
    reload,
    refresh: loaded.reload,
    notice,
    announce: setNotice,
  };
}
