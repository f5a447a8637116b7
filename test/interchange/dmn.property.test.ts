/**
 * DMN round trips are lossless: a decision table of any hit policy and cell
 * kind, and a simple rule of either form (a literal expression, or the
 * `if … then … else` that carries the rule in the extension), written as DMN
 * and read back, is the very entity, with the same checksum; and what is
 * written parses back in dmn-moddle without a warning. Besides the shared
 * random tables, tables are bent towards what DMN holds least easily: ids
 * that collide or are absent, text that is only whitespace, raw tabs and
 * carriage returns, the older type names.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { dmnFormat } from '../../lib/interchange/dmn.ts';
import { dmnModdle } from '../../lib/interchange/dmn-model.ts';
import { canonical, decisionTableArb, entityIdArb, feelString } from './arbitrary.ts';
import { expectRoundTrip } from './round-trip.ts';

/** The round trip every format promises, and a file dmn-moddle reads without a warning. */
const roundTrip = (entity: EntityInput) =>
  expectRoundTrip(dmnFormat, entity, async (file) => {
    const { warnings } = await dmnModdle().fromXML(new TextDecoder().decode(file.body));
    expect(warnings).toEqual([]);
  });

type Table = Extract<EntityInput, { type: 'decisionTable' }>;

const whitespace = fc.constantFrom(' ', '  ', '\t', '\r\n', ' \n ', '\u00a0');

/** A table bent towards what DMN holds least easily; each bend applied or not. */
const awkwardTableArb = fc
  .tuple(
    decisionTableArb,
    fc.record({
      unnamedRows: fc.boolean(),
      sharedIds: fc.boolean(),
      blankDescriptions: fc.option(fc.constantFrom(' ', '  ', '\u00a0')),
      blankText: fc.option(whitespace),
      rawBreaks: fc.boolean(),
      olderTypes: fc.boolean(),
      emptyLabel: fc.boolean(),
    }),
  )
  .map(([entity, bend]) => {
    // The schema's parse copies the entity (keeping its Decimals, which structuredClone would not).
    const table = canonical(entity) as Table;
    const d = table.definition;
    const [input] = d.inputs;
    const [output] = d.outputs;
    const [row] = d.rules;
    if (bend.unnamedRows) d.rules.forEach((rule, r) => r % 2 === 0 && delete rule.id);
    if (bend.sharedIds) {
      output!.id = input!.id;
      if (row) row.id = table.id;
    }
    if (bend.blankDescriptions !== null) {
      table.description = bend.blankDescriptions;
      if (row) row.description = bend.blankDescriptions;
    }
    if (bend.blankText !== null) {
      input!.expression = bend.blankText;
      output!.default = bend.blankText;
      if (row) [row.when[0], row.then[0]] = [bend.blankText, bend.blankText];
    }
    if (bend.rawBreaks) {
      input!.expression = 'amount\r\n\t+ 1';
      if (row) row.when[0] = '>\t5,\r< 2';
    }
    if (bend.olderTypes) [input!.type, output!.type] = ['object', 'array'];
    if (bend.emptyLabel) input!.label = '';
    return canonical(table);
  });

const identifier = fc.stringMatching(/^[a-z][A-Za-z0-9 ]{0,10}$/);
const entry = fc.oneof(
  fc.integer(),
  fc.integer().map((n) => n / 1000),
  fc.boolean(),
  fc.constant(null),
  fc.string().map(feelString),
  fc.constantFrom('amount * 0.1', 'if x > 1 then "a" else "b"', '"tab\there"', '12345678901234567890.123', ' ', 'x // note'),
);
const outputs = fc.dictionary(identifier, entry, { minKeys: 1, maxKeys: 3 });

const simpleRuleArb = fc
  .record({
    id: entityIdArb,
    name: fc.constantFrom('Discount', 'Ünïcode ⚙', 'a "quoted" <name> & more'),
    description: fc.constantFrom('', 'Why it exists', ' '),
    tags: fc.constantFrom([], ['pricing']),
    when: fc.constantFrom('true', 'amount > 10', ' true', 'x = "a\nb"', 'a\r\n\tand b'),
    then: outputs,
    otherwise: fc.option(outputs, { nil: undefined }),
    parameters: fc.option(fc.constant([{ name: 'amount', type: 'number' }]), { nil: undefined }),
  })
  .map(({ id, name, description, tags, when, then, otherwise, parameters }) =>
    canonical({
      id,
      name,
      description,
      tags,
      type: 'simpleRule',
      definition: { when, then, ...(otherwise && { otherwise }), ...(parameters && { parameters }) },
    }),
  );

describe('DMN round trip', () => {
  it('gives back every decision table', async () => {
    await fc.assert(fc.asyncProperty(decisionTableArb, roundTrip), { numRuns: 200 });
  });

  it('gives back tables whose ids, texts and types DMN cannot hold as they are', async () => {
    await fc.assert(fc.asyncProperty(awkwardTableArb, roundTrip), { numRuns: 150 });
  });

  it('gives back every simple rule, as a literal expression or as the rule the extension carries', async () => {
    await fc.assert(fc.asyncProperty(simpleRuleArb, roundTrip), { numRuns: 150 });
  });
});
