/**
 * The JDM format's round trip: every decision table `decisionTableArb` makes
 * (every hit policy, every kind of cell, numbers a double cannot hold) is
 * read back from the JDM file written for it as the very record, with the
 * same checksum, and so is every simple rule; what zen cannot hold travels
 * in the nodes' `rulesService`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { ImportBoundExceeded } from '../../lib/interchange/format-contract.ts';
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

  it('reads a hostile file to a reading or a bound, never a crash', async () => {
    const folder = new URL('./files/jdm/', import.meta.url);
    const graphs = readdirSync(folder)
      .filter((name) => !name.endsWith('.cases.json'))
      .map((name) => readFileSync(new URL(name, folder), 'utf8'));
    // Any part of a node, an edge, a column or a rule replaced by any JSON value.
    const hostile = fc
      .tuple(fc.constantFrom(...graphs), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.jsonValue({ maxDepth: 3 })), { minLength: 1, maxLength: 4 }))
      .map(([text, edits]) => {
        const graph = JSON.parse(text);
        const objects = (value: unknown): Record<string, unknown>[] =>
          Array.isArray(value) ? value.filter((item) => typeof item === 'object' && item !== null && !Array.isArray(item)) : [];
        for (const [n, k, c, value] of edits) {
          const node = objects(graph.nodes)[n % Math.max(1, objects(graph.nodes).length)] ?? {};
          const content = (typeof node.content === 'object' && node.content !== null ? node.content : {}) as Record<string, unknown>;
          const targets = [graph, node, content, ...objects(content.rules), ...objects(content.inputs), ...objects([content.rulesService])];
          const target = targets[c % targets.length]!;
          const keys = [...Object.keys(target), 'rulesService', 'cells', 'when'];
          target[keys[k % keys.length]!] = value;
        }
        return new TextEncoder().encode(JSON.stringify(graph));
      });
    await fc.assert(
      fc.asyncProperty(hostile, async (body) => {
        try {
          const reading = await jdmFormat.read(body, 'hostile.json');
          expect(Array.isArray(reading.records)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ImportBoundExceeded);
        }
      }),
      { numRuns: 300 },
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
