/**
 * The benchmark's data: one embedded DynamoDB table holding a workspace with
 * a branch per size, so every size is read from the same table and process.
 */
import { startEmbeddedDynamo } from '../../lib/local/embedded-dynamo.ts';
import { ensureTable } from '../../lib/store/dynamo/create-table.ts';
import { createStore } from '../../lib/store/index.ts';
import type { EntityScope, Store } from '../../lib/store/types.ts';
import { addBranch, createApiKey, createWorkspace } from '../../lib/workspaces/admin.ts';
import { syntheticRule } from './entities.ts';

export const workspaceId = 'bench';
const actor = 'bench';

export const branchFor = (entities: number) => `size-${entities}`;
export const scopeFor = (entities: number): EntityScope => ({ workspaceId, branch: branchFor(entities), entityType: 'rule' });

/**
 * Starts the embedded DynamoDB and points the functions at it. It must run
 * before a function is imported: functions read TABLE_NAME and
 * DYNAMODB_ENDPOINT once, on their first request.
 */
export async function startBenchTable() {
  const dynamo = await startEmbeddedDynamo();
  const config = { tableName: 'rules-bench', endpoint: dynamo.endpoint };
  Object.assign(process.env, { TABLE_NAME: config.tableName, DYNAMODB_ENDPOINT: config.endpoint });
  await ensureTable(config);
  const store = createStore(config);
  await createWorkspace(store, { id: workspaceId, name: 'Benchmark' });
  const { key: apiKey } = await createApiKey(store, workspaceId, { label: 'bench' });
  return { dynamo, config, store, apiKey };
}

/** Adds a branch holding `entities` rules through the bulk write path; returns how long the load took. */
export async function loadBranch(store: Store, entities: number): Promise<number> {
  await addBranch(store, workspaceId, branchFor(entities));
  const at = new Date().toISOString();
  const rules = Array.from({ length: entities }, (_, i) => syntheticRule(i, actor, at));
  const started = performance.now();
  await store.writeEntities(scopeFor(entities), rules);
  return performance.now() - started;
}
