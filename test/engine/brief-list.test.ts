/** Lists in messages stay short whatever they list. */
import { expect, it } from 'vitest';
import { briefList, maxItemLength, maxListed } from '../../lib/engine/brief-list.ts';

it('names a short list whole', () => {
  expect(briefList([])).toBe('');
  expect(briefList(['a', 'b'])).toBe('a, b');
  expect(briefList(Array.from({ length: maxListed }, (_, i) => `x${i}`)).endsWith('x19')).toBe(true);
});

it('names the first twenty of a long list and counts the rest', () => {
  expect(briefList(Array.from({ length: 25 }, (_, i) => `x${i}`))).toBe(`${Array.from({ length: 20 }, (_, i) => `x${i}`).join(', ')} and 5 more`);
});

it('cuts a long item, so the message is bounded however long the items are', () => {
  const cut = briefList(['y'.repeat(10_000)]);
  expect(cut).toBe(`${'y'.repeat(maxItemLength - 1)}…`);
  expect(briefList(Array.from({ length: 100_000 }, () => 'z'.repeat(1_000))).length).toBeLessThan(maxListed * (maxItemLength + 2) + 30);
});
