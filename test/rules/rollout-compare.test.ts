/**
 * How the candidate's answer is held against the served version's: the same
 * output whatever the order of its keys and the form of its numbers, the
 * same failure, or which one failed; and what a sample keeps of each.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../lib/decimal/json.ts';
import { agreementOf, canonicalOutput, keptOutcome, sameOutput } from '../../lib/rules/rollout-compare.ts';
import { maxRecordedOutputBytes } from '../../lib/rules/executions.ts';

const failed = (code: string) => ({ error: { code, message: `failed: ${code}` } });

describe('the same output', () => {
  it('whatever the order of object keys, nested', () => {
    expect(sameOutput({ fee: 1, band: 'a', more: { x: [1, { b: 2, a: 1 }] } }, { more: { x: [1, { a: 1, b: 2 }] }, band: 'a', fee: 1 })).toBe(true);
    expect(sameOutput([1, 2], [2, 1])).toBe(false);
    expect(sameOutput({ fee: 1 }, { fee: 1, extra: null })).toBe(false);
    expect(sameOutput({ fee: '1' }, { fee: 1 })).toBe(false);
    expect(sameOutput(null, {})).toBe(false);
  });

  it('numbers by value: an exact decimal equals itself however written, and differs from its nearest double when they differ', () => {
    const [a, b] = ['{"fee":0.10000000000000000001}', '{"fee":1.0000000000000000001e-1}'].map(parseJson);
    expect(sameOutput(a, b)).toBe(true);
    expect(sameOutput(a, { fee: 0.1 })).toBe(false);
    expect(sameOutput(parseJson('{"fee":10.50}'), { fee: 10.5 })).toBe(true);
  });

  it('is an equivalence: text equal exactly when JSON with sorted keys is', () => {
    const sortedJson = (value: unknown): string =>
      JSON.stringify(value, (_key, v: unknown) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v,
      );
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (x, y) => {
        expect(sameOutput(x, x)).toBe(true);
        expect(sameOutput(x, y)).toBe(sortedJson(x) === sortedJson(y));
        expect(canonicalOutput(x)).toBe(canonicalOutput(structuredClone(x)));
      }),
    );
  });
});

describe('agreement', () => {
  it('is the same output or the same failure; else a disagreement, unless only one of them failed', () => {
    expect(agreementOf({ output: { fee: 1 } }, { output: { fee: 1 } })).toBe('agree');
    expect(agreementOf({ output: { fee: 1 } }, { output: { fee: 2 } })).toBe('disagree');
    expect(agreementOf(failed('evaluation_failed'), failed('evaluation_failed'))).toBe('agree');
    expect(agreementOf(failed('evaluation_failed'), failed('invalid_params'))).toBe('disagree');
    expect(agreementOf({ output: { fee: 1 } }, failed('evaluation_failed'))).toBe('candidateFailed');
    expect(agreementOf(failed('evaluation_failed'), { output: { fee: 1 } })).toBe('baselineFailed');
  });
});

describe('a sample keeps', () => {
  it("each version's output, or its failure, and leaves out an output larger than an execution keeps", () => {
    expect(keptOutcome('v2', { output: { fee: 1 } })).toEqual({ version: 'v2', output: { fee: 1 } });
    expect(keptOutcome('v2', failed('evaluation_failed'))).toEqual({
      version: 'v2',
      error: { code: 'evaluation_failed', message: 'failed: evaluation_failed' },
    });
    expect(keptOutcome('v2', { output: { text: 'x'.repeat(maxRecordedOutputBytes) } })).toEqual({ version: 'v2', outputOmitted: true });
  });
});
