/**
 * The contract every format shares, where it decides something: how a
 * `.json` file is told to be a GoRules JDM graph rather than this service's
 * own records.
 */
import { describe, expect, it } from 'vitest';
import { isJdmDocument } from '../../lib/interchange/format-contract.ts';

describe('isJdmDocument', () => {
  it("tells a JDM graph from this service's own records", () => {
    expect(isJdmDocument({ nodes: [], edges: [] })).toBe(true);
    expect(isJdmDocument({ id: 'discount', type: 'decisionTable', definition: {} })).toBe(false);
    expect(isJdmDocument({ nodes: {}, edges: [] })).toBe(false);
    expect(isJdmDocument(null)).toBe(false);
  });
});
