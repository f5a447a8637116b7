/**
 * A rule's page: its name, status and version; the editor of its kind, its
 * settings and declared inputs, edited through the editing cycle every draft
 * page shares (`../ui/use-entity-draft.ts`: saved with the checksum last read,
 * a 409 offering to reload, undo and redo, a question before unsaved edits
 * are left); its test panel, which runs the draft as typed, and saved cases;
 * publishing (on a protected branch, proposing, with the rule's change
 * requests) and the version history with differences; its schedule and
 * executions. The panels that publish, replay or propose take what is saved
 * and say so.
 */
import '../rules/rules.css';
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { ChangeRequestList } from '../changes/list.tsx';
import { useConsole } from '../context.ts';
import { hrefOf, navigate } from '../route.ts';
import { kindLabels } from '../starters.ts';
import { Confirm } from '../ui/confirm.tsx';
import { ExecutionsPanel } from '../ui/executions.tsx';
import { DraftAlerts, UndoRedo } from '../ui/draft-controls.tsx';
import { Failure } from '../ui/failure.tsx';
import { usePermit, Why, type Permit } from '../ui/permitted.tsx';
import { useEntityDraft, type EntityRead } from '../ui/use-entity-draft.ts';
import { DecisionTableEditor } from '../rules/decision-table-editor.tsx';
import { TextField, WarningList, type Touched } from '../rules/marks.tsx';
import {
  definitionOf,
  isRuleKind,
  type AnyDefinition,
  type RuleKind,
  type SavedCase,
  type SetDefinition,
  type SimpleDefinition,
  type TableDefinition,
} from '../rules/model.ts';
import { useTableCoverage } from '../rules/coverage.tsx';
import { DownloadRule } from '../rules/download.tsx';
import { ImpactPanel } from '../rules/impact.tsx';
import { PublishPanel } from '../rules/publish.tsx';
import { RolloutPanel } from '../rules/rollout.tsx';
import { RuleSetEditor } from '../rules/rule-set-editor.tsx';
import { SchedulePanel } from '../rules/schedule.tsx';
import { RuleSettings, settingsHeadingId } from '../rules/settings.tsx';
import { SimpleRuleEditor } from '../rules/simple-rule-editor.tsx';
import { TestCases } from '../rules/test-cases.tsx';
import { TestPanel } from '../rules/test-panel.tsx';
import { VersionsPanel } from '../rules/versions.tsx';

/** What the page edits: the fields a save sends. */
interface Draft {
  name: string;
  description: string;
  definition: AnyDefinition;
}

const draftOf = (rule: EntityRead): Draft => ({ name: rule.name, description: rule.description, definition: structuredClone(definitionOf(rule)) });
const fieldsOf = (draft: Draft) => ({ ...draft, definition: draft.definition as unknown as Record<string, unknown> });

const tabs = [
  { id: 'definition', label: 'Definition' },
  { id: 'test', label: 'Test' },
  { id: 'cases', label: 'Test cases' },
  { id: 'impact', label: 'Impact' },
  { id: 'publish', label: 'Publish and versions' },
  { id: 'schedule', label: 'Schedule and executions' },
] as const;
type Tab = (typeof tabs)[number]['id'];

/** Warnings each editor shows on its own rows or entries; the rest are listed above it. */
const placedInline: Record<RuleKind, RegExp> = {
  decisionTable: /^definition\.rules\[\d+\]/,
  ruleSet: /^definition\.rules\[\d+\]/,
  simpleRule: /^definition\.(when|then|otherwise)\b/,
};

/** Another rule is another page: nothing of one rule's edits, tab or results carries over to the next. */
export function RuleEditor({ id }: { id: string }) {
  return <RulePage key={id} id={id} />;
}

