/**
 * Keeps the scheduler in step with the stored schedules. The store is the
 * record of what each rule's schedule should be; the scheduler (EventBridge
 * Scheduler, or the local one) only runs it. There is no transaction across
 * the two, so every change is written to the store first, marked as not yet
 * applied (`pending` for a save, `deleting` for a delete), then applied to
 * the scheduler, then marked `deployed` (or, for a delete, removed from the
 * store), each store write conditional on the revision read.
 *
 * What that gives:
 * - The scheduler never holds a schedule the store has no item for, so a
 *   rule with no stored schedule needs no scheduler call to delete one.
 * - When the scheduler call fails after the store write, the item stays
 *   `pending` (or `deleting`) and the request fails (500, retry). The next
 *   save of the rule's schedule, even with the same body, sends it to the
 *   scheduler again, and the next delete deletes it: they converge. Until
 *   then the scheduler holds the previous schedule (or none), and a read
 *   shows what was saved.
 * - Saving what is stored and deployed changes nothing, in either.
 * - When another request changed the item between our write and our mark,
 *   the mark's condition fails, and what is stored now is applied again and
 *   marked, so the scheduler ends with the store's last write. What is left:
 *   with two saves of one rule's schedule at once, the one whose scheduler
 *   call lands last stopping (a timeout) before its mark leaves the
 *   scheduler with its body and the store with the other's; the next save
 *   of another body, or a delete, converges that too.
 */
import { RevisionConflict, retryOnRevisionConflict } from '../store/revision-retry.ts';
import type { AuditEvent, RuleScope, ScheduleStore, StoredRuleSchedule } from '../store/types.ts';
import { deploymentOf, type RuleScheduler } from './scheduler.ts';
import type { PreparedSchedule } from './spec.ts';

/** Rounds of applying what is stored while other writers keep changing it. */
const maxRounds = 3;

const sameSchedule = (stored: StoredRuleSchedule, prepared: PreparedSchedule) =>
  stored.expression === prepared.expression && JSON.stringify(stored.schedule) === JSON.stringify(prepared.schedule);

/** A delete of a rule that has a schedule, made where no scheduler can be reached (the CLI, on the table alone). */
export class SchedulerUnavailable extends Error {
  constructor(scope: RuleScope) {
    super(
      `the rule "${scope.ruleId}" has a schedule on ${scope.branch}, which only the API can remove: delete the schedule through the API first (POST /dev/v1/rule/${scope.ruleId}/schedule with {"isDelete": true})`,
    );
  }
}

/**
 * Applies what was just written to the scheduler and marks it applied. When
 * the mark finds that another request wrote in between, our scheduler call
 * may have landed after theirs, even after their mark: what is stored now
 * is applied again, `deployed` or not, and marked, until a mark holds.
 */
async function converge(store: ScheduleStore, scheduler: RuleScheduler, scope: RuleScope, written: StoredRuleSchedule): Promise<void> {
  let current: StoredRuleSchedule | undefined = written;
  for (let round = 1; ; round++) {
    try {
      // Gone: a concurrent delete removed it after we wrote, and our scheduler call may have come after its.
      if (!current) return void (await scheduler.deleteSchedule(scope));
      if (current.state === 'deleting') {
        await scheduler.deleteSchedule(scope);
        return await store.deleteSchedule(scope, current.revision);
      }
      await scheduler.putSchedule(deploymentOf(scope, current));
      return await store.putSchedule(scope, { ...current, state: 'deployed', revision: current.revision + 1 }, current.revision);
    } catch (error) {
      if (!(error instanceof RevisionConflict) || round >= maxRounds) throw error;
    }
    current = await store.getSchedule(scope);
  }
}

/** Stores the rule's schedule and deploys it; nothing is written when it is stored and deployed as it is. */
export async function writeSchedule(
  store: ScheduleStore,
  scheduler: RuleScheduler,
  scope: RuleScope,
  prepared: PreparedSchedule,
  updatedAt: string,
  audit?: AuditEvent,
): Promise<void> {
  const written = await writeUnlessChanged(
    store,
    scope,
    (stored) => {
      if (stored && stored.state !== 'deleting' && sameSchedule(stored, prepared)) return stored.state === 'deployed' ? undefined : stored;
      return { ...prepared, state: 'pending', revision: (stored?.revision ?? 0) + 1, updatedAt };
    },
    audit,
  );
  if (written) await converge(store, scheduler, scope, written);
}

/**
 * Deletes the rule's schedule, from the scheduler and then the store;
 * returns what was stored, or undefined when there was none. Without a
 * scheduler, a rule with a schedule is refused (SchedulerUnavailable).
 */
export async function deleteRuleSchedule(
  store: ScheduleStore,
  scheduler: RuleScheduler | undefined,
  scope: RuleScope,
  audit?: AuditEvent,
): Promise<StoredRuleSchedule | undefined> {
  let removed: StoredRuleSchedule | undefined;
  const marked = await writeUnlessChanged(
    store,
    scope,
    (stored) => {
      removed = stored;
      if (stored && !scheduler) throw new SchedulerUnavailable(scope);
      return stored && { ...stored, state: 'deleting', revision: stored.revision + (stored.state === 'deleting' ? 0 : 1) };
    },
    audit,
  );
  if (marked) await converge(store, scheduler!, scope, marked);
  return removed;
}

/**
 * Reads the stored schedule and writes what `next` makes of it (the same
 * revision: nothing to write, only to apply), on condition that no one
 * wrote in between; read again when someone did. Returns what is to be
 * applied, undefined for nothing.
 */
function writeUnlessChanged(
  store: ScheduleStore,
  scope: RuleScope,
  next: (stored: StoredRuleSchedule | undefined) => StoredRuleSchedule | undefined,
  audit?: AuditEvent,
): Promise<StoredRuleSchedule | undefined> {
  return retryOnRevisionConflict(async () => {
    const stored = await store.getSchedule(scope);
    const wanted = next(stored);
    if (!wanted || wanted.revision === stored?.revision) return wanted;
    await store.putSchedule(scope, wanted, stored?.revision ?? 0, audit);
    return wanted;
  });
}
