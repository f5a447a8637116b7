import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '../store/index.ts';
import { ensureTable } from '../store/dynamo/create-table.ts';
import { startEmbeddedDynamo } from './embedded-dynamo.ts';
import { seedDemo } from './seed.ts';
import { startLocalApi } from './server.ts';

export const localTableName = 'rules-local';

export interface LocalRuntimeOptions {
  port?: number;
  /** 0 picks a free port; the CLI's --local expects 8000. */
  dynamoPort?: number;
  dataDir?: string;
  apiKey?: string;
  seed?: boolean;
}

/**
 * The whole service in this process. The functions read their configuration
 * from the environment as on Lambda, so it is set here before any is loaded.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}) {
  const dynamo = await startEmbeddedDynamo({ dataDir: options.dataDir && join(options.dataDir, 'dynamodb'), port: options.dynamoPort ?? 0 });
  const config = { tableName: localTableName, endpoint: dynamo.endpoint };
  Object.assign(process.env, {
    TABLE_NAME: config.tableName,
    DYNAMODB_ENDPOINT: config.endpoint,
    // Kept beside the data it protects, so credentials stored in DATA_DIR open after a restart.
    CREDENTIALS_KEY_FILE: process.env.CREDENTIALS_KEY_FILE ?? join(options.dataDir ?? mkdtempSync(join(tmpdir(), 'rules-local-')), 'credentials.key'),
    // Demos call providers on this machine.
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: process.env.OUTBOUND_ALLOW_PRIVATE_NETWORKS ?? 'true',
  });
  await ensureTable(config);
  const store = createStore(config);
  const { apiKey } = options.seed === false ? { apiKey: '' } : await seedDemo(store, { apiKey: options.apiKey });
  const api = await startLocalApi({ port: options.port ?? 0 });
  return {
    url: api.url,
    apiKey,
    store,
    tableName: config.tableName,
    dynamoEndpoint: dynamo.endpoint,
    async close() {
      await api.close();
      await dynamo.close();
    },
  };
}
