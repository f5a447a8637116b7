/** A rule's schedule as the store keeps it beside the scheduler that runs it (lib/schedules/sync.ts keeps the two in step). */
import type { StoredSchedule } from '../../vocabulary/schedule.ts';

/**
 * A rule's schedule on a branch as stored: what the last save asked for, and
 * how far the scheduler is known to follow it. Every write sets a state
 * other than `deployed` first, and the scheduler is called after it, so a
 * schedule the scheduler may hold is never missing from the store.
 */
export interface StoredRuleSchedule {
  schedule: StoredSchedule;
  /** As EventBridge Scheduler is sent it. */
  expression: string;
  /**
   * `deployed`: the scheduler holds it as stored. `pending`: saved, and the
   * scheduler may not hold it yet (the next save sends it again).
   * `deleting`: a delete began, and the scheduler may still hold it.
   */
  state: 'pending' | 'deployed' | 'deleting';
  revision: number;
  updatedAt: string;
}
