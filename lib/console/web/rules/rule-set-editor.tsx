/**
 * A rule set as a form: its strategy and its ordered entries, each either
 * inline (a condition and the outputs it sets) or a reference to another rule
 * of the branch. Entries are added, moved and deleted with buttons named for
 * the entry they act on; problems and warnings show on the field (or entry)
 * their path names.
 */
import { isReference, type InlineRuleSetEntry, type RuleReference } from '../../../engine/definitions.ts';
import { ruleSetNames } from '../feel/names.ts';
import { markOf, TextField, type Marks, type Touched } from './marks.tsx';
import { entryOf, entryText, type SetDefinition } from './model.ts';
import { freshName, moved, replaced, without } from './reorder.ts';

interface Props {
  definition: SetDefinition;
  marks: Marks;
  onEdit(next: SetDefinition, touched: Touched): void;
}

type Entry = SetDefinition['rules'][number];

/** Both kinds of entry may carry a priority (the engine's reference type leaves it out: it is read by the set). */
const priorityOf = (entry: Entry) => (entry as { priority?: number }).priority;

function withPriority(entry: Entry, priority: number | undefined): Entry {
  const { priority: _dropped, ...rest } = entry as Entry & { priority?: number };
  return (priority === undefined ? rest : { ...rest, priority }) as Entry;
}

/** The strategy when a set names none, as the API applies it. */
const defaultStrategy = 'allMatch';

