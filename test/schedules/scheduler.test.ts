/**
 * What both schedulers share: the names Scheduler gets (valid, at most 64
 * characters, deterministic, one per rule and branch and one group per
 * workspace), the input every run carries, and the deployment a prepared
 * schedule becomes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deploymentOf, parseScheduledRun, scheduleGroupName, scheduleInput, scheduleName } from '../../lib/schedules/scheduler.ts';
import { parseScheduleBody } from '../../lib/schedules/spec.ts';

const valid = /^[0-9a-zA-Z-_.]{1,64}$/;

describe('names', () => {
  it('are the ids, escaped, when they fit', () => {
    expect(scheduleGroupName('demo')).toBe('rules.demo');
    expect(scheduleGroupName('demo', 'rules-prod')).toBe('rules-prod.demo');
    expect(scheduleName({ ruleId: 'shipping-cost', branch: 'main' })).toBe('shipping-cost__main');
    expect(scheduleName({ ruleId: 'shipping.cost_v2', branch: 'feature/x' })).toBe('shipping.cost_5Fv2__feature_2Fx');
    expect(scheduleName({ ruleId: 'r', branch: 'café' })).toBe('r__caf_C3_A9');
  });

  it('are cut and hashed when they do not fit', () => {
    const workspace = 'w'.repeat(63);
    const group = scheduleGroupName(workspace);
    expect(group).toMatch(/^rules_w{25}_[0-9a-f]{32}$/);
    expect(group).toHaveLength(64);
    const name = scheduleName({ ruleId: `a${'b'.repeat(127)}`, branch: 'release/2026.04' });
    expect(name).toMatch(/^ab{19}\.release-\.[0-9a-f]{32}$/);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(scheduleName({ ruleId: `a${'b'.repeat(127)}`, branch: 'release/2026.05' })).not.toBe(name);
  });

  it('refuse a prefix Scheduler names cannot start with', () => {
    expect(() => scheduleGroupName('demo', 'rules.x')).toThrow(/prefix/);
    expect(() => scheduleGroupName('demo', '')).toThrow(/prefix/);
    expect(() => scheduleGroupName('demo', 'x'.repeat(21))).toThrow(/prefix/);
  });

  it('keep apart ids that escaping or cutting could confuse', () => {
    const pairs: [string, string][] = [
      ['a', '_b'],
      ['a_', 'b'],
      ['a__b', 'c'],
      ['a', 'b__c'],
      ['a_5F', 'b'],
      ['a', '_5Fb'],
      ['a.b', 'c'],
      ['a', 'b.c'],
      ['x', 'feature/x'],
      ['x', 'feature_2Fx'],
    ];
    const names = pairs.map(([ruleId, branch]) => scheduleName({ ruleId, branch }));
    expect(new Set(names).size).toBe(pairs.length);
  });

  it('are valid and distinct for any ids and branch names', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '.', '-', '_', '/', 'é', '€', '😀', '5', 'F'), minLength: 1, maxLength: 80 });
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(text, text), { minLength: 2, maxLength: 30, selector: ([r, b]) => JSON.stringify([r, b]) }), (pairs) => {
        const names = pairs.map(([ruleId, branch]) => scheduleName({ ruleId, branch }));
        for (const name of names) expect(name).toMatch(valid);
        expect(new Set(names).size).toBe(pairs.length);
        expect(pairs.map(([ruleId, branch]) => scheduleName({ ruleId, branch }))).toEqual(names);
      }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(text, { minLength: 2, maxLength: 30 }), (workspaces) => {
        const groups = workspaces.map((w) => scheduleGroupName(w));
        for (const group of groups) expect(group).toMatch(valid);
        expect(new Set(groups).size).toBe(workspaces.length);
      }),
    );
  });
});

describe('the run input', () => {
  const key = { workspaceId: 'demo', branch: 'main', ruleId: 'shipping-cost' };

  it("carries workspace, branch, rule, inputParam and Scheduler's scheduled-time attribute", () => {
    expect(scheduleInput(key, { weight: 2 })).toBe(
      '{"workspaceId":"demo","branch":"main","ruleId":"shipping-cost","scheduledTime":"<aws.scheduler.scheduled-time>","inputParam":{"weight":2}}',
    );
  });

  it('is checked by the function that runs it', () => {
    const filled = scheduleInput(key, { weight: 2 }).replace('<aws.scheduler.scheduled-time>', '2026-03-30T00:30:00Z');
    const run = { ...key, scheduledTime: '2026-03-30T00:30:00Z', inputParam: { weight: 2 } };
    expect(parseScheduledRun(JSON.parse(filled))).toEqual(run);
    expect(parseScheduledRun(filled)).toEqual(run);
    expect(() => parseScheduledRun({ ...run, inputParam: [] })).toThrow(/not a scheduled run/);
    expect(() => parseScheduledRun({ ...run, ruleId: 1 })).toThrow(/not a scheduled run/);
    expect(() => parseScheduledRun(null)).toThrow(/not a scheduled run/);
  });

  it('comes from a prepared schedule', () => {
    const result = parseScheduleBody(
      { unit: 'day', isEnabled: false, startAt: '2030-01-01T00:00:00+01:00', endAt: '2031-01-01T00:00:00Z', timezone: 'Europe/Berlin', inputParam: { a: 1 } },
      { now: Date.parse('2026-01-01T00:00:00Z') },
    );
    if (!result.ok || result.isDelete) throw new Error('refused');
    expect(deploymentOf(key, result.prepared)).toEqual({
      key,
      expression: 'cron(0 0 * * ? *)',
      timezone: 'Europe/Berlin',
      startAt: '2030-01-01T00:00:00+01:00',
      endAt: '2031-01-01T00:00:00Z',
      enabled: false,
      inputParam: { a: 1 },
    });
  });
});
