/**
 * The JDM format's round trip: every decision table `decisionTableArb` makes
 * (every hit policy, every kind of cell, numbers a double cannot hold) is
 * read back from the JDM file written for it as the very record, with the
 * same checksum, and so is every simple rule; what zen cannot hold travels
 * in the nodes' `rulesService`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { jdmFormat } from '../../lib/interchange/jdm.ts';
import { canonical, decisionTableArb, entityIdArb } from './arbitrary.ts';

const name = fc.stringMatching(/^[a-z][A-Za-z0-9]{0,8}$/);
/** FEEL a simple rule holds: conditions and outputs zen can write and ones it cannot, which travel beside them. */
const condition = fc.constantFrom(
  'true',
  'total >= 50',
  'customer.tier = "gold" and total > 10',
  'count(items) > 2',
  'date(placed) < date("2025-01-01")',
  'x in [1..5]',
  'not(vip)',
);
const entry = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('total * 0.02', '"EUR"', 'if vip then 0 else 4.95', 'duration("P1D")', '[1, 2]', '{a: 1}', 'string length(name)', '0.30000000000000000001'),
);
const outputs = fc.dictionary(name, entry, { minKeys: 1, maxKeys: 4 });
const simpleRuleArb = fc
  .record({ id: entityIdArb, when: condition, then: outputs, otherwise: fc.option(outputs, { nil: undefined }) })
  .map(({ id, when, then, otherwise }) => canonical({ id, name: 'Rule', type: 'simpleRule', definition: { when, then, ...(otherwise && { otherwise }) } }));

describe('JDM round trip', () => {
  it('reads back every decision table it writes, with the same checksum', async () => {
    await fc.assert(
      fc.asyncProperty(decisionTableArb, async (table) => {
        const file = await jdmFormat.write(table);
        const reading = await jdmFormat.read(file.body, file.fileName);
        expect(reading.problems).toEqual([]);
        expect(reading.records).toHaveLength(1);
        const back = canonical(reading.records[0]);
        expect(back).toEqual(table);
        expect(entityChecksum(back)).toBe(entityChecksum(table));
      }),
      { numRuns: 200 },
    );
  });

  it('reads back every simple rule it writes, as an expression node or a switch', async () => {
    await fc.assert(
      fc.asyncProperty(simpleRuleArb, async (rule) => {
        const file = await jdmFormat.write(rule);
        const reading = await jdmFormat.read(file.body, file.fileName);
        expect(reading.problems).toEqual([]);
        expect(canonical(reading.records[0])).toEqual(rule);
      }),
      { numRuns: 100 },
    );
  });
});
