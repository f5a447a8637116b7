import { expect, it } from 'vitest';
import { taskTimes } from '../../lib/tasks/delivery.ts';

it('ends a workflow run and a shard of a task before the worker stops, and the worker before its lease runs out', () => {
  expect(taskTimes.workflowRunMs).toBeLessThan(taskTimes.workerTimeoutMs);
  expect(taskTimes.shardWorkMs).toBeLessThan(taskTimes.workerTimeoutMs);
  expect(taskTimes.workerTimeoutMs).toBeLessThan(taskTimes.leaseMs);
  // The deployed values: 5 minutes of work, a lease of 5.5, a shard's 4.
  expect(taskTimes).toEqual({ workflowRunMs: 295_000, workerTimeoutMs: 300_000, leaseMs: 330_000, shardWorkMs: 240_000 });
});
