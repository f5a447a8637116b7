/**
 * The stored schedule and the scheduler kept in step (lib/schedules/sync.ts),
 * on the embedded store with a scheduler that records its calls and can fail
 * or let another writer in: a scheduler failure after the store write leaves
 * the item pending and the next save (the same body too) converges; a
 * delete that failed half way is finished by the next; a write that lost
 * to a concurrent save or delete applies what is stored instead; without a
 * scheduler a rule with a schedule is refused before anything changes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { RuleScheduler, ScheduleDeployment, ScheduleKey } from '../../lib/schedules/scheduler.ts';
import { parseScheduleBody, type PreparedSchedule } from '../../lib/schedules/spec.ts';
import { deleteRuleSchedule, SchedulerUnavailable, writeSchedule } from '../../lib/schedules/sync.ts';
import type { RuleScope, StoredRuleSchedule } from '../../lib/store/types.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('schedule-sync');

interface FakeScheduler extends RuleScheduler {
  calls: string[];
  /** What it holds, by rule. */
  held: Map<string, ScheduleDeployment>;
  /** Runs before the next call of that kind (and is then forgotten): throw to fail it, or write to the store as another request would. */
  before: { put?: () => Promise<void> | void; delete?: () => Promise<void> | void };
}

function fakeScheduler(): FakeScheduler {
  const held = new Map<string, ScheduleDeployment>();
  const calls: string[] = [];
  const before: FakeScheduler['before'] = {};
  const take = async (kind: 'put' | 'delete') => {
    const hook = before[kind];
    delete before[kind];
    await hook?.();
  };
  return {
    calls,
    held,
    before,
    async ensureGroup() {},
    async putSchedule(deployment) {
      await take('put');
      calls.push(`put ${deployment.expression}`);
      held.set(deployment.key.ruleId, deployment);
    },
    async deleteSchedule(key: ScheduleKey) {
      await take('delete');
      calls.push('delete');
      return held.delete(key.ruleId);
    },
    async getSchedule() {
      return undefined;
    },
  };
}

const prepared = (body: unknown): PreparedSchedule => {
  const result = parseScheduleBody(body, { now: Date.now() });
  if (!('prepared' in result)) throw new Error(JSON.stringify(result));
  return result.prepared;
};
const hourly = prepared({ unit: 'hour', inputParam: { a: 1 } });
const daily = prepared({ unit: 'day' });
const at = '2026-03-20T12:00:00.000Z';

let rules = 0;
let scope: RuleScope;
let scheduler: FakeScheduler;
beforeEach(() => {
  scope = { workspaceId: 'w', branch: 'main', ruleId: `rule-${++rules}` };
  scheduler = fakeScheduler();
});
const stored = () => fixture.store.getSchedule(scope);
const failing = () => {
  throw new Error('Scheduler is unavailable');
};

describe('saving', () => {
  it('writes the store, then the scheduler, then marks it deployed', async () => {
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    expect(scheduler.calls).toEqual(['put cron(0 * * * ? *)']);
    expect(await stored()).toEqual({ ...hourly, state: 'deployed', revision: 2, updatedAt: at });
  });

  it('writes nothing, to either, when the same schedule is stored and deployed', async () => {
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    await writeSchedule(fixture.store, scheduler, scope, prepared({ unit: 'hour', inputParam: { a: 1 } }), '2026-03-21T00:00:00.000Z');
    expect(scheduler.calls).toHaveLength(1);
    expect((await stored())?.revision).toBe(2);
  });

  it('leaves the schedule pending when the scheduler fails after the store write; the same save again converges', async () => {
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    scheduler.before.put = failing;
    await expect(writeSchedule(fixture.store, scheduler, scope, daily, at)).rejects.toThrow('Scheduler is unavailable');
    expect(await stored()).toMatchObject({ ...daily, state: 'pending', revision: 3 });
    expect(scheduler.held.get(scope.ruleId)?.expression).toBe(hourly.expression);

    await writeSchedule(fixture.store, scheduler, scope, daily, at);
    expect(scheduler.held.get(scope.ruleId)?.expression).toBe(daily.expression);
    expect(await stored()).toMatchObject({ ...daily, state: 'deployed', revision: 4 });
  });

  it('applies what is stored when another save wrote between its store write and its mark', async () => {
    scheduler.before.put = async () => {
      // Another request saves the daily schedule (and has not called the scheduler yet).
      const current = (await stored())!;
      await fixture.store.putSchedule(scope, { ...daily, state: 'pending', revision: current.revision + 1, updatedAt: at }, current.revision);
    };
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    expect(scheduler.calls).toEqual(['put cron(0 * * * ? *)', 'put cron(0 0 * * ? *)']);
    expect(await stored()).toMatchObject({ ...daily, state: 'deployed' });
  });

  it('applies what is stored again when its own scheduler call landed after another save had deployed', async () => {
    scheduler.before.put = () => writeSchedule(fixture.store, scheduler, scope, daily, at);
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    // The daily save went through whole; the hourly put landed after it, found its mark refused, and applied the daily one again.
    expect(scheduler.calls).toEqual(['put cron(0 0 * * ? *)', 'put cron(0 * * * ? *)', 'put cron(0 0 * * ? *)']);
    expect(scheduler.held.get(scope.ruleId)?.expression).toBe(daily.expression);
    expect(await stored()).toMatchObject({ ...daily, state: 'deployed' });
  });

  it('deletes from the scheduler what it put when a delete removed the item in between', async () => {
    scheduler.before.put = async () => fixture.store.deleteSchedule(scope, (await stored())!.revision);
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    expect(scheduler.calls).toEqual(['put cron(0 * * * ? *)', 'delete']);
    expect(scheduler.held.has(scope.ruleId)).toBe(false);
    expect(await stored()).toBeUndefined();
  });
});

