/** The store's public surface, and the DynamoDB-backed instance a function uses. */
import { cachedDirectory } from './cached-directory.ts';
import { createDocumentClient, dynamoConfigFromEnv, type DynamoConfig } from './dynamo/client.ts';
import { DynamoStore } from './dynamo/store.ts';
import type { DirectoryStore, Store } from './types.ts';

export * from './types.ts';
export { tableDefinition } from './table.ts';

export const createStore = (config: DynamoConfig): Store => new DynamoStore(createDocumentClient(config), config.tableName);

let fromEnv: { store: Store; directory: DirectoryStore } | undefined;

/** One store per process, configured by TABLE_NAME (and DYNAMODB_ENDPOINT locally), made on first use. */
export function storeFromEnv() {
  if (!fromEnv) {
    const store = createStore(dynamoConfigFromEnv());
    fromEnv = { store, directory: cachedDirectory(store, Number(process.env.DIRECTORY_CACHE_TTL_MS ?? 30_000)) };
  }
  return fromEnv;
}
