/** A store on its own embedded DynamoDB and table (or its own table on DynamoDB Local: npm run test:ddb-local), for tests that work below the HTTP layer. */
import { afterAll, beforeAll } from 'vitest';
import { openLocalTable, type LocalTable } from '../../lib/local/embedded-dynamo.ts';
import { ensureTable } from '../../lib/store/dynamo/create-table.ts';
import type { DynamoConfig } from '../../lib/store/dynamo/client.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EntityInput } from '../../lib/entities/schema.ts';
import { createDocumentClient } from '../../lib/store/dynamo/client.ts';
import { claimDeltas, claimToken, type CountClaim } from '../../lib/store/dynamo/entity-counters.ts';
import { counterKey, entityKey, entityPartition } from '../../lib/store/keys.ts';
import { createStore, type Store, type Task, type TaskKind, type TaskStore } from '../../lib/store/index.ts';
import { isKind } from '../../lib/tasks/kinds.ts';

export interface StoreFixture {
  store: Store;
  dynamo: LocalTable;
  config: DynamoConfig;
}

/** Starts the DynamoDB and makes the table before the file's tests, and stops it (or deletes the table from the shared one) after them. */
export function useEmbeddedStore(tableName: string): StoreFixture {
  const fixture = {} as StoreFixture;
  beforeAll(async () => {
    fixture.dynamo = await openLocalTable(tableName);
    fixture.config = { tableName: fixture.dynamo.tableName, endpoint: fixture.dynamo.endpoint };
    await ensureTable(fixture.config);
    fixture.store = createStore(fixture.config);
  });
  afterAll(() => fixture.dynamo?.close());
  return fixture;
}

/** A minimal rule of either kind the counter tests move entities between. */
export const ruleOfKind = (id: string, kind: 'simpleRule' | 'ruleSet'): EntityInput =>
  (kind === 'simpleRule'
    ? { id, name: id, description: '', tags: [], type: kind, definition: { when: 'x', then: { y: 1 } } }
    : {
        id,
        name: id,
        description: '',
        tags: [],
        type: kind,
        definition: { strategy: 'allMatch', rules: [{ id: 'r', priority: 0, when: 'x', then: [{ set: 'y', value: 1 }] }] },
      }) as EntityInput;

/** A branch's rule totals (workspace "w") as the counters report them and as the index holds them. */
export async function ruleTotals(store: Store, branch: string) {
  const list = async (kind?: string, pageSize = 1) =>
    store.listEntities({ workspaceId: 'w', branch, entityType: 'rule', pageNo: 1, pageSize, sortBy: 'name', sortDir: 'asc', kind });
  const all = (await list(undefined, 100)).items;
  return {
    counted: { all: (await list()).totalCount, simpleRule: (await list('simpleRule')).totalCount, ruleSet: (await list('ruleSet')).totalCount },
    indexed: { all: all.length, simpleRule: all.filter((e) => e.type === 'simpleRule').length, ruleSet: all.filter((e) => e.type === 'ruleSet').length },
  };
}

/** Leaves a counter claim on a rule of workspace "w" (and `set` its other attributes), its tokens due on its counters, as a writer that stopped after claiming would. */
export async function leaveCountClaim(fixture: StoreFixture, branch: string, id: string, claim: CountClaim, set: Record<string, unknown> = {}) {
  const client = createDocumentClient(fixture.config);
  const ref = { workspaceId: 'w', branch, entityType: 'rule' as const, id };
  for (const [kind] of claimDeltas(claim))
    await client.send(
      new UpdateCommand({
        TableName: fixture.config.tableName,
        Key: counterKey(entityPartition('w', branch, 'rule'), kind),
        UpdateExpression: 'ADD due :token',
        ExpressionAttributeValues: { ':token': new Set([claimToken(ref, claim)]) },
      }),
    );
  const fields = Object.entries({ ...set, countClaim: claim });
  await client.send(
    new UpdateCommand({
      TableName: fixture.config.tableName,
      Key: entityKey(ref),
      UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
    }),
  );
  client.destroy();
}

/** The stored task `taskId`, which must be of kind `kind`. */
export async function storedTask<K extends TaskKind>(store: Pick<TaskStore, 'getTask'>, taskId: string, kind: K): Promise<Task<K>> {
  const task = await store.getTask(taskId);
  if (!isKind(task, kind)) throw new Error(`task ${taskId} is ${task ? `a ${task.kind}` : 'not stored'}, not a ${kind}`);
  return task;
}
