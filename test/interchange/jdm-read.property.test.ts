/**
 * Reading hostile JDM: any part of a hand-written file's nodes, edges,
 * columns, rules or carried parts replaced by any JSON value reads to a
 * reading or a bound, never a crash.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportBoundExceeded } from '../../lib/interchange/format-contract.ts';
import { readJdm } from '../../lib/interchange/jdm-read.ts';

describe('JDM reading', () => {
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
          const reading = await readJdm(body, 'hostile.json');
          expect(Array.isArray(reading.records)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ImportBoundExceeded);
        }
      }),
      { numRuns: 300 },
    );
  });
});
