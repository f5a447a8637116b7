/**
 * Undo and redo of a draft, as a pure value: the drafts before the one shown,
 * the one shown, and those undone. Typing a word into a field is one step,
 * not one a letter: edits of the same field that follow each other within
 * `coalesceMs` replace the step they continue. A save makes the draft saved
 * the floor (`settled`): what was before it cannot be undone. The steps kept
 * are bounded, the oldest dropped first.
 */

export const historyLimits = {
  /** Steps kept to undo: a day's editing of a pricing table, at the memory of drafts that share all but what each edit changed. */
  steps: 200,
  /** How long a pause between two edits of one field still continues the step. */
  coalesceMs: 1000,
} as const;

export interface History<D> {
  /** Oldest first: what undo goes back to, the last one first. */
  readonly past: readonly D[];
  readonly present: D;
  /** What redo goes to, the next one first. */
  readonly future: readonly D[];
  /** The field the last step edited and when, while an edit of the same field may continue it. */
  readonly open?: { readonly field: string; readonly at: number };
}

/** A history whose only draft is `draft`: nothing to undo or redo. */
export const historyOf = <D>(draft: D): History<D> => ({ past: [], present: draft, future: [] });

/**
 * The history after an edit that made `next` of the present draft. `field` is
 * the path of the one field the edit changed (undefined when it changed the
 * draft's shape: a row added, a column moved), `at` the edit's time in ms.
 * Whatever was undone can no longer be redone.
 */
export function edited<D>(history: History<D>, next: D, field: string | undefined, at: number): History<D> {
  const continues = field !== undefined && history.open?.field === field && at - history.open.at <= historyLimits.coalesceMs;
  const past = continues ? history.past : [...history.past, history.present].slice(-historyLimits.steps);
  return { past, present: next, future: [], ...(field !== undefined && { open: { field, at } }) };
}

export const canUndo = (history: History<unknown>) => history.past.length > 0;
export const canRedo = (history: History<unknown>) => history.future.length > 0;

/** Back one step; the same history when there is none. The next edit starts a step of its own. */
export function undone<D>(history: History<D>): History<D> {
  const previous = history.past.at(-1);
  if (!canUndo(history)) return history;
  return { past: history.past.slice(0, -1), present: previous as D, future: [history.present, ...history.future] };
}

/** Forward one undone step; the same history when there is none. */
export function redone<D>(history: History<D>): History<D> {
  if (!canRedo(history)) return history;
  const [next, ...rest] = history.future;
  return { past: [...history.past, history.present].slice(-historyLimits.steps), present: next as D, future: rest };
}

/** After a save: the draft as it is now is the floor, nothing before it to undo and nothing to redo. */
export const settled = <D>(history: History<D>): History<D> => historyOf(history.present);

/**
 * The path of the one field `next` changed of `previous` (`steps[2].request.url`),
 * or undefined when the edit changed more than one, or the shape (a key or an
 * item added or taken away): for the pages whose editors do not name what they
 * touched. Parts the edit kept (the same object) are not walked.
 */
export function changedField(previous: unknown, next: unknown, path = ''): string | undefined {
  const changes = changedLeaves(previous, next, path, 2);
  return changes?.length === 1 ? changes[0] : undefined;
}

/** The paths of the leaves that differ while they are fewer than `limit`; undefined once they are not, or where the shape differs. */
function changedLeaves(a: unknown, b: unknown, path: string, limit: number): string[] | undefined {
  if (Object.is(a, b)) return [];
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
  if (!isObject(a) && !isObject(b)) return [path];
  if (!isObject(a) || !isObject(b)) return undefined;
  if (Array.isArray(a) !== Array.isArray(b)) return undefined;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length || !keys.every((key) => Object.hasOwn(b, key))) return undefined;
  const found: string[] = [];
  for (const key of keys) {
    const inner = changedLeaves(a[key], b[key], Array.isArray(a) ? `${path}[${key}]` : path ? `${path}.${key}` : key, limit - found.length);
    if (!inner) return undefined;
    found.push(...inner);
    if (found.length >= limit) return undefined;
  }
  return found;
}