describe('deleting', () => {
  it('deletes from the scheduler, then the store, and answers what was stored', async () => {
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    const removed = await deleteRuleSchedule(fixture.store, scheduler, scope);
    expect(removed).toMatchObject({ ...hourly, state: 'deployed' });
    expect(scheduler.calls).toEqual(['put cron(0 * * * ? *)', 'delete']);
    expect(await stored()).toBeUndefined();
  });

  it('calls no scheduler for a rule with no stored schedule', async () => {
    expect(await deleteRuleSchedule(fixture.store, scheduler, scope)).toBeUndefined();
    expect(scheduler.calls).toEqual([]);
  });

  it('leaves the item deleting when the scheduler fails; the next delete finishes, and a save brings it back', async () => {
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    scheduler.before.delete = failing;
    await expect(deleteRuleSchedule(fixture.store, scheduler, scope)).rejects.toThrow('Scheduler is unavailable');
    expect(await stored()).toMatchObject({ state: 'deleting', revision: 3 });

    // A save of the same schedule over a delete that stopped sends it again.
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    expect(await stored()).toMatchObject({ state: 'deployed', revision: 5 });
    scheduler.before.delete = failing;
    await expect(deleteRuleSchedule(fixture.store, scheduler, scope)).rejects.toThrow();
    expect(await deleteRuleSchedule(fixture.store, scheduler, scope)).toMatchObject({ state: 'deleting' });
    expect(await stored()).toBeUndefined();
    expect(scheduler.held.has(scope.ruleId)).toBe(false);
  });

  it('without a scheduler, refuses a rule that has a schedule before changing anything', async () => {
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    const before = await stored();
    await expect(deleteRuleSchedule(fixture.store, undefined, scope)).rejects.toBeInstanceOf(SchedulerUnavailable);
    expect(await stored()).toEqual(before);
    expect(await deleteRuleSchedule(fixture.store, undefined, { ...scope, ruleId: 'never-scheduled' })).toBeUndefined();
  });
});

describe('the store', () => {
  it("keeps inputParam as JSON text, numbers beyond DynamoDB's range too, and compares as the save made it", async () => {
    const wide = prepared({ unit: 'hour', inputParam: { big: 1e300, nested: { list: [1, 'two', null] } } });
    await writeSchedule(fixture.store, scheduler, scope, wide, at);
    const kept = (await stored()) as StoredRuleSchedule;
    expect(JSON.stringify(kept.schedule)).toBe(JSON.stringify(wide.schedule));
  });

  it('refuses a write or delete at a revision that is no longer stored', async () => {
    await writeSchedule(fixture.store, scheduler, scope, hourly, at);
    const current = (await stored())!;
    await expect(fixture.store.putSchedule(scope, current, 1)).rejects.toThrow(/changed while it was being written/);
    await expect(fixture.store.putSchedule(scope, current, 0)).rejects.toThrow(/changed while it was being written/);
    await expect(fixture.store.deleteSchedule(scope, 1)).rejects.toThrow(/changed while it was being written/);
  });
});
