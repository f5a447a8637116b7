/** Save-time warnings for cells that most likely never match: a name the table does not know (often unquoted text), a literal of another type than the column's. */
import { describe, expect, it } from 'vitest';
import { checkRule } from '../../../lib/engine/authoring.ts';
import { maxCellWarnings } from '../../../lib/engine/decision-table/cell-warnings.ts';
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
      ['"b"', '[1..cap]'],
    ]);
    const unknown = warnings.filter((w) => w.message.startsWith('reads '));
    expect(unknown.map((w) => w.path)).toEqual(['definition.rules[0].when[1]', 'definition.rules[1].when[0]', 'definition.rules[2].when[1]']);
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
    const unknown = warnings.filter((w) => w.message.startsWith('reads ') || w.message.includes('more cell'));
    expect(unknown).toHaveLength(maxCellWarnings + 1);
    expect(unknown.at(-1)).toEqual({ path: 'definition.rules', message: 'and 5 more cell warnings like these' });
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

describe('a cell whose literal has another type than its column', () => {
  it('is saved, as DMN allows, with a warning that it never matches', () => {
    const { problems, warnings } = table([
      ['5', '"heavy"'],
      ['"eu"', '[1..@"2025-01-01"]'],
      ['"eu"', 'null'],
    ]);
    expect(problems).toEqual([]);
    expect(warnings.filter((w) => w.message.startsWith('tests a'))).toEqual([
      { path: 'definition.rules[0].when[0]', message: 'tests a number, but the input "zone" is declared string: the cell never matches a string' },
      { path: 'definition.rules[0].when[1]', message: 'tests a string, but the input "weight" is declared number: the cell never matches a number' },
    ]);
  });
});
