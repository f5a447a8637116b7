/** XLSX export then import gives back every decision table, of every hit policy and cell kind, with the same checksum. */
import fc from 'fast-check';
import { it } from 'vitest';
import { xlsxFormat } from '../../lib/interchange/xlsx.ts';
import { decisionTableArb } from './arbitrary.ts';
import { expectRoundTrip } from './round-trip.ts';

it('gives back every table it writes', async () => {
  await fc.assert(
    fc.asyncProperty(decisionTableArb, (entity) => expectRoundTrip(xlsxFormat, entity)),
    { numRuns: 150 },
  );
}, 60_000);
