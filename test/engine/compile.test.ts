/** Simple rules, rule sets (chaining, first match, references) and params checked against declared inputs. */
import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule, type CompiledRule } from '../../lib/engine/compile.ts';
import type { RuleDefinition } from '../../lib/engine/definitions.ts';
import { EngineError } from '../../lib/engine/errors.ts';
import { prepareRule } from '../../lib/engine/prepare.ts';

const compile = (rule: RuleDefinition, resolve?: (id: string) => CompiledRule) => {
  const { prepared, problems } = prepareRule(rule);
  expect(problems).toEqual([]);
  return compileRule(prepared, resolve);
};

describe('simple rules', () => {
  const rule = compile({
    kind: 'simpleRule',
    definition: { when: 'order.total >= 50', then: { fee: 0, note: '"free above " + string(50)' }, otherwise: { fee: 'order.total * 0.1' } },
  });

  it('gives then when the condition holds, otherwise when it does not', () => {
    expect(evaluateRule(rule, { order: { total: 60 } }).output).toEqual({ fee: 0, note: 'free above 50' });
    expect(evaluateRule(rule, { order: { total: 20 } }).output).toEqual({ fee: 2 });
  });

  it('takes a null condition as not holding, and the trace says why', () => {
    const { output, trace } = evaluateRule(rule, { order: {} }, { trace: true });
    expect(output).toEqual({ fee: null });
    expect(trace).toEqual({ kind: 'simpleRule', condition: 'order.total >= 50', result: null, reason: 'no entry "total" in "order"' });
  });

  it('gives null without an otherwise', () => {
    expect(evaluateRule(compile({ kind: 'simpleRule', definition: { when: 'false', then: { x: 1 } } }), {}).output).toBeNull();
  });
});

describe('rule sets', () => {
  const entries = [
    { id: 'big', when: 'amount > 100', then: [{ set: 'risk.score', value: 50 }] },
    { id: 'bigger', when: 'risk.score >= 50 and amount > 1000', then: [{ set: 'risk.score', value: 'risk.score + 40' }] },
    { id: 'always', when: 'true', then: [{ set: 'checked', value: true }] },
  ];

  it('allMatch: every entry whose condition holds, each seeing the outputs before it', () => {
    expect(evaluateRule(compile({ kind: 'ruleSet', definition: { strategy: 'allMatch', rules: entries } }), { amount: 5000 }).output).toEqual({
      risk: { score: 90 },
      checked: true,
    });
  });

  it('firstMatch: the first entry whose condition holds', () => {
    expect(evaluateRule(compile({ kind: 'ruleSet', definition: { strategy: 'firstMatch', rules: entries } }), { amount: 5000 }).output).toEqual({
      risk: { score: 50 },
    });
    expect(evaluateRule(compile({ kind: 'ruleSet', definition: { strategy: 'firstMatch', rules: entries } }), { amount: 5 }).output).toEqual({ checked: true });
  });

  it('runs higher priorities first, equal ones in list order', () => {
    const rule = compile({
      kind: 'ruleSet',
      definition: {
        strategy: 'firstMatch',
        rules: [
          { id: 'low', priority: 1, when: 'true', then: [{ set: 'by', value: '"low"' }] },
          { id: 'high', priority: 5, when: 'true', then: [{ set: 'by', value: '"high"' }] },
        ],
      },
    });
    expect(evaluateRule(rule, {}).output).toEqual({ by: 'high' });
  });

  it('runs referenced rules with the params and the outputs so far, and traces them', () => {
    const vip = compile({ kind: 'simpleRule', definition: { when: 'spent > 1000', then: { vip: true }, otherwise: { vip: false } } });
    const rule = compile(
      {
        kind: 'ruleSet',
        definition: {
          rules: [
            { id: 'value', ruleId: 'vip' },
            { id: 'discount', when: 'vip', then: [{ set: 'discount', value: 0.1 }] },
          ],
        },
      },
      (id) => (id === 'vip' ? vip : undefined!),
    );
    const { output, trace } = evaluateRule(rule, { spent: 2000 }, { trace: true });
    expect(output).toEqual({ vip: true, discount: 0.1 });
    expect(trace).toMatchObject({
      kind: 'ruleSet',
      entries: [
        { id: 'value', ruleId: 'vip', matched: true, trace: { kind: 'simpleRule', result: true } },
        { id: 'discount', matched: true },
      ],
    });
  });

  it('needs its references handed in', () => {
    const { prepared } = prepareRule({ kind: 'ruleSet', definition: { rules: [{ id: 'value', ruleId: 'vip' }] } });
    expect(() => compileRule(prepared)).toThrow(EngineError);
  });
});

describe('params', () => {
  const rule = compile({
    kind: 'simpleRule',
    definition: {
      parameters: [
        { name: 'birth', type: 'date' },
        { name: 'count', type: 'number' },
      ],
      when: 'birth < date("2000-01-01") and count > 1',
      then: { ok: true },
      otherwise: { ok: false },
    },
  });

  it('are converted to their declared types; a missing one is null', () => {
    expect(evaluateRule(rule, { birth: '1990-05-01', count: 2 }).output).toEqual({ ok: true });
    expect(evaluateRule(rule, { birth: '1990-05-01' }).output).toEqual({ ok: false });
  });

  it('for a date and time may be a date alone, that date at midnight, as DMN reads date and time("2018-12-08")', () => {
    const at = compile({
      kind: 'simpleRule',
      definition: {
        parameters: [{ name: 'at', type: 'datetime' }],
        when: 'at = date and time("2018-12-08T00:00:00")',
        then: { midnight: true },
        otherwise: { midnight: false },
      },
    });
    expect(evaluateRule(at, { at: '2018-12-08' }).output).toEqual({ midnight: true });
    expect(evaluateRule(at, { at: '2018-12-08T00:00:01' }).output).toEqual({ midnight: false });
    expect(() => evaluateRule(at, { at: 'yesterday' })).toThrow(EngineError);
  });

  it('of the wrong type are refused, each named with why', () => {
    try {
      evaluateRule(rule, { birth: 'yesterday', count: '2' });
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe('invalid_params');
      expect((error as EngineError).problems).toEqual([
        { field: 'params.birth', message: 'expected a date such as "2025-01-31", got the string "yesterday"' },
        { field: 'params.count', message: 'expected a number, got the string "2"' },
      ]);
    }
  });

  it('must be an object', () => {
    expect(() => evaluateRule(rule, [1, 2])).toThrow(/must be a JSON object/);
  });

  it('named like prototype members are names like any other', () => {
    const proto = compile({ kind: 'simpleRule', definition: { when: 'constructor = 1', then: { seen: 'toString' } } });
    expect(evaluateRule(proto, JSON.parse('{"constructor": 1, "toString": "x"}')).output).toEqual({ seen: 'x' });
    expect(evaluateRule(proto, {}).output).toBeNull();
  });
});