function RulePage({ id }: { id: string }) {
  const { requiredApprovals } = useConsole();
  const cycle = useEntityDraft({ entityType: 'rule', id, draftOf, fieldsOf, savedNotice: 'Saved.' });
  const { record: rule, draft, dirty, marks: shown } = cycle;
  const [tab, setTab] = useState<Tab>('definition');
  const [testFill, setTestFill] = useState<{ params: Record<string, unknown> }>();
  const permits = { save: usePermit('updateEntity'), delete: usePermit('deleteEntity') };
  const coverage = useTableCoverage(rule, rule?.type === 'decisionTable' ? (draft?.definition as TableDefinition | undefined) : undefined);

  if (cycle.loadError && !rule) return <Failure error={cycle.loadError} title={`Could not open the rule ${id}`} />;
  if (!rule || !draft) return <p role="status">Loading the rule…</p>;
  if (!isRuleKind(rule.type)) return <p>{id} is not a rule.</p>;
  const kind = rule.type;

  const edit = (definition: AnyDefinition, touched: Touched) => cycle.edit({ ...draft, definition }, touched);
  // What was just done is said where it was done: another tab is another place.
  const selectTab = (next: Tab) => {
    setTab(next);
    cycle.announce(undefined);
  };

  const setCases = (cases: SavedCase[]) => {
    const { tests: _dropped, ...rest } = draft.definition;
    edit(cases.length ? { ...rest, tests: cases } : rest, 'definition.tests');
  };

  const listed = shown.warnings.filter((warning) => !placedInline[kind].test(warning.path));

  return (
    <article class="rule-page" aria-labelledby="rule-title">
      <div class="heading">
        <div>
          <h1 id="rule-title">{rule.name}</h1>
          <p class="rule-facts">
            <code>{rule.id}</code> · {kindLabels[kind]} · <span class={`badge ${rule.status}`}>{rule.status}</span> ·{' '}
            {rule.version ? `latest version ${rule.version}` : 'never published'}
            {dirty && <span class="badge draft">unsaved changes</span>}
          </p>
        </div>
        <div class="actions">
          <button type="button" onClick={cycle.save} disabled={cycle.saving || !dirty || !permits.save.allowed} aria-describedby={permits.save.describedBy}>
            {cycle.saving ? 'Saving…' : 'Save'}
          </button>
          <UndoRedo cycle={cycle} />
          <button type="button" class="secondary" onClick={cycle.reload} disabled={cycle.loading}>
            Reload
          </button>
          <DeleteRule id={id} permit={permits.delete} />
        </div>
      </div>
      <Why permits={[permits.save, permits.delete]} />
      <DownloadRule id={id} kind={kind} />

      <DraftAlerts cycle={cycle} noun="rule" />

      <div class="tabs" role="tablist" aria-label="Rule sections">
        {tabs.map((each) => (
          <TabButton
            key={each.id}
            id={each.id}
            label={each.id === 'publish' && requiredApprovals > 0 ? 'Propose and versions' : each.label}
            selected={tab === each.id}
            onSelect={selectTab}
          />
        ))}
      </div>

      <TabPanel id="definition" selected={tab}>
        <section class="card details" aria-label="Name and description">
          <TextField label="Name" path="name" marks={shown} value={draft.name} onValue={(name) => cycle.edit({ ...draft, name }, 'name')} required />
          <TextField
            label="Description"
            path="description"
            marks={shown}
            value={draft.description}
            onValue={(description) => cycle.edit({ ...draft, description }, 'description')}
            multiline
          />
        </section>
        <WarningList warnings={listed} />
        <section class="card" aria-label={`${kindLabels[kind]} editor`}>
          {kind === 'decisionTable' && <DecisionTableEditor definition={draft.definition as TableDefinition} marks={shown} onEdit={edit} coverage={coverage} />}
          {kind === 'simpleRule' && <SimpleRuleEditor definition={draft.definition as SimpleDefinition} marks={shown} onEdit={edit} />}
          {kind === 'ruleSet' && <RuleSetEditor definition={draft.definition as SetDefinition} marks={shown} onEdit={edit} />}
        </section>
        <RuleSettings definition={draft.definition} marks={shown} onEdit={edit} />
      </TabPanel>
      <TabPanel id="test" selected={tab}>
        <TestPanel rule={rule} definition={draft.definition} dirty={dirty} onConflict={cycle.markConflict} filled={testFill} />
      </TabPanel>
      <TabPanel id="cases" selected={tab}>
        <TestCases rule={rule} cases={draft.definition.tests ?? []} dirty={dirty} onChange={setCases} onConflict={cycle.markConflict} />
      </TabPanel>
      <TabPanel id="impact" selected={tab}>
        <ImpactPanel
          rule={rule}
          dirty={dirty}
          onOpenCase={(params) => {
            setTestFill({ params });
            selectTab('test');
          }}
        />
      </TabPanel>
      <TabPanel id="publish" selected={tab}>
        <PublishPanel rule={rule} dirty={dirty} onPublished={cycle.refresh} onConflict={cycle.markConflict} />
        <RolloutPanel rule={rule} dirty={dirty} onChanged={cycle.refresh} onConflict={cycle.markConflict} />
        <ChangeRequestList entityType="rule" entityId={id} />
        <VersionsPanel rule={rule} />
      </TabPanel>
      <TabPanel id="schedule" selected={tab}>
        <SchedulePanel ruleId={id} scheduled={!!rule.schedule} />
        <ExecutionsPanel
          entityType="rule"
          entityId={id}
          hint={
            <>
              Scheduled runs are always recorded; calls to execute are recorded when the version they run has Record executions set, in the rule's settings (the
              draft {draft.definition.settings?.recordExecutions === true ? 'has it set' : 'does not'}). Records are kept 30 days.{' '}
              <button
                type="button"
                class="quiet"
                onClick={() => {
                  selectTab('definition');
                  requestAnimationFrame(() => document.getElementById(settingsHeadingId)?.focus());
                }}
              >
                Open the rule's settings
              </button>
            </>
          }
        />
      </TabPanel>
    </article>
  );
}

