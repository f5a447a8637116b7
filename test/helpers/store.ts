/** A store on its own embedded DynamoDB and table, for tests that work below the HTTP layer. */
import { afterAll, beforeAll } from 'vitest';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../lib/local/embedded-dynamo.ts';
import { ensureTable } from '../../lib/store/dynamo/create-table.ts';
import type { DynamoConfig } from '../../lib/store/dynamo/client.ts';
import { createStore, type Store } from '../../lib/store/index.ts';

export interface StoreFixture {
  store: Store;
  dynamo: EmbeddedDynamo;
  config: DynamoConfig;
}

/** Starts the DynamoDB and makes the table before the file's tests, and stops it after them. */
export function useEmbeddedStore(tableName: string): StoreFixture {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const fixture = {} as StoreFixture;
  beforeAll(async () => {
    fixture.dynamo = await startEmbeddedDynamo();
    fixture.config = { tableName, endpoint: fixture.dynamo.endpoint };
    await ensureTable(fixture.config);
    fixture.store = createStore(fixture.config);
  });
  afterAll(() => fixture.dynamo?.close());
  return fixture;
}
