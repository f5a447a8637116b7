/**
 * The one rule for wall-clock times that a change of offset skips or repeats
 * (lib/engine/feel/time-zones.ts), through FEEL's dates and times: each case
 * of the shared table (dst-cases.ts) names its instant, and shows the clock
 * time that instant has, a skipped time the gap later.
 */
import { describe, expect, it } from 'vitest';
import { dstCases } from './dst-cases.ts';
import { feel } from './helpers.ts';

describe('a date and time in a zone, at a change of offset', () => {
  it.each(dstCases)('$wall@$zone ($change) is $instant', ({ zone, wall, instant, shows }) => {
    expect(feel(`date and time("${wall}@${zone}") = date and time("${instant}")`)).toBe(true);
    expect(feel(`date and time("${wall}@${zone}") + duration("PT0S")`)).toBe(`${shows ?? wall}@${zone}`);
  });
});
