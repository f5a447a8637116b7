/**
 * A rule's page: its name, status and version; the editor of its kind, saved
 * with the checksum last read so that two people never overwrite each other
 * (a 409 says so and offers to reload); its test panel and saved cases;
 * publishing (on a protected branch, proposing, with the rule's change
 * requests) and the version history with differences; its schedule and
 * executions. Edits stay in the page until saved; the panels that run the
 * rule run what is saved and say so. Once the draft changes, its fields show
 * what the save's own check says of it as it is typed.
 */
import '../rules/rules.css';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { ChangeRequestList } from '../changes/list.tsx';
import { useConsole } from '../context.ts';
import { hrefOf, navigate } from '../route.ts';
import { kindLabels } from '../starters.ts';
import { Confirm } from '../ui/confirm.tsx';
import { ExecutionsPanel } from '../ui/executions.tsx';
import { Failure } from '../ui/failure.tsx';
import { Notice } from '../ui/notice.tsx';
import { usePermit, Why, type Permit } from '../ui/permitted.tsx';
import { sameJson } from '../ui/json.ts';
import { recordFields, useDraftCheck } from '../ui/use-draft-check.ts';
import { useSentDraft } from '../ui/use-sent-draft.ts';
import { useLoad } from '../ui/use-load.ts';
import { DecisionTableEditor } from '../rules/decision-table-editor.tsx';
import { noMarks, TextField, WarningList, type Marks, type Touched } from '../rules/marks.tsx';
import {
  definitionOf,
  isRuleKind,
  type AnyDefinition,
  type RuleKind,
  type RuleRecord,
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

const draftOf = (rule: RuleRecord): Draft => ({ name: rule.name, description: rule.description, definition: structuredClone(definitionOf(rule)) });

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
  const { api, requiredApprovals } = useConsole();
  const loaded = useLoad(() => api.data(api.client.GET('/dev/v1/{entityType}/{entityId}', { params: { path: { entityType: 'rule', entityId: id } } })), [id]);
  const rule = loaded.value;
  const [draft, setDraft] = useState<Draft>();
  const [marks, setMarks] = useState<Marks>(noMarks);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<unknown>();
  const [savedNotice, setSavedNotice] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [tab, setTab] = useState<Tab>('definition');
  const [testFill, setTestFill] = useState<{ params: Record<string, unknown> }>();
  const permits = { save: usePermit('updateEntity'), delete: usePermit('deleteEntity') };
  // Until the next change, the fields show what the last save answered; from then on, what the save's own check says of the draft as it is.
  const [editedSinceSave, setEditedSinceSave] = useState(false);
  const checked = useDraftCheck('rule', editedSinceSave && rule && draft ? { ...recordFields(rule), ...draft } : undefined);

  // Edits typed while the read after a save was on its way are kept.
  const sentDraft = useSentDraft(draft);

  // Each read of the rule (the first, a reload, the read after a save) is what the page edits from then on.
  useEffect(() => {
    if (!rule) return;
    const typedSince = sentDraft.typedSinceSent();
    if (!typedSince) {
      setDraft(draftOf(rule));
      setEditedSinceSave(false);
    }
    setMarks({ problems: new Map(), warnings: rule.warnings });
  }, [rule]);

  const coverage = useTableCoverage(rule, rule?.type === 'decisionTable' ? (draft?.definition as TableDefinition | undefined) : undefined);

  const dirty = !!rule && !!draft && !sameJson(draft, { name: rule.name, description: rule.description, definition: rule.definition });

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);

  if (loaded.error && !rule) return <Failure error={loaded.error} title={`Could not open the rule ${id}`} />;
  if (!rule || !draft) return <p role="status">Loading the rule…</p>;
  if (!isRuleKind(rule.type)) return <p>{id} is not a rule.</p>;
  const kind = rule.type;

  const change = (next: Draft) => {
    setDraft(next);
    setEditedSinceSave(true);
    setSavedNotice(false);
  };

  const edit = (definition: AnyDefinition, touched: Touched) => {
    change({ ...draft, definition });
    if (touched === 'structure') setMarks(noMarks);
    else if (marks.problems.has(touched)) {
      const problems = new Map(marks.problems);
      problems.delete(touched);
      setMarks({ ...marks, problems });
    }
  };

  const save = async () => {
    setSaving(true);
    setEditedSinceSave(false);
    setSaveError(undefined);
    setSavedNotice(false);
    try {
      const answer = await api.data(
        api.client.PATCH('/dev/v1/{entityType}/{entityId}', {
          params: { path: { entityType: 'rule', entityId: id } },
          body: {
            checksum: rule.checksum,
            name: draft.name,
            description: draft.description,
            definition: draft.definition as unknown as Record<string, unknown>,
          },
        }),
      );
      setMarks({ problems: new Map(), warnings: answer.warnings });
      setSavedNotice(true);
      sentDraft.sent(draft);
      loaded.reload();
    } catch (failure) {
      setSaveError(failure);
      if (failure instanceof ApiFailure) {
        if (failure.code === 'checksum_mismatch') setConflict(true);
        else setMarks({ ...marks, problems: failure.fieldProblems });
      }
    } finally {
      setSaving(false);
    }
  };

  const reload = () => {
    setConflict(false);
    setSaveError(undefined);
    setSavedNotice(false);
    loaded.reload();
  };

  const setCases = (cases: SavedCase[]) => {
    const { tests: _dropped, ...rest } = draft.definition;
    change({ ...draft, definition: cases.length ? { ...rest, tests: cases } : rest });
  };

  const shown: Marks = checked ?? marks;
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
          <button type="button" onClick={save} disabled={saving || !dirty || !permits.save.allowed} aria-describedby={permits.save.describedBy}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          <button type="button" class="secondary" onClick={reload} disabled={loaded.loading}>
            Reload
          </button>
          <DeleteRule id={id} permit={permits.delete} />
        </div>
      </div>
      <Why permits={[permits.save, permits.delete]} />
      <DownloadRule id={id} kind={kind} />

      {conflict && (
        <div class="failure conflict" role="alert">
          <strong>Someone else changed this rule</strong>
          <p>
            The rule was saved elsewhere since you opened it, so your changes were not saved (nothing was overwritten). Reload to see the rule as it is now;
            your unsaved changes will be lost, so copy anything you need first.
          </p>
          <div class="actions">
            <button type="button" onClick={reload}>
              Reload the rule
            </button>
          </div>
        </div>
      )}
      {!conflict && <Failure error={saveError} title="Not saved: fix the marked fields" />}
      {savedNotice && <Notice>Saved.</Notice>}

      <div class="tabs" role="tablist" aria-label="Rule sections">
        {tabs.map((each) => (
          <TabButton
            key={each.id}
            id={each.id}
            label={each.id === 'publish' && requiredApprovals > 0 ? 'Propose and versions' : each.label}
            selected={tab === each.id}
            onSelect={setTab}
          />
        ))}
      </div>

      <TabPanel id="definition" selected={tab}>
        <section class="card details" aria-label="Name and description">
          <TextField label="Name" path="name" marks={shown} value={draft.name} onValue={(name) => change({ ...draft, name })} required />
          <TextField
            label="Description"
            path="description"
            marks={shown}
            value={draft.description}
            onValue={(description) => change({ ...draft, description })}
            multiline
          />
        </section>
        <WarningList warnings={listed} />
        <section class="card" aria-label={`${kindLabels[kind]} editor`}>
          {kind === 'decisionTable' && <DecisionTableEditor definition={draft.definition as TableDefinition} marks={shown} onEdit={edit} coverage={coverage} />}
          {kind === 'simpleRule' && <SimpleRuleEditor definition={draft.definition as SimpleDefinition} marks={shown} onEdit={edit} />}
          {kind === 'ruleSet' && <RuleSetEditor definition={draft.definition as SetDefinition} marks={shown} onEdit={edit} />}
        </section>
      </TabPanel>
      <TabPanel id="test" selected={tab}>
        <TestPanel rule={rule} dirty={dirty} onConflict={() => setConflict(true)} filled={testFill} />
      </TabPanel>
      <TabPanel id="cases" selected={tab}>
        <TestCases rule={rule} cases={draft.definition.tests ?? []} dirty={dirty} onChange={setCases} onConflict={() => setConflict(true)} />
      </TabPanel>
      <TabPanel id="impact" selected={tab}>
        <ImpactPanel
          rule={rule}
          dirty={dirty}
          onOpenCase={(params) => {
            setTestFill({ params });
            setTab('test');
          }}
        />
      </TabPanel>
      <TabPanel id="publish" selected={tab}>
        <PublishPanel rule={rule} dirty={dirty} onPublished={loaded.reload} onConflict={() => setConflict(true)} />
        <RolloutPanel rule={rule} dirty={dirty} onChanged={loaded.reload} onConflict={() => setConflict(true)} />
        <ChangeRequestList entityType="rule" entityId={id} />
        <VersionsPanel rule={rule} />
      </TabPanel>
      <TabPanel id="schedule" selected={tab}>
        <SchedulePanel ruleId={id} scheduled={!!rule.schedule} />
        <ExecutionsPanel
          entityType="rule"
          entityId={id}
          hint="Scheduled runs are always recorded; calls to execute are recorded when the rule's settings.recordExecutions is true. Records are kept 30 days."
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
        navigate(hrefOf.rules);
      }}
      onCancel={() => setConfirming(false)}
    >
      The rule goes with every published version and its schedule. This cannot be undone.
    </Confirm>
  );
}
