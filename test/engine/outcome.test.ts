/**
 * One outcome and one comparison for every place that holds two answers
 * side by side (a rollout, a replay): when two outputs are the same answer,
 * and that two failures are only with the same code.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNumber } from '../../lib/decimal/decimal.ts';
import { parseJson } from '../../lib/decimal/json.ts';
import { checkRule } from '../../lib/engine/authoring.ts';
import { parcelFee } from '../helpers/rules.ts';
import { compareOutcomes, compileRule, EngineError, evaluateOutcome, hitsOf, keptFailure, sameValue, type RuleDefinition } from '../../lib/engine/index.ts';

const failed = (code: string) => ({ error: { code, message: `failed: ${code}` } });

describe('the same output', () => {
  it('whatever the order of object keys, nested', () => {
    expect(sameValue({ fee: 1, band: 'a', more: { x: [1, { b: 2, a: 1 }] } }, { more: { x: [1, { a: 1, b: 2 }] }, band: 'a', fee: 1 })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue({ fee: 1 }, { fee: 1, extra: null })).toBe(false);
    expect(sameValue({ fee: '1' }, { fee: 1 })).toBe(false);
    expect(sameValue(null, {})).toBe(false);
  });

  it('numbers by value: an exact decimal equals itself however written, and differs from its nearest double when they differ', () => {
    const [a, b] = ['{"fee":0.10000000000000000001}', '{"fee":1.0000000000000000001e-1}'].map(parseJson);
    expect(sameValue(a, b)).toBe(true);
    expect(sameValue(a, { fee: 0.1 })).toBe(false);
    expect(sameValue(parseJson('{"fee":10.50}'), { fee: 10.5 })).toBe(true);
  });

  it('is an equivalence on JSON: the same exactly when JSON with sorted keys is', () => {
    const sortedJson = (value: unknown): string =>
      JSON.stringify(value, (_key, v: unknown) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v,
      );
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (x, y) => {
        expect(sameValue(x, x)).toBe(true);
        expect(sameValue(x, y)).toBe(sortedJson(x) === sortedJson(y));
        expect(sameValue(x, structuredClone(x))).toBe(true);
      }),
    );
  });
});

describe('FEEL values', () => {
  it('are the same answer when JSON gives them the same text', () => {
    const date = (text: string) => ({ toJSON: () => text });
    expect(sameValue({ due: date('2026-03-01') }, { due: date('2026-03-01') })).toBe(true);
    expect(sameValue({ due: date('2026-03-01') }, { due: date('2026-03-02') })).toBe(false);
    expect(sameValue(date('P1D'), 'P1D')).toBe(true);
  });

  it('numbers by value between a double and a decimal', () => {
    expect(sameValue(1.5, parseNumber('1.50')!)).toBe(true);
    expect(sameValue(parseNumber('12345678901234567890.1')!, parseNumber('12345678901234567890.2')!)).toBe(false);
  });
});

describe('comparing two outcomes', () => {
  it('names the same answer, a changed one, or which side failed', () => {
    expect(compareOutcomes({ output: { fee: 1.5 } }, { output: { fee: parseNumber('1.50')! } })).toBe('same');
    expect(compareOutcomes({ output: { fee: 1 } }, { output: { fee: 2 } })).toBe('changed');
    expect(compareOutcomes({ output: { fee: 1 } }, failed('evaluation_failed'))).toBe('newlyFailing');
    expect(compareOutcomes(failed('evaluation_failed'), { output: { fee: 1 } })).toBe('newlySucceeding');
    expect(compareOutcomes(failed('invalid_params'), failed('invalid_params'))).toBe('bothFailing');
  });

  it('holds two failures with different codes to be a changed answer, whatever their messages', () => {
    expect(compareOutcomes(failed('invalid_params'), failed('evaluation_failed'))).toBe('changed');
    expect(compareOutcomes(failed('invalid_params'), { error: { code: 'invalid_params', message: 'another message' } })).toBe('bothFailing');
  });

  it('is symmetric in whether the answer is the same', () => {
    const outcome = fc.oneof(
      fc.jsonValue().map((output) => ({ output })),
      fc.constantFrom('invalid_params', 'evaluation_failed').map(failed),
    );
    fc.assert(
      fc.property(outcome, outcome, (a, b) => {
        const same = (x: typeof a, y: typeof b) => ['same', 'bothFailing'].includes(compareOutcomes(x, y));
        expect(same(a, b)).toBe(same(b, a));
        expect(same(a, a)).toBe(true);
      }),
    );
  });
});

describe('an evaluation as an outcome', () => {
  const { definition } = parcelFee('fee');
  const rule = compileRule(checkRule({ kind: 'decisionTable', definition } as unknown as RuleDefinition).prepared);

  it("answers with the hits that gave it, or keeps the engine's failure as its error", () => {
    const answered = evaluateOutcome(rule, { weightKg: 12 });
    expect(answered).toMatchObject({ output: { fee: expect.anything() } });
    expect(hitsOf(answered)).toEqual([1]);
    const refused = evaluateOutcome(rule, { weightKg: 'heavy' });
    expect('error' in refused && refused.error).toBeInstanceOf(EngineError);
    expect(hitsOf(refused)).toEqual([]);
    expect(keptFailure(refused)).toEqual({ error: { code: 'invalid_params', message: expect.any(String) } });
  });
});
