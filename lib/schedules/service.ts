/**
 * A rule's schedule through the API: save (create or replace), delete, read.
 * One schedule per rule and branch, for rules that have a published
 * version: a schedule runs the latest one, so it is checked against it when
 * saved (its settings.timezone is the default time zone, and inputParam must
 * fit its declared inputs, as execute's params must). The stored schedule
 * and the scheduler are kept in step by ./sync.ts.
 *
 * On a protected branch a schedule, and its input, change without a change
 * request: a scheduled run executes the version the branch serves, which was
 * approved, with an input as any caller with `execute` may send it, and a rule
 * does no I/O, so a schedule changes neither what is served nor what leaves.
 * Every save and delete is in the audit log, the input by its digest.
 */
import { auditEvent, type Auditor } from '../auth/auditor.ts';
import { convertParams } from '../engine/compile.ts';
import type { DeclaredInput } from '../engine/definitions.ts';
import { EngineError } from '../engine/errors.ts';
import { errors, type FieldIssue } from '../vocabulary/errors.ts';
import { resolveVersion } from '../rules/load.ts';
import { ruleScopeOf, type EntityRef, type EntityStore, type ScheduleStore, type StoredVersion } from '../store/types.ts';
import type { RuleScheduler } from './scheduler.ts';
import { canonicalJson, sha256 } from '../entities/checksum.ts';
import { prepareSchedule, scheduleView, type ScheduleBody, type ScheduleIssue } from './spec.ts';
import { deleteRuleSchedule, writeSchedule } from './sync.ts';

type Store = EntityStore & ScheduleStore;

/** What a rule's published version says about its schedules. */
interface ScheduledRuleDefinition {
  parameters?: DeclaredInput[];
  settings?: { timezone?: string };
}

const bodyIssues = (issues: ScheduleIssue[]): FieldIssue[] => issues.map(({ field, message }) => ({ in: 'body', field, message }));

/** The latest published version: 404 for no such rule, 409 rule_not_published for one never published. */
async function latestVersion(store: EntityStore, ref: EntityRef): Promise<StoredVersion> {
  const { label } = await resolveVersion(store, ref);
  const version = await store.getVersion(ref, label);
  if (!version) throw errors.versionNotFound(ref.entityType, ref.id, label);
  return version;
}

/** inputParam as the rule's declared inputs take it: a 400 naming inputParam.<name> for each that does not fit. */
function checkInputParam(inputParam: Record<string, unknown>, parameters: DeclaredInput[] | undefined) {
  try {
    convertParams(inputParam, parameters);
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    throw errors.invalidRequest(bodyIssues(error.problems.map((p) => ({ field: p.field.replace(/^params\b/, 'inputParam'), message: p.message }))));
  }
}

/**
 * Saves the rule's schedule, replacing any it has, or with `isDelete`
 * deletes it. Answers the schedule as stored, its expression and its next
 * three runs. Saving what is stored changes nothing.
 */
export async function saveSchedule(store: Store, scheduler: RuleScheduler, ref: EntityRef, body: ScheduleBody, auditor?: Auditor, now = Date.now()) {
  if (body.isDelete) return removeSchedule(store, scheduler, ref, auditor);
  const version = await latestVersion(store, ref);
  const definition = version.definition as ScheduledRuleDefinition;
  const result = prepareSchedule(body, { now, defaultTimezone: definition.settings?.timezone });
  if (!('prepared' in result)) throw errors.invalidRequest(bodyIssues(result.ok ? [] : result.issues));
  checkInputParam(result.prepared.schedule.inputParam, definition.parameters);
  // The input is recorded by its digest: what changed is traceable, and values a caller may hold private stay out of the log.
  const detail = { expression: result.prepared.expression, inputChecksum: sha256(canonicalJson(result.prepared.schedule.inputParam)) };
  const audit = auditEvent(auditor, scheduleTarget(ref), { detail });
  await writeSchedule(store, scheduler, ruleScopeOf(ref), result.prepared, new Date(now).toISOString(), audit);
  return scheduleView(result.prepared, now);
}

/** Deletes the rule's schedule: what it was, or `deleted: false` when it had none. A rule that is not there and has none is 404. */
export async function removeSchedule(store: Store, scheduler: RuleScheduler, ref: EntityRef, auditor?: Auditor) {
  const removed = await deleteRuleSchedule(store, scheduler, ruleScopeOf(ref), auditEvent(auditor, scheduleTarget(ref), { detail: { deleted: true } }));
  if (removed) return { deleted: true, schedule: removed.schedule, expression: removed.expression };
  if (!(await store.getEntity(ref))) throw errors.entityNotFound(ref.entityType, ref.id);
  return { deleted: false };
}

/** The rule's schedule with its next three runs; 404 schedule_not_found when it has none. */
export async function getSchedule(store: Store, ref: EntityRef, now = Date.now()) {
  const [stored, entity] = await Promise.all([store.getSchedule(ruleScopeOf(ref)), store.getEntity(ref)]);
  if (!entity) throw errors.entityNotFound(ref.entityType, ref.id);
  // One being deleted is gone for its readers; the delete's retry finishes it.
  if (!stored || stored.state === 'deleting') throw errors.scheduleNotFound(ref.id);
  return scheduleView(stored, now);
}

/** The audit log names a schedule by its rule. */
const scheduleTarget = (ref: EntityRef) => ({ type: 'schedule', id: ref.id, branch: ref.branch });
