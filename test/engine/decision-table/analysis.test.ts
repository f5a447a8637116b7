/** The save-time analysis: overlaps under unique, rows shadowed under first, and gaps, for number ranges and enumerated strings. */
import { describe, expect, it } from 'vitest';
import { checkRule } from '../../../lib/engine/authoring.ts';
import type { DecisionTableDefinition } from '../../../lib/engine/definitions.ts';

const check = (hitPolicy: DecisionTableDefinition['hitPolicy'], rules: string[][], extra: Partial<DecisionTableDefinition> = {}) =>
  checkRule({
    kind: 'decisionTable',
    definition: {
      hitPolicy,
      inputs: [
        { id: 'age', expression: 'age', type: 'number' },
        { id: 'level', expression: 'level', type: 'string' },
      ],
      outputs: [{ id: 'out', name: 'out', type: 'number' }],
      rules: rules.map((when, i) => ({ id: `r${i + 1}`, when, then: [i] })),
      ...extra,
    },
  });

describe('overlaps under unique', () => {
  it('are publish errors naming both rows', () => {
    const { problems, publishProblems } = check('unique', [
      ['[0..18]', '"gold"'],
      ['[18..65]', '-'],
      ['> 65', '"gold", "silver"'],
    ]);
    expect(problems).toEqual([]);
    expect(publishProblems).toEqual([{ path: 'definition.rules[1]', message: expect.stringMatching(/overlaps row 1 \(r1\)/) }]);
  });

  it('are none when the rows are disjoint, open ends included', () => {
    expect(check('unique', [['[0..18)', '-'], ['[18..65]', '"gold"'], ['[18..65]', 'not("gold")'], ['> 65', '-']]).publishProblems).toEqual([]);
  });
});

describe('shadowed rows under first', () => {
  it('are warnings: a row an earlier row always wins over', () => {
    const { warnings } = check('first', [
      ['< 30', '-'],
      ['< 18', '"gold"'],
      ['>= 30', '-'],
    ]);
    expect(warnings).toEqual([{ path: 'definition.rules[1]', message: expect.stringMatching(/never be the answer.*row 1 \(r1\)/) }]);
  });
});

describe('gaps', () => {
  it('name the input classes no row covers, for number ranges and enumerated strings', () => {
    const { warnings } = check('first', [
      ['< 18', '-'],
      ['[18..65]', '"gold"'],
    ]);
    const messages = warnings.map((w) => w.message);
    expect(messages).toContainEqual(expect.stringMatching(/no row covers age \(18\.\.65\), level any other value/));
    expect(messages.some((m) => /age > 65/.test(m))).toBe(true);
  });

  it('are not reported when a default output covers them, or when a catch-all row exists', () => {
    expect(check('first', [['< 18', '-']], { outputs: [{ id: 'out', name: 'out', type: 'number', default: 0 }] }).warnings).toEqual([]);
    expect(check('first', [['< 18', '-'], ['-', '-']]).warnings).toEqual([]);
  });

  it('are left unsaid when a column holds cells the analysis cannot read', () => {
    expect(check('first', [['? > 18', '-']]).warnings).toEqual([]);
  });
});
