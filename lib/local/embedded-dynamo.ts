import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { clientConfig, type DynamoConfig } from '../store/dynamo/client.ts';
import { addTransactions } from './embedded-transactions.ts';

export interface EmbeddedDynamo {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * DynamoDB in this process (dynalite): in memory, or kept in `dataDir`. It
 * listens on loopback only; port 0 picks a free one. dynalite has no
 * transactions: `addTransactions` gives it TransactWriteItems and TransactGetItems.
 */
export async function startEmbeddedDynamo(options: { dataDir?: string; port?: number } = {}): Promise<EmbeddedDynamo> {
  // Table changes take effect at once instead of after dynalite's simulated delays.
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const server = dynalite({ path: options.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  addTransactions(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Names a DynamoDB that runs apart and that several processes share: `npm run test:ddb-local` sets it to DynamoDB Local's endpoint. */
export const sharedDynamoSetting = 'DYNAMODB_LOCAL_ENDPOINT';

export interface LocalTable extends EmbeddedDynamo {
  tableName: string;
}

/**
 * Where the local runtime or a test file keeps its table (it still makes the
 * table itself): `tableName` on an embedded DynamoDB of its own, or, when
 * DYNAMODB_LOCAL_ENDPOINT is set, on that shared DynamoDB under a name no
 * other process there uses. Closing the shared one deletes the table and
 * leaves the DynamoDB running for the others; `options` apply to the embedded one only.
 */
export async function openLocalTable(
  tableName: string,
  options: { dataDir?: string; port?: number } = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<LocalTable> {
  const endpoint = env[sharedDynamoSetting];
  if (!endpoint) return { tableName, ...(await startEmbeddedDynamo(options)) };
  const config = { tableName: `${tableName}-${randomBytes(4).toString('hex')}`, endpoint };
  return { ...config, close: () => deleteTable(config) };
}

async function deleteTable(config: DynamoConfig): Promise<void> {
  const client = new DynamoDBClient(clientConfig(config));
  try {
    await client.send(new DeleteTableCommand({ TableName: config.tableName }));
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  } finally {
    client.destroy();
  }
}
