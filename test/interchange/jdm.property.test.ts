/**
 * The JDM format's round trip: every decision table `decisionTableArb` makes
 * (every hit policy, every kind of cell, numbers a double cannot hold) is
 * read back from the JDM file written for it as the very record, with the
 * same checksum; what zen cannot hold travels in the nodes' `rulesService`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entityChecksum } from '../../lib/entities/checksum.ts';
import { jdmFormat } from '../../lib/interchange/jdm.ts';
import { canonical, decisionTableArb } from './arbitrary.ts';

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
});
