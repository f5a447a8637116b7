/** Undo and redo of a draft (the console's editing history): steps, typing coalesced into one, the bound, the floor a save sets, and which field an edit changed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, changedField, edited, historyLimits, historyOf, redone, settled, undone, type History } from '../../lib/console/web/ui/history.ts';

/** One edit: the field it changed (none: the shape) and how long after the last one it came. */
interface Edit {
  field: string | undefined;
  afterMs: number;
}

/** The drafts are the edits' numbers: draft i is what edit i made, draft 0 the one loaded. */
function replay(edits: Edit[]) {
  let history: History<number> = historyOf(0);
  let at = 0;
  edits.forEach((edit, i) => {
    at += edit.afterMs;
    history = edited(history, i + 1, edit.field, at);
  });
  return history;
}

/** Whether edit i (1-based, as its draft) starts a step of its own rather than continuing the last one. */
const startsStep = (edits: Edit[], i: number) => {
  const edit = edits[i - 1]!;
  const before = edits[i - 2];
  return i === 1 || edit.field === undefined || before?.field !== edit.field || edit.afterMs > historyLimits.coalesceMs;
};

const edits = fc.array(
  fc.record({ field: fc.constantFrom('name', 'definition.when', 'definition.rules[0].when[0]', undefined), afterMs: fc.integer({ min: 0, max: 2500 }) }),
  { maxLength: 60 },
);

describe('history', () => {
  it('undoes every step back to the draft loaded, each to the draft before a step began, and redo reapplies them in order', () => {
    fc.assert(
      fc.property(edits, (sequence) => {
        let history = replay(sequence);
        expect(history.present).toBe(sequence.length);
        const visited = [history.present];
        while (canUndo(history)) {
          history = undone(history);
          visited.push(history.present);
        }
        // Strictly earlier drafts, ending at the one loaded: every draft left is the last before a step began.
        expect(visited.at(-1)).toBe(0);
        for (let k = 1; k < visited.length; k++) expect(visited[k]!).toBeLessThan(visited[k - 1]!);
        for (const draft of visited.slice(1)) expect(startsStep(sequence, draft + 1)).toBe(true);
        // No step began without being visited.
        const steps = sequence.filter((_, i) => startsStep(sequence, i + 1)).length;
        expect(visited.length).toBe(steps + 1);

        const reapplied = [history.present];
        while (canRedo(history)) {
          history = redone(history);
          reapplied.push(history.present);
        }
        expect(reapplied).toEqual([...visited].reverse());
      }),
    );
  });

  it('coalesces typing into one field within the pause into one step, and starts another for another field or after a pause', () => {
    let history = historyOf('');
    history = edited(history, 'a', 'name', 0);
    history = edited(history, 'ab', 'name', 400);
    history = edited(history, 'abc', 'name', 1300);
    expect(history.past).toEqual(['']);
    history = edited(history, 'abcd', 'name', 2400);
    history = edited(history, 'abcd!', 'description', 2500);
    expect(history.past).toEqual(['', 'abc', 'abcd']);
    // An edit of the shape never continues a step, nor is continued.
    history = edited(history, 'row', undefined, 2600);
    history = edited(history, 'rows', undefined, 2700);
    expect(history.past).toEqual(['', 'abc', 'abcd', 'abcd!', 'row']);
  });

  it('drops what was undone at the next edit, which starts a step of its own', () => {
    let history = edited(edited(historyOf('x'), 'xy', 'name', 0), 'xyz', 'name', 5000);
    history = undone(history);
    expect([history.present, canRedo(history)]).toEqual(['xy', true]);
    history = edited(history, 'xyw', 'name', 5100);
    expect([history.past, history.present, canRedo(history)]).toEqual([['x', 'xy'], 'xyw', false]);
    expect(undone(historyOf('x'))).toEqual(historyOf('x'));
    expect(redone(historyOf('x'))).toEqual(historyOf('x'));
  });

  it(`keeps the last ${historyLimits.steps} steps`, () => {
    const sequence = Array.from({ length: historyLimits.steps + 30 }, () => ({ field: undefined, afterMs: 10 }));
    let history = replay(sequence);
    expect(history.past).toHaveLength(historyLimits.steps);
    while (canUndo(history)) history = undone(history);
    expect(history.present).toBe(30);
  });

  it('makes the saved draft the floor: nothing to undo or redo after a save', () => {
    const history = settled(
      undone(
        replay([
          { field: 'name', afterMs: 0 },
          { field: undefined, afterMs: 0 },
        ]),
      ),
    );
    expect(history).toEqual(historyOf(1));
  });
});

describe('changedField', () => {
  const workflow = { start: 'a', steps: [{ id: 'a', request: { url: 'http://x' } }, { id: 'b' }] };
  it('names the one leaf an edit changed', () => {
    const steps = [{ ...workflow.steps[0]!, request: { url: 'http://y' } }, workflow.steps[1]!];
    expect(changedField(workflow, { ...workflow, steps })).toBe('steps[0].request.url');
    expect(changedField(workflow, { ...workflow, start: 'b' })).toBe('start');
    expect(changedField({ fee: '5' }, { fee: 5 })).toBe('fee');
  });

  it('names none for two leaves, a key or an item added or taken away, or an object where a value was', () => {
    expect(changedField(workflow, { ...workflow, start: 'b', steps: [workflow.steps[0], { id: 'c' }] })).toBeUndefined();
    expect(changedField(workflow, { ...workflow, steps: [workflow.steps[0]] })).toBeUndefined();
    expect(changedField(workflow, { ...workflow, settings: {} })).toBeUndefined();
    expect(changedField({ a: null }, { a: {} })).toBeUndefined();
    expect(changedField(workflow, workflow)).toBeUndefined();
  });
});
