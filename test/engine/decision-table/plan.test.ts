/** Every hit policy and aggregation of a decision table, their errors, defaults, null handling, typed inputs, and the trace. */
import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule } from '../../../lib/engine/compile.ts';
import type { DecisionTableDefinition, HitPolicy } from '../../../lib/engine/definitions.ts';
import { EngineError } from '../../../lib/engine/errors.ts';
import { prepareRule } from '../../../lib/engine/prepare.ts';

function table(definition: Partial<DecisionTableDefinition> & Pick<DecisionTableDefinition, 'rules'>) {
  const full: DecisionTableDefinition = {
    inputs: [
      { id: 'age', expression: 'applicant.age', type: 'number' },
      { id: 'level', expression: 'applicant.level', type: 'string' },
    ],
    outputs: [{ id: 'band', name: 'band', type: 'string', allowedValues: ['high', 'medium', 'low'] }],
    ...definition,
  };
  const { prepared, problems } = prepareRule({ kind: 'decisionTable', definition: full });
  expect(problems).toEqual([]);
  const rule = compileRule(prepared);
  return (applicant: Record<string, unknown>, options: { trace?: boolean } = {}) => evaluateRule(rule, { applicant }, options);
}

const bands = {
  rules: [
    { id: 'minor', when: ['< 18', '-'], then: ['"low"'] },
    { id: 'gold', when: ['-', '"gold"'], then: ['"high"'] },
    { id: 'adult', when: ['>= 18', '-'], then: ['"medium"'] },
  ],
};

const evaluationError = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('evaluation_failed');
    return (error as EngineError).message;
  }
  throw new Error('no error');
};

describe('single-hit policies', () => {
  it('first: the first matching row in order', () => {
    const run = table({ hitPolicy: 'first', ...bands });
    expect(run({ age: 30, level: 'gold' }).output).toEqual({ band: 'high' });
    expect(run({ age: 10, level: 'gold' }).output).toEqual({ band: 'low' });
  });

  it('unique: the one matching row; two matching is an error naming both rows', () => {
    const run = table({ hitPolicy: 'unique', ...bands });
    expect(run({ age: 30, level: 'silver' }).output).toEqual({ band: 'medium' });
    expect(evaluationError(() => run({ age: 30, level: 'gold' }))).toMatch(/row 2 \(gold\) and row 3 \(adult\)/);
  });

  it('any: matching rows must agree; disagreeing rows are an error naming them', () => {
    const run = table({ hitPolicy: 'any', rules: [...bands.rules, { id: 'senior', when: ['>= 65', '-'], then: ['"medium"'] }] });
    expect(run({ age: 70, level: 'silver' }).output).toEqual({ band: 'medium' });
    expect(evaluationError(() => run({ age: 70, level: 'gold' }))).toMatch(/row 2 \(gold\) and row 3 \(adult\)/);
  });

  it('priority: the matching row whose output comes first in the allowed values', () => {
    const run = table({ hitPolicy: 'priority', ...bands });
    expect(run({ age: 10, level: 'gold' }).output).toEqual({ band: 'high' });
    expect(run({ age: 30, level: 'silver' }).output).toEqual({ band: 'medium' });
  });

  it.each<HitPolicy>(['first', 'unique', 'any', 'priority'])("%s: null when no row matches, or the outputs' defaults", (hitPolicy) => {
    const rules = [{ when: ['< 18', '"gold"'], then: ['"high"'] }];
    expect(table({ hitPolicy, rules })({ age: 30, level: 'silver' }).output).toBeNull();
    const withDefault = table({ hitPolicy, rules, outputs: [{ id: 'band', name: 'band', type: 'string', allowedValues: ['high', 'low'], default: '"low"' }] });
    expect(withDefault({ age: 30, level: 'silver' }).output).toEqual({ band: 'low' });
  });
});

describe('multiple-hit policies', () => {
  it('ruleOrder: every matching row, in row order', () => {
    expect(table({ hitPolicy: 'ruleOrder', ...bands })({ age: 10, level: 'gold' }).output).toEqual([{ band: 'low' }, { band: 'high' }]);
  });

  it("outputOrder: every matching row, by the outputs' allowed values", () => {
    expect(table({ hitPolicy: 'outputOrder', ...bands })({ age: 10, level: 'gold' }).output).toEqual([{ band: 'high' }, { band: 'low' }]);
  });

  it('collect: every matching row; an empty list when none match', () => {
    const run = table({ hitPolicy: 'collect', ...bands });
    expect(run({ age: 30, level: 'gold' }).output).toEqual([{ band: 'high' }, { band: 'medium' }]);
    expect(table({ hitPolicy: 'collect', rules: [{ when: ['< 0', '-'], then: ['"low"'] }] })({ age: 5, level: 'x' }).output).toEqual([]);
    expect(table({ hitPolicy: 'ruleOrder', rules: [] })({ age: 5, level: 'x' }).output).toEqual([]);
  });

  it.each([
    ['sum', 15, null],
    ['min', 5, null],
    ['max', 10, null],
    ['count', 2, 0],
  ] as const)('collect %s: one number keyed by the output; %s for two rows, %s for none', (aggregation, matched, none) => {
    const run = table({
      hitPolicy: 'collect',
      aggregation,
      outputs: [{ id: 'points', name: 'points', type: 'number' }],
      rules: [
        { when: ['>= 18', '-'], then: [10] },
        { when: ['-', '"gold"'], then: [5] },
      ],
    });
    expect(run({ age: 30, level: 'gold' }).output).toEqual({ points: matched });
    expect(run({ age: 10, level: 'silver' }).output).toEqual({ points: none });
  });
});

