/** A branch's record of its Git remote: the open pull or push, and the remote's commit it last synced with, read from where pulls kept it before pushes too. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import { branchKey } from '../../lib/store/keys.ts';
import { useEmbeddedStore } from '../helpers/store.ts';

const fixture = useEmbeddedStore('branch-sync');
const [first, second] = ['a'.repeat(40), 'b'.repeat(40)];

async function branch(name: string) {
  await fixture.store.createBranch({ workspaceId: 'w', name, createdAt: new Date().toISOString() });
}

it('holds one open task at a time, and records the commit a completed one synced with', async () => {
  await branch('main');
  expect(await fixture.store.claimBranchSync('w', 'main', 'pull-1', undefined)).toBe(true);
  expect(await fixture.store.claimBranchSync('w', 'main', 'push-1', undefined)).toBe(false);
  expect(await fixture.store.getBranchSync('w', 'main')).toEqual({ activeTaskId: 'pull-1' });
  await fixture.store.releaseBranchSync('w', 'main', 'pull-1', first);
  expect(await fixture.store.getBranchSync('w', 'main')).toEqual({ syncedCommit: first });
  // A task that failed lets go without changing the commit.
  expect(await fixture.store.claimBranchSync('w', 'main', 'push-1', undefined)).toBe(true);
  await fixture.store.releaseBranchSync('w', 'main', 'push-1');
  expect(await fixture.store.getBranchSync('w', 'main')).toEqual({ syncedCommit: first });
});

it('reads the commit a pull recorded before pushes existed (pulledCommit), until a task records one of its own', async () => {
  await branch('old');
  const client = createDocumentClient(fixture.config);
  await client.send(
    new UpdateCommand({
      TableName: fixture.config.tableName,
      Key: branchKey('w', 'old'),
      UpdateExpression: 'SET pulledCommit = :commit',
      ExpressionAttributeValues: { ':commit': first },
    }),
  );
  client.destroy();
  expect(await fixture.store.getBranchSync('w', 'old')).toEqual({ syncedCommit: first });
  expect(await fixture.store.claimBranchSync('w', 'old', 'push-2', undefined)).toBe(true);
  await fixture.store.releaseBranchSync('w', 'old', 'push-2', second);
  expect(await fixture.store.getBranchSync('w', 'old')).toEqual({ syncedCommit: second });
});
