/** The store's public surface, and the DynamoDB-backed instance a function uses. */
import { cachedDirectory } from './cached-directory.ts';
import { createDocumentClient, dynamoConfigFromEnv, type DynamoConfig } from './dynamo/client.ts';
import { DynamoCredentialStore } from './dynamo/credentials.ts';
import { DynamoExecutionStore } from './dynamo/executions.ts';
import { DynamoIntegrationStore } from './dynamo/integrations.ts';
import { DynamoNameClaimStore } from './dynamo/name-claims.ts';
import { DynamoScheduleStore } from './dynamo/schedules.ts';
import { DynamoDirectoryStore } from './dynamo/directory.ts';
import { DynamoEntityStore } from './dynamo/entities.ts';
import { DynamoTaskStore } from './dynamo/tasks.ts';
import type { DirectoryStore, Store } from './types.ts';

export * from './types.ts';
export { tableDefinition } from './table.ts';

export function createStore(config: DynamoConfig): Store {
  const client = createDocumentClient(config);
  const parts = [DynamoDirectoryStore, DynamoEntityStore, DynamoCredentialStore, DynamoIntegrationStore, DynamoNameClaimStore, DynamoTaskStore, DynamoExecutionStore, DynamoScheduleStore].map((Part) => new Part(client, config.tableName));
  // One object with every part's methods, bound, so callers see a single store.
  return Object.fromEntries(
    parts.flatMap((part) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(part))
        .filter((name) => name !== 'constructor')
        .map((name) => [name, (part as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!.bind(part)]),
    ),
  ) as unknown as Store;
}

let fromEnv: { store: Store; directory: DirectoryStore } | undefined;

/** One store per process, configured by TABLE_NAME (and DYNAMODB_ENDPOINT locally), made on first use. */
export function storeFromEnv() {
  if (!fromEnv) {
    const store = createStore(dynamoConfigFromEnv());
    fromEnv = { store, directory: cachedDirectory(store, Number(process.env.DIRECTORY_CACHE_TTL_MS ?? 30_000)) };
  }
  return fromEnv;
}