export function RuleSetEditor({ definition, marks, onEdit }: Props) {
  const entries = definition.rules;
  const edit = (rules: Entry[], touched: Touched) => onEdit({ ...definition, rules }, touched);
  const ids = entries.map((entry) => entry.id);
  return (
    <div class="set-editor">
      <label>
        Strategy
        <select
          value={definition.strategy ?? defaultStrategy}
          onChange={(event) => onEdit({ ...definition, strategy: event.currentTarget.value as 'allMatch' | 'firstMatch' }, 'definition.strategy')}
        >
          <option value="allMatch">allMatch: every entry whose condition holds sets its outputs</option>
          <option value="firstMatch">firstMatch: only the first entry whose condition holds</option>
        </select>
      </label>
      <p class="hint">Entries run by priority (higher first), then in this order.</p>
      <ol class="entries">
        {entries.map((entry, at) => {
          const path = `definition.rules[${at}]`;
          const mark = markOf(marks, path);
          const name = `entry ${entry.id || at + 1}`;
          return (
            <li key={at} class={['card', 'entry', mark.class ?? ''].join(' ')}>
              <fieldset aria-describedby={mark.describedBy}>
                <legend>
                  Entry {at + 1}
                  {isReference(entry) ? ' (a reference to another rule)' : ''}
                </legend>
                {mark.note}
                <div class="entry-fields">
                  <TextField
                    label="Id"
                    context={`of entry ${at + 1}`}
                    path={`${path}.id`}
                    marks={marks}
                    value={entry.id}
                    onValue={(id) => edit(replaced(entries, at, { ...entry, id }), `${path}.id`)}
                    required
                  />
                  <TextField
                    label="Priority"
                    context={`of entry ${at + 1}`}
                    path={`${path}.priority`}
                    marks={marks}
                    value={priorityOf(entry)?.toString() ?? ''}
                    inputMode="numeric"
                    onValue={(text) => {
                      const priority = Number(text);
                      edit(
                        replaced(entries, at, withPriority(entry, text.trim() === '' || !Number.isInteger(priority) ? undefined : priority)),
                        `${path}.priority`,
                      );
                    }}
                  />
                  {isReference(entry) ? (
                    <ReferenceFields entry={entry} at={at} marks={marks} onChange={(next, touched) => edit(replaced(entries, at, next), touched)} />
                  ) : (
                    <InlineFields
                      entry={entry}
                      at={at}
                      definition={definition}
                      marks={marks}
                      onChange={(next, touched) => edit(replaced(entries, at, next), touched)}
                    />
                  )}
                </div>
                <div class="actions">
                  <button
                    type="button"
                    class="icon secondary"
                    aria-label={`Move ${name} up`}
                    disabled={at === 0}
                    onClick={() => edit(moved(entries, at, at - 1), 'structure')}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    class="icon secondary"
                    aria-label={`Move ${name} down`}
                    disabled={at === entries.length - 1}
                    onClick={() => edit(moved(entries, at, at + 1), 'structure')}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    class="icon secondary"
                    aria-label={`Delete ${name}`}
                    disabled={entries.length === 1}
                    onClick={() => edit(without(entries, at), 'structure')}
                  >
                    ✕
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          onClick={() => edit([...entries, { id: freshName('entry', ids), when: 'true', then: [{ set: 'result', value: null }] }], 'structure')}
        >
          Add inline entry
        </button>
        <button type="button" class="secondary" onClick={() => edit([...entries, { id: freshName('reference', ids), ruleId: '' }], 'structure')}>
          Add reference to a rule
        </button>
      </div>
    </div>
  );
}

function ReferenceFields({
  entry,
  at,
  marks,
  onChange,
}: {
  entry: RuleReference;
  at: number;
  marks: Marks;
  onChange(next: RuleReference, touched: Touched): void;
}) {
  const path = `definition.rules[${at}]`;
  return (
    <>
      <TextField
        label="Rule id"
        context={`of entry ${at + 1}`}
        path={`${path}.ruleId`}
        marks={marks}
        value={entry.ruleId}
        onValue={(ruleId) => onChange({ ...entry, ruleId }, `${path}.ruleId`)}
        required
      />
      <TextField
        label="Version"
        context={`of entry ${at + 1}`}
        path={`${path}.version`}
        marks={marks}
        value={entry.version ?? ''}
        placeholder="latest published"
        onValue={(version) => {
          const { version: _dropped, ...rest } = entry;
          onChange(version.trim() ? { ...rest, version: version.trim() } : rest, `${path}.version`);
        }}
      />
    </>
  );
}

function InlineFields({
  entry,
  at,
  definition,
  marks,
  onChange,
}: {
  entry: InlineRuleSetEntry;
  at: number;
  /** The set it belongs to: what its FEEL may read. */
  definition: SetDefinition;
  marks: Marks;
  onChange(next: InlineRuleSetEntry, touched: Touched): void;
}) {
  const path = `definition.rules[${at}]`;
  const sets = entry.then;
  const names = ruleSetNames(definition, at);
  return (
    <>
      <TextField
        label="When"
        context={`of entry ${at + 1}`}
        path={`${path}.when`}
        marks={marks}
        value={entry.when}
        onValue={(when) => onChange({ ...entry, when }, `${path}.when`)}
        feel="expression"
        names={names}
        required
      />
      <fieldset class="outputs">
        <legend>Then set</legend>
        {sets.map((set, s) => (
          <div class="pair" key={s}>
            <TextField
              label="Output path"
              context={`${s + 1} of entry ${at + 1}`}
              path={`${path}.then[${s}].set`}
              marks={marks}
              value={set.set}
              onValue={(name) => onChange({ ...entry, then: replaced(sets, s, { ...set, set: name }) }, `${path}.then[${s}].set`)}
              required
            />
            <TextField
              label="Value"
              context={`${s + 1} of entry ${at + 1}`}
              path={`${path}.then[${s}].value`}
              marks={marks}
              value={entryText(set.value)}
              onValue={(text) => onChange({ ...entry, then: replaced(sets, s, { ...set, value: entryOf(text, set.value) }) }, `${path}.then[${s}].value`)}
              feel="expression"
              names={names}
            />
            <button
              type="button"
              class="icon secondary"
              aria-label={`Delete output ${set.set || s + 1} of entry ${at + 1}`}
              disabled={sets.length === 1}
              onClick={() => onChange({ ...entry, then: without(sets, s) }, 'structure')}
            >
              ✕
            </button>
          </div>
        ))}
        <button
          type="button"
          class="secondary"
          onClick={() =>
            onChange(
              {
                ...entry,
                then: [
                  ...sets,
                  {
                    set: freshName(
                      'output',
                      sets.map((set) => set.set),
                    ),
                    value: null,
                  },
                ],
              },
              'structure',
            )
          }
        >
          Add output to entry {at + 1}
        </button>
      </fieldset>
    </>
  );
}
