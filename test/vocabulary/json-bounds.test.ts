/** Bounds on free-form JSON in requests, and the paths problems are reported at. */
import { describe, expect, it } from 'vitest';
import { fieldPath } from '../../lib/http/input.ts';
import { jsonBoundsProblem } from '../../lib/vocabulary/json-bounds.ts';

describe('jsonBoundsProblem', () => {
  const bounds = { maxBytes: 64, maxDepth: 3 };

  it('accepts what is within both bounds', () => {
    expect(jsonBoundsProblem({ a: [1, { b: 2 }] }, bounds)).toBeUndefined();
    expect(jsonBoundsProblem({}, bounds)).toBeUndefined();
  });

  it('counts bytes of the JSON text, in UTF-8', () => {
    expect(jsonBoundsProblem({ a: 'x'.repeat(56) }, bounds)).toBeUndefined();
    expect(jsonBoundsProblem({ a: 'x'.repeat(57) }, bounds)).toBe('is 65 bytes as JSON, more than the 64 allowed');
    expect(jsonBoundsProblem({ a: 'é'.repeat(30) }, bounds)).toMatch(/^is 68 bytes/);
  });

  it('measures depth without recursion, arrays and objects alike', () => {
    expect(jsonBoundsProblem({ a: [{}] }, bounds)).toBeUndefined();
    expect(jsonBoundsProblem({ a: [{ b: 1 }] }, bounds)).toBeUndefined();
    expect(jsonBoundsProblem({ a: [{ b: [] }] }, bounds)).toBe('nests deeper than 3 levels');
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonBoundsProblem(deep, bounds)).toBe('nests deeper than 3 levels');
  });
});

describe('fieldPath', () => {
  it('writes paths as people and the rules engine do', () => {
    expect(fieldPath(['definition', 'rules', 2, 'when', 0])).toBe('definition.rules[2].when[0]');
    expect(fieldPath(['name'])).toBe('name');
    expect(fieldPath([])).toBe('');
  });
});
