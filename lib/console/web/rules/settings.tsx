/**
 * What a rule declares beside its logic: its inputs (the params a call gives,
 * each with a type: once declared, FEEL may name only these and each call's
 * params are checked and converted), whether calls to execute are recorded,
 * the time zone its schedule is read in, and the replay a publish runs first.
 * Edited in the draft and saved with it, so the save's check (as typed, and
 * the save's own answer) marks these fields by their paths
 * (`definition.parameters[1].name`, `definition.settings.replayGate.window`).
 */
import './settings.css';
import { useMemo } from 'preact/hooks';
import type { DeclaredInput } from '../../../engine/definitions.ts';
import { DeclaredInputs } from '../ui/declared-inputs.tsx';
import { Field } from '../ui/field.tsx';
import type { Marks, Touched } from './marks.tsx';
import type { AnyDefinition, RuleSettingsValue } from './model.ts';

/** The heading other panels send the focus to (the executions' "Open the rule's settings"). */
export const settingsHeadingId = 'rule-settings-title';

/** As many inputs as the API takes (lib/entities/schema.ts). */
const maxInputs = 100;

/** A gate to start from when one is turned on: a week of executions, at most one in twenty changing. */
const firstGate = { maxChangedRatio: 0.05, window: 'P7D' };

/** The definition with `change` made to its settings; a setting set to undefined goes, and so do settings left empty. */
function withSettings(definition: AnyDefinition, change: Partial<RuleSettingsValue>): AnyDefinition {
  const settings: RuleSettingsValue = { ...definition.settings, ...change };
  for (const key of Object.keys(settings) as (keyof RuleSettingsValue)[]) if (settings[key] === undefined) delete settings[key];
  const { settings: _replaced, ...rest } = definition;
  return (Object.keys(settings).length ? { ...rest, settings } : rest) as AnyDefinition;
}

/** The definition with these declared inputs, or none declared. */
function withParameters(definition: AnyDefinition, parameters: DeclaredInput[] | undefined): AnyDefinition {
  const { parameters: _replaced, ...rest } = definition;
  return (parameters ? { ...rest, parameters } : rest) as AnyDefinition;
}

export function RuleSettings({ definition, marks, onEdit }: { definition: AnyDefinition; marks: Marks; onEdit(next: AnyDefinition, touched: Touched): void }) {
  const settings = definition.settings ?? {};
  const gate = settings.replayGate;
  const problem = (path: string) => marks.problems.get(path);
  const warnings = (path: string) => marks.warnings.filter((warning) => warning.path === path).map((warning) => warning.message);
  const zones = useMemo(() => (Intl as { supportedValuesOf?(key: 'timeZone'): string[] }).supportedValuesOf?.('timeZone') ?? [], []);
  const setting = (change: Partial<RuleSettingsValue>, path: string) => onEdit(withSettings(definition, change), path);

  return (
    <section class="card rule-settings" aria-labelledby={settingsHeadingId}>
      <h2 id={settingsHeadingId} tabIndex={-1}>
        Settings and inputs
      </h2>
      <label class="inline">
        <input
          type="checkbox"
          checked={definition.parameters !== undefined}
          onChange={(e) => onEdit(withParameters(definition, e.currentTarget.checked ? [] : undefined), 'definition.parameters')}
        />
        Declare the inputs
      </label>
      {definition.parameters ? (
        <DeclaredInputs
          inputs={definition.parameters}
          path="definition.parameters"
          problems={marks.problems}
          max={maxInputs}
          hint="The params a call gives, each checked and converted to its type on the way in. Cells and conditions may name only these (and the outputs so far, in a rule set)."
          none="No inputs declared yet: add one, or cells may name nothing."
          onChange={(parameters, touched) => onEdit(withParameters(definition, parameters), touched)}
        />
      ) : (
        <p class="hint">Without declared inputs, the names in cells and conditions go unchecked, and each call's params are taken as they come.</p>
      )}

      <div class="setting">
        <label class="inline">
          <input
            type="checkbox"
            checked={settings.recordExecutions === true}
            onChange={(e) => setting({ recordExecutions: e.currentTarget.checked || undefined }, 'definition.settings.recordExecutions')}
          />
          Record executions
        </label>
        <span class="hint">
          Calls to execute the published version are kept 30 days and listed under Schedule and executions; scheduled runs are always recorded.
        </span>
      </div>
      <Field
        label="Time zone of the schedule"
        class="timezone"
        hint="An IANA name such as Europe/Paris, for a schedule that names none; UTC when empty."
        problem={problem('definition.settings.timezone')}
        warnings={warnings('definition.settings.timezone')}
      >
        {(control) => (
          <>
            <input
              type="text"
              list="rule-time-zones"
              spellcheck={false}
              value={settings.timezone ?? ''}
              onInput={(e) => setting({ timezone: e.currentTarget.value || undefined }, 'definition.settings.timezone')}
              {...control}
            />
            <datalist id="rule-time-zones">
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          </>
        )}
      </Field>

      <div class="setting">
        <label class="inline">
          <input
            type="checkbox"
            checked={gate !== undefined}
            onChange={(e) => setting({ replayGate: e.currentTarget.checked ? firstGate : undefined }, 'definition.settings.replayGate')}
          />
          Replay before publishing
        </label>
        <span class="hint">
          A publish first replays the recorded executions of the window on the draft, and stops when more of them than the share change outcome.
        </span>
      </div>
      {gate && (
        <div class="fields gate">
          <Field
            label="Most changed share (0 to 1)"
            problem={problem('definition.settings.replayGate.maxChangedRatio')}
            hint="0.05: at most one execution in twenty may change"
          >
            {(control) => (
              <input
                type="number"
                min={0}
                max={1}
                step={0.01}
                value={gate.maxChangedRatio}
                onInput={(e) =>
                  setting({ replayGate: { ...gate, maxChangedRatio: e.currentTarget.valueAsNumber } }, 'definition.settings.replayGate.maxChangedRatio')
                }
                {...control}
              />
            )}
          </Field>
          <Field
            label="Window"
            problem={problem('definition.settings.replayGate.window')}
            hint="How far back: P7D is a week, PT12H twelve hours; at most 30 days"
          >
            {(control) => (
              <input
                type="text"
                spellcheck={false}
                value={gate.window}
                onInput={(e) => setting({ replayGate: { ...gate, window: e.currentTarget.value } }, 'definition.settings.replayGate.window')}
                {...control}
              />
            )}
          </Field>
        </div>
      )}
      {problem('definition.settings') && <p class="problem">{problem('definition.settings')}</p>}
    </section>
  );
}
