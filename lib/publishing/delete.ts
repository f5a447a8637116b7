/**
 * Deleting a rule or workflow: apart from the rest of authoring, so that the
 * delete function bundles neither the record schema nor the FEEL parser.
 */
import { auditEvent, entityTarget, type Auditor } from '../auth/auditor.ts';
import type { RuleScheduler } from '../schedules/scheduler.ts';
import { deleteRuleSchedule } from '../schedules/sync.ts';
import { deleteGate } from './gate.ts';
import { ruleScopeOf, type DirectoryStore, type EntityRef, type EntityStore, type ScheduleStore } from '../store/types.ts';

/**
 * Deletes an entity and its published versions, and a rule's schedule
 * first; deleting again changes nothing. Its executions expire as they
 * would. Without a scheduler (the CLI), a rule that has a schedule is
 * refused (SchedulerUnavailable).
 */
export async function deleteEntity(
  store: EntityStore & ScheduleStore & Pick<DirectoryStore, 'getBranch'>,
  ref: EntityRef,
  scheduler?: RuleScheduler,
  auditor?: Auditor,
) {
  await deleteGate(store, ref.workspaceId, ref.branch, [await store.getEntity(ref)]);
  // The schedule, then versions: a delete that stops half way leaves a visible rule to delete again, never a schedule running a rule that is gone, nor versions a new entity of the same id would collide with.
  if (ref.entityType === 'rule') await deleteRuleSchedule(store, scheduler, ruleScopeOf(ref));
  await store.deleteVersions(ref);
  return { id: ref.id, deleted: await store.deleteEntity(ref, auditEvent(auditor, entityTarget(ref))) };
}
