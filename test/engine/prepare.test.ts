/** Saving checks a rule whole: every problem with its path, FEEL syntax errors with their positions. */
import { describe, expect, it } from 'vitest';
import { checkRule } from '../../lib/engine/authoring.ts';

describe('checkRule', () => {
  it('lists every problem by path: syntax with position, unknown inputs, output type mismatches, hit policies that do not fit', () => {
    const { problems } = checkRule({
      kind: 'decisionTable',
      definition: {
        hitPolicy: 'priority',
        aggregation: 'sum',
        parameters: [{ name: 'order', type: 'context' }],
        inputs: [
          { id: 'total', expression: 'order.total', type: 'number' },
          { id: 'zone', expression: 'customer.zone', type: 'string' },
        ],
        outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
        rules: [
          { when: ['< 10 +', '"eu"'], then: [1] },
          { when: ['"ten"', '5'], then: ['"free"'] },
        ],
      },
    });
    expect(problems).toEqual([
      { path: 'definition.aggregation', message: 'applies only to the hit policy "collect", not "priority"' },
      { path: 'definition.outputs', message: expect.stringMatching(/ranks rows by the outputs' allowedValues/) },
      { path: 'definition.inputs[1].expression', message: '"customer" is not a declared input (declared: order)' },
      { path: 'definition.rules[0].when[0]', message: 'the expression is incomplete at line 1, column 7' },
      { path: 'definition.rules[1].then[0]', message: 'is a string, but the output is declared number' },
    ]);
  });

  it('refuses literal outputs outside the allowed values', () => {
    const { problems } = checkRule({
      kind: 'decisionTable',
      definition: {
        inputs: [{ id: 'x', expression: 'x', type: 'number' }],
        outputs: [{ id: 'band', name: 'band', type: 'string', allowedValues: ['A', 'B'] }],
        rules: [{ when: ['-'], then: ['"C"'] }],
      },
    });
    expect(problems).toEqual([{ path: 'definition.rules[0].then[0]', message: '"C" is not one of the output\'s allowed values ("A", "B")' }]);
  });

  it('names twenty allowed values at most, each cut short, in that refusal', () => {
    const allowedValues = Array.from({ length: 1_000 }, (_, i) => `${i}`.padEnd(1_000, 'v'));
    const { problems } = checkRule({
      kind: 'decisionTable',
      definition: {
        inputs: [{ id: 'x', expression: 'x', type: 'number' }],
        outputs: [{ id: 'band', name: 'band', type: 'string', allowedValues }],
        rules: [{ when: ['-'], then: ['"C"'] }],
      },
    });
    expect(problems).toEqual([
      { path: 'definition.rules[0].then[0]', message: expect.stringMatching(/^"C" is not one of the output's allowed values \("0v{61}…, .* and 980 more\)$/) },
    ]);
    expect(problems[0]!.message.length).toBeLessThan(1_500);
  });

  it('checks simple rules and rule sets, where later entries may read earlier outputs', () => {
    expect(checkRule({ kind: 'simpleRule', definition: { when: 'total >', then: { fee: 0 } } }).problems).toEqual([
      { path: 'definition.when', message: 'the expression is incomplete at line 1, column 8' },
    ]);
    const ruleSet = checkRule({
      kind: 'ruleSet',
      definition: {
        parameters: [{ name: 'payment', type: 'context' }],
        rules: [
          { id: 'a', when: 'payment.amount > 10', then: [{ set: 'risk.score', value: 5 }] },
          { id: 'b', when: 'risk.score > 1 and unknown', then: [{ set: 'flag', value: true }] },
          { id: 'a', when: 'true', then: [{ set: 'x', value: 1 }] },
        ],
      },
    });
    expect(ruleSet.problems).toEqual([
      { path: 'definition.rules[1].when', message: '"unknown" is not a declared input (declared: payment, risk, flag, x)' },
      { path: 'definition.rules[2].id', message: '"a" names another entry too' },
    ]);
  });

  it('lists at most 20 declared names in a problem, saying how many more there are', () => {
    const { problems } = checkRule({
      kind: 'ruleSet',
      definition: {
        strategy: 'allMatch',
        parameters: [{ name: 'x', type: 'number' }],
        rules: [
          { id: 'reads', when: 'unknown', then: [{ set: 'y', value: 1 }] },
          ...Array.from({ length: 30 }, (_, i) => ({ id: `e${i}`, when: 'x > 1', then: [{ set: `out${i}`, value: 1 }] })),
        ],
      },
    });
    const names = ['x', 'y', ...Array.from({ length: 18 }, (_, i) => `out${i}`)].join(', ');
    expect(problems).toEqual([{ path: 'definition.rules[0].when', message: `"unknown" is not a declared input (declared: ${names} and 12 more)` }]);
  });

  it('parses names with spaces when they are declared', () => {
    const { problems } = checkRule({
      kind: 'simpleRule',
      definition: { parameters: [{ name: 'date of birth', type: 'date' }], when: 'date of birth < date("2000-01-01")', then: { adult: true } },
    });
    expect(problems).toEqual([]);
  });
});