describe('inputs', () => {
  it('converts declared types on the way in: a date column compares dates', () => {
    const { prepared } = prepareRule({
      kind: 'decisionTable',
      definition: {
        inputs: [{ id: 'since', expression: 'customer.since', type: 'date' }],
        outputs: [{ id: 'tenure', name: 'tenure', type: 'string' }],
        rules: [
          { when: ['< date("2020-01-01")'], then: ['"veteran"'] },
          { when: ['-'], then: ['"new"'] },
        ],
      },
    });
    const rule = compileRule(prepared);
    expect(evaluateRule(rule, { customer: { since: '2015-06-01' } }).output).toEqual({ tenure: 'veteran' });
    expect(evaluateRule(rule, { customer: { since: '2024-06-01' } }).output).toEqual({ tenure: 'new' });
  });

  it('refuses a value of the wrong type, naming the input and why', () => {
    const run = table({ hitPolicy: 'first', ...bands });
    expect(() => run({ age: 'thirty', level: 'gold' })).toThrow(/params\.applicant\.age \(input "age"\) expected a number, got the string "thirty"/);
    try {
      run({ age: 'thirty', level: 7 });
    } catch (error) {
      expect((error as EngineError).code).toBe('invalid_params');
      expect((error as EngineError).problems.map((p) => p.field)).toEqual(['params.applicant.age', 'params.applicant.level']);
    }
  });

  it('takes a missing input as null: no comparison holds, "-" and the null test do', () => {
    const run = table({
      hitPolicy: 'collect',
      rules: [
        { id: 'compared', when: ['< 18', '-'], then: ['"low"'] },
        { id: 'any', when: ['-', '-'], then: ['"medium"'] },
        { id: 'null', when: ['null', '-'], then: ['"high"'] },
        { id: 'negated', when: ['not(< 18)', '-'], then: ['"high"'] },
      ],
    });
    expect(run({ level: 'gold' }).output).toEqual([{ band: 'medium' }, { band: 'high' }, { band: 'high' }]);
  });
});

describe('the trace', () => {
  it('says for every row whether it matched and, when not, which cell failed with which value', () => {
    const { output, trace } = table({ hitPolicy: 'first', ...bands })({ age: 30, level: 'silver' }, { trace: true });
    expect(output).toEqual({ band: 'medium' });
    expect(trace).toEqual({
      kind: 'decisionTable',
      inputs: [
        { label: 'age', value: 30 },
        { label: 'level', value: 'silver' },
      ],
      rows: [
        { row: 1, id: 'minor', matched: false, failed: { input: 'age', cell: '< 18', value: 30 } },
        { row: 2, id: 'gold', matched: false, failed: { input: 'level', cell: '"gold"', value: 'silver' } },
        { row: 3, id: 'adult', matched: true },
      ],
    });
  });

  it('says why a type error made a cell fail, without failing the evaluation', () => {
    const { prepared } = prepareRule({
      kind: 'decisionTable',
      definition: {
        inputs: [{ id: 'tags', expression: 'tags', type: 'list' }],
        outputs: [{ id: 'hit', name: 'hit', type: 'boolean' }],
        rules: [
          { when: ['> 5'], then: [true] },
          { when: ['-'], then: [false] },
        ],
      },
    });
    const { output, trace } = evaluateRule(compileRule(prepared), { tags: ['a'] }, { trace: true });
    expect(output).toEqual({ hit: false });
    expect(trace).toMatchObject({
      rows: [
        { row: 1, matched: false, failed: { cell: '> 5', value: ['a'], reason: expect.stringMatching(/cannot order list/) } },
        { row: 2, matched: true },
      ],
    });
  });
});

describe('outputs', () => {
  it('computes FEEL outputs from the params', () => {
    const run = table({
      hitPolicy: 'first',
      outputs: [{ id: 'greeting', name: 'greeting', type: 'string' }],
      rules: [{ when: ['-', '-'], then: ['"Hello, " + upper case(applicant.level)'] }],
    });
    expect(run({ age: 1, level: 'gold' }).output).toEqual({ greeting: 'Hello, GOLD' });
  });
});
