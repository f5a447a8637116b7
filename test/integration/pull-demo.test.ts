/** The quick start's promise: right after `npm start`, pulling the demo workspace's main from its demo remote completes. */
import { expect, it } from 'vitest';
import { demoRules, demoWorkflows, editedAfterPublishing, remoteOnlyRules } from '../../lib/local/demo-entities.ts';
import { counts, pullClient } from '../helpers/pull.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();

it('pulls main of the demo remote right after start, then finds nothing to change', async () => {
  const client = pullClient(t.api, t.runtime.apiKey);
  const first = await client.pullAndWait('main');
  expect(first.taskState).toBe('completed');
  expect(first.commit).toMatch(/^[0-9a-f]{40}$/);
  // The remote holds main as the seed left it, plus rules only it has.
  expect(first.summary).toEqual({
    rule: counts(remoteOnlyRules.length, 0, 0, demoRules.length),
    workflow: counts(0, 0, 0, demoWorkflows.length),
    ignoredFolders: [],
  });
  const again = await client.pullAndWait('main');
  expect(again).toMatchObject({ taskState: 'completed', commit: first.commit, summary: { rule: counts(0, 0, 0, demoRules.length + remoteOnlyRules.length) } });
  expect((await client.pullAndWait('staging')).taskState).toBe('completed');
});

it('leaves the rule edited after publishing a draft, as the README tour shows it before the pull of docs/import-export.md and after it', async () => {
  await pullClient(t.api, t.runtime.apiKey).pullAndWait('main');
  const rule = await t.api<{ status: string; version: string; description: string }>(`/dev/v1/rule/${editedAfterPublishing.id}`);
  expect(rule.body.data).toMatchObject({ status: 'draft', version: 'v1', description: expect.stringMatching(/not yet published/) });
});
