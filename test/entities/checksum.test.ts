import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, entityChecksum, sha256 } from '../../lib/entities/checksum.ts';
import { demoInput } from '../helpers/entities.ts';

/** The same value with every object's keys in another (generated) order. */
const reordered = (value: unknown, order: (keys: string[]) => string[]): unknown => {
  if (Array.isArray(value)) return value.map((v) => reordered(v, order));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(order(Object.keys(value)).map((k) => [k, reordered((value as Record<string, unknown>)[k], order)]));
  return value;
};

describe('canonicalJson', () => {
  it('sorts keys at every depth and leaves array order alone', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: 0, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,1,{"y":null,"z":0}]},"b":1}');
  });

  it('drops undefined properties as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([undefined])).toBe('[null]');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('orders keys by code unit, not by locale', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3, é: 4, _: 5 })).toBe('{"B":2,"_":5,"a":3,"b":1,"é":4}');
  });

  it('is the same for any key order, and is JSON for the same value', () => {
    const shuffle = fc.func(fc.integer()).map((rank) => (keys: string[]) => [...keys].sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : 1)));
    fc.assert(
      fc.property(fc.jsonValue(), shuffle, (value, order) => {
        const text = canonicalJson(value);
        expect(canonicalJson(reordered(value, order))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('tells different values apart', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        fc.pre(JSON.stringify(a) !== JSON.stringify(b));
        // Equal canonical forms would mean the values are equal after key sorting.
        if (canonicalJson(a) === canonicalJson(b)) expect(JSON.parse(canonicalJson(a))).toEqual(JSON.parse(canonicalJson(b)));
        else expect(canonicalJson(a)).not.toBe(canonicalJson(b));
      }),
      { numRuns: 200 },
    );
  });
});

describe('entityChecksum', () => {
  const rule = demoInput('shipping-cost');

  it('is the sha256 of the canonical content fields', () => {
    const { name, description, type, tags, definition } = rule;
    expect(entityChecksum(rule)).toBe(sha256(canonicalJson({ definition, description, name, tags, type })));
    expect(entityChecksum(rule)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores the key order of the definition', () => {
    expect(entityChecksum(reordered(rule, (keys) => [...keys].reverse()) as typeof rule)).toBe(entityChecksum(rule));
  });

  it('ignores the id, which is not content', () => {
    expect(entityChecksum({ ...rule, id: 'another-id' })).toBe(entityChecksum(rule));
  });

  it.each([
    ['name', { name: 'Shipping costs' }],
    ['description', { description: 'changed' }],
    ['tags', { tags: ['logistics', 'x'] }],
    ['tag order', { tags: [...rule.tags, 'a'].reverse() }],
    ['definition', { definition: { ...rule.definition, hitPolicy: 'unique' } }],
  ])('changes with the %s', (_, change) => {
    expect(entityChecksum({ ...rule, ...change } as typeof rule)).not.toBe(entityChecksum(rule));
  });
});
