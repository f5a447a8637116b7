/** Save-time warnings for cells that read a name the table does not know: most often text written without quotes. */
import { describe, expect, it } from 'vitest';
import { checkRule } from '../../../lib/engine/authoring.ts';
import { maxUnknownNameWarnings } from '../../../lib/engine/decision-table/unknown-names.ts';
import type { DecisionTableDefinition } from '../../../lib/engine/definitions.ts';

const table = (rules: string[][], extra: Partial<DecisionTableDefinition> = {}) =>
  checkRule({
    kind: 'decisionTable',
    definition: {
      hitPolicy: 'first',
      inputs: [
        { id: 'zone', expression: 'zone', type: 'string' },
        { id: 'weight', expression: 'parcel.weightKg', type: 'number' },
      ],
      outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
      rules: rules.map((when, i) => ({ when, then: [i] })),
      ...extra,
    },
  });

describe('a cell that reads a name the table does not know', () => {
  it('is saved with a warning that names the cell and the string it probably meant', () => {
    const { problems, warnings } = table([
      ['domestic', '< 2'],
      ['"abroad"', '-'],
    ]);
    expect(problems).toEqual([]);
    expect(warnings).toContainEqual({
      path: 'definition.rules[0].when[0]',
      message:
        'reads "domestic", which is not a name the table knows (its inputs read zone, parcel): unless every call passes it, the cell never matches. For the text, write the string "domestic" in quotes.',
    });
    expect(warnings.filter((w) => w.path.endsWith('.when[1]') || w.path === 'definition.rules[1].when[0]')).toEqual([]);
  });

  it('suggests no string where the name is not the whole cell of a string column', () => {
    const { warnings } = table([
      ['"a"', '< limit'],
      ['not(other)', '-'],
    ]);
    const unknown = warnings.filter((w) => w.message.startsWith('reads '));
    expect(unknown.map((w) => w.path)).toEqual(['definition.rules[0].when[1]', 'definition.rules[1].when[0]']);
    expect(unknown[0]!.message).toMatch(/^reads "limit", which is not a name the table knows .*the cell never matches\.$/);
  });

  it('says nothing of the names the inputs read, of ?, or of strings', () => {
    const { warnings } = table([
      ['zone', '< parcel.weightKg * 2'],
      ['starts with(?, "d")', '[1..5]'],
      ['"domestic"', '-'],
    ]);
    expect(warnings.filter((w) => w.message.startsWith('reads '))).toEqual([]);
  });

  it('names at most twenty cells, then counts the rest', () => {
    const { warnings } = table(Array.from({ length: 25 }, (_, i) => [`zone${i}`, '-']));
    const unknown = warnings.filter((w) => w.message.startsWith('reads ') || w.message.includes('more cells'));
    expect(unknown).toHaveLength(maxUnknownNameWarnings + 1);
    expect(unknown.at(-1)).toEqual({ path: 'definition.rules', message: '5 more cells read names the table does not know' });
  });

  it('is refused, suggesting the string, when the table declares its parameters', () => {
    const { problems } = table([['domestic', '-']], {
      parameters: [
        { name: 'zone', type: 'string' },
        { name: 'parcel', type: 'object' },
      ],
    } as Partial<DecisionTableDefinition>);
    expect(problems).toEqual([
      {
        path: 'definition.rules[0].when[0]',
        message: '"domestic" is not a declared input (declared: zone, parcel); for the text, write the string "domestic" in quotes',
      },
    ]);
  });
});