/** A tab of the ARIA tabs pattern: arrow keys, Home and End move between tabs; Tab goes into the panel. */
function TabButton({ id, label, selected, onSelect }: { id: Tab; label: string; selected: boolean; onSelect(tab: Tab): void }) {
  const button = useRef<HTMLButtonElement>(null);
  const step = (event: KeyboardEvent) => {
    const at = tabs.findIndex((each) => each.id === id);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!;
    onSelect(next.id);
    button.current?.parentElement?.querySelector<HTMLButtonElement>(`#tab-${next.id}`)?.focus();
  };
  return (
    <button
      ref={button}
      type="button"
      role="tab"
      id={`tab-${id}`}
      class="tab"
      aria-selected={selected}
      aria-controls={`panel-${id}`}
      tabIndex={selected ? 0 : -1}
      onClick={() => onSelect(id)}
      onKeyDown={step}
    >
      {label}
    </button>
  );
}

/** Panels stay mounted while hidden, so a test's result or a half-written case survives a look at another tab. */
function TabPanel({ id, selected, children }: { id: Tab; selected: Tab; children: ComponentChildren }) {
  return (
    <div role="tabpanel" id={`panel-${id}`} aria-labelledby={`tab-${id}`} hidden={selected !== id}>
      {children}
    </div>
  );
}

function DeleteRule({ id, permit }: { id: string; permit: Permit }) {
  const { api } = useConsole();
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button type="button" class="danger" disabled={!permit.allowed} aria-describedby={permit.describedBy} onClick={() => setConfirming(true)}>
        Delete
      </button>
    );
  return (
    <Confirm
      class="delete-confirm"
      question={`Delete ${id}?`}
      action="Delete for good"
      failureTitle="Not deleted"
      onConfirm={async () => {
        await api.data(api.client.DELETE('/dev/v1/{entityType}/{entityId}', { params: { path: { entityType: 'rule', entityId: id } } }));
        // Its unsaved edits went with it.
        navigate(hrefOf.rules, { discarding: true });
      }}
      onCancel={() => setConfirming(false)}
    >
      The rule goes with every published version and its schedule. This cannot be undone.
    </Confirm>
  );
}
