/**
 * Which version answers an execution under a rollout: the same stickyBy
 * value always the same version (and a wider canary keeps those a narrower
 * one picked), the candidate's share within statistical bounds whether the
 * pick is by a sticky value or by execution id, and no part in a rollout for
 * an execution that names its version, or a rollout that has stopped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../lib/decimal/json.ts';
import { canaryBucket, otherLabel, rolloutTurn, servedLabel, stickyValue } from '../../lib/rules/rollout-canary.ts';
import { newExecutionId } from '../../lib/rules/executions.ts';
import type { EntityRef, Rollout } from '../../lib/store/types.ts';

const ref: EntityRef = { workspaceId: 'w', branch: 'main', entityType: 'rule', id: 'fees' };
const canary = (percent: number, stickyBy?: string): Rollout => ({
  id: 'ro_1',
  candidate: 'v3',
  mode: 'canary',
  percent,
  ...(stickyBy && { stickyBy }),
  startedAt: '2026-01-01T00:00:00.000Z',
  startedBy: 'key:k',
});
const head = (rollout: Rollout) => ({ version: 'v2', createdAt: '2025-01-01T00:00:00.000Z', rollout });
const servedBy = (rollout: Rollout, params: unknown, executionId = newExecutionId()) => rolloutTurn(ref, head(rollout), { params }, executionId)!.servedBy;

/** Whether `count` of `n` draws at rate `p` lies within `sigmas` standard deviations of the mean. */
const withinBinomial = (count: number, n: number, p: number, sigmas = 5) => Math.abs(count - n * p) <= sigmas * Math.sqrt(n * p * (1 - p));

describe('the canary bucket', () => {
  it('is a stable number from 0 to 99 of rule, candidate and value', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (ruleId, candidate, value) => {
        const bucket = canaryBucket(ruleId, candidate, value);
        expect(Number.isInteger(bucket) && bucket >= 0 && bucket < 100).toBe(true);
        expect(canaryBucket(ruleId, candidate, value)).toBe(bucket);
      }),
    );
    // A fixed point, so that a change of the hash (which would move customers between versions mid-rollout) is seen.
    expect([canaryBucket('fees', 'v3', 'cust-42'), canaryBucket('fees', 'v4', 'cust-42')]).toEqual([31, 44]);
  });
});

describe('a canary', () => {
  it('gives the same stickyBy value the same version on every execution, and keeps it there as the canary widens', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 49 }),
        fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean()),
        fc.array(fc.string(), { minLength: 2, maxLength: 5 }),
        (percent, more, id, executionIds) => {
          const rollout = canary(percent, 'customer.id');
          const params = { customer: { id }, weightKg: 1 };
          const versions = new Set(executionIds.map((executionId) => servedBy(rollout, params, executionId)));
          expect(versions.size).toBe(1);
          const wider = Math.min(50, percent + more);
          if (versions.has('candidate')) expect(servedBy(canary(wider, 'customer.id'), params)).toBe('candidate');
        },
      ),
    );
  });

  it('reads the same value from exact numbers as from their text: 10.50 and 10.5 are one customer', () => {
    const rollout = canary(50, 'customer.id');
    const versions = ['{"customer":{"id":10.5}}', '{"customer":{"id":10.50}}', '{"customer":{"id":1.05e1}}'].map((text) => servedBy(rollout, parseJson(text)));
    expect(new Set(versions).size).toBe(1);
    expect(stickyValue(parseJson('{"id":12345678901234567890.5}'), 'id')).toBe('12345678901234567890.5');
  });

  it('serves the candidate to its share, within a binomial 5-sigma band: by 10,000 sticky values, and by 10,000 execution ids', () => {
    for (const percent of [1, 20, 50]) {
      const bySticky = Array.from({ length: 10_000 }, (_, i) => servedBy(canary(percent, 'customer.id'), { customer: { id: `cust-${i}` } }));
      // Execution ids are random; their hash spreads any distinct ones alike.
      const byExecution = Array.from({ length: 10_000 }, (_, i) => servedBy(canary(percent), { weightKg: 1 }, `exec_${i}`));
      for (const served of [bySticky, byExecution]) {
        const share = served.filter((arm) => arm === 'candidate').length;
        expect(withinBinomial(share, 10_000, percent / 100), `${percent}%: ${share} of 10,000`).toBe(true);
      }
    }
  });

  it('picks params without the stickyBy value by execution id, and says so', () => {
    const rollout = canary(50, 'customer.id');
    for (const params of [
      {},
      { customer: {} },
      { customer: { id: null } },
      { customer: { id: { nested: 1 } } },
      { customer: [1] },
      { customer: { id: [1] } },
    ]) {
      const turn = rolloutTurn(ref, head(rollout), { params }, newExecutionId())!;
      expect(turn.sticky, JSON.stringify(params)).toBe(false);
    }
    expect(rolloutTurn(ref, head(rollout), { params: { customer: { id: 'c' } } }, newExecutionId())!.sticky).toBe(true);
    expect(rolloutTurn(ref, head(canary(50)), { params: {} }, newExecutionId())!.sticky).toBe(true);
  });

  it('runs the candidate for its share and compares the served version, and the other way round', () => {
    const rollout = canary(50, 'id');
    const turns = Array.from({ length: 100 }, (_, id) => rolloutTurn(ref, head(rollout), { params: { id } }, 'x')!);
    const [candidateTurn, baselineTurn] = ['candidate', 'baseline'].map((arm) => turns.find((turn) => turn.servedBy === arm));
    expect([servedLabel(candidateTurn), otherLabel(candidateTurn!)]).toEqual(['v3', 'v2']);
    expect([servedLabel(baselineTurn), otherLabel(baselineTurn!)]).toEqual([undefined, 'v3']);
  });
});

describe('an execution takes no part in a rollout', () => {
  it('when it names a version, when the rollout has stopped, or when there is no served version', () => {
    const rollout = canary(50);
    expect(rolloutTurn(ref, head(rollout), { params: {}, version: 'v2' }, 'x')).toBeUndefined();
    expect(rolloutTurn(ref, head({ ...rollout, endedAt: '2026-01-02T00:00:00.000Z', ending: 'ended' }), { params: {} }, 'x')).toBeUndefined();
    expect(rolloutTurn(ref, { ...head(rollout), version: '' }, { params: {} }, 'x')).toBeUndefined();
    expect(rolloutTurn(ref, { version: 'v2', createdAt: '' }, { params: {} }, 'x')).toBeUndefined();
    expect(rolloutTurn(ref, undefined, { params: {} }, 'x')).toBeUndefined();
  });
});

describe('the sticky value', () => {
  it('is read by its path, as own properties only', () => {
    const params = { customer: { id: 'c-1', no: 7, vip: true, nested: { deep: 'd' } }, 'a.b': 'dotted' };
    expect(stickyValue(params, 'customer.id')).toBe('c-1');
    expect(stickyValue(params, 'customer.no')).toBe('7');
    expect(stickyValue(params, 'customer.vip')).toBe('true');
    expect(stickyValue(params, 'customer.nested.deep')).toBe('d');
    expect(stickyValue(params, 'customer.nested')).toBeUndefined();
    expect(stickyValue(params, 'customer.missing')).toBeUndefined();
    expect(stickyValue(params, 'customer.toString')).toBeUndefined();
    expect(stickyValue(params, '__proto__')).toBeUndefined();
    expect(stickyValue(params, 'customer.constructor.name')).toBeUndefined();
    expect(stickyValue(params, 'a.b')).toBeUndefined();
  });
});
