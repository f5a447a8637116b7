import { expect, it } from 'vitest';
import { retryDelaySeconds } from '../../lib/tasks/worker.ts';

it('doubles the delay with each attempt, within what SQS allows', () => {
  expect([1, 2, 3, 4].map((attempt) => retryDelaySeconds(attempt, 30))).toEqual([30, 60, 120, 240]);
  expect(retryDelaySeconds(30, 30)).toBe(12 * 3600);
  expect(retryDelaySeconds(2, 0)).toBe(0);
});
