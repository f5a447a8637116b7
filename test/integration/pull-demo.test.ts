/** The quick start's promise: right after `npm start`, pulling the demo workspace's main from its demo remote completes. */
import { expect, it } from 'vitest';
import { demoRules, demoWorkflows } from '../../lib/local/demo-entities.ts';
import { counts, pullClient } from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

it('pulls main of the demo remote right after start, then finds nothing to change', async () => {
  const client = pullClient(t.api, t.runtime.apiKey);
  const first = await client.pullAndWait('main');
  expect(first.taskState).toBe('completed');
  expect(first.commit).toMatch(/^[0-9a-f]{40}$/);
  // The seed edited one published rule after publishing it; the remote holds the published content.
  expect(first.summary).toEqual({ rule: counts(0, 1, 0, demoRules.length - 1), workflow: counts(0, 0, 0, demoWorkflows.length), ignoredFolders: [] });
  const again = await client.pullAndWait('main');
  expect(again).toMatchObject({ taskState: 'completed', commit: first.commit, summary: { rule: counts(0, 0, 0, demoRules.length) } });
  expect((await client.pullAndWait('staging')).taskState).toBe('completed');
});
