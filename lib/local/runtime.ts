import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '../store/index.ts';
import { ensureTable } from '../store/dynamo/create-table.ts';
import { startEmbeddedDynamo } from './embedded-dynamo.ts';
import { startGitServer } from './git-server.ts';
import { lambdaContext } from './proxy-event.ts';
import { seedDemo, seedDemoRemote } from './seed.ts';
import { listenOn, type PortChoice } from './ports.ts';
import { handlerOf, startLocalApi } from './server.ts';
import { createLocalQueue, startLocalSqs } from './sqs.ts';

export const localTableName = 'rules-local';

export interface LocalRuntimeOptions {
  /** The API's port; 0 picks a free one. */
  port?: number | PortChoice;
  /** 0 picks a free port; the CLI's --local expects 8000. */
  dynamoPort?: number | PortChoice;
  /** The demo Git server's port; 0 picks a free one. */
  gitPort?: number | PortChoice;
  dataDir?: string;
  apiKey?: string;
  seed?: boolean;
  /** How long a message the worker did not finish stays invisible (SQS's visibility timeout). */
  visibilityTimeoutMs?: number;
  /** The first retry's delay, doubled for each further one. */
  retryBaseSeconds?: number;
}

const worker = { handler: 'pull-worker' };
const sweeper = { handler: 'pull-sweeper' };
const maxReceiveCount = 3;
const sweepEveryMs = 60_000;

/**
 * The whole service in this process. The functions read their configuration
 * from the environment as on Lambda, so it is set here before any is loaded.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'rules-local-'));
  const queue = createLocalQueue({
    worker: async (event) => (await handlerOf(worker))(event, lambdaContext(worker, 5 * 60_000), () => undefined),
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 5_000,
    maxReceiveCount,
  });
  const sqs = await startLocalSqs(queue);
  const git = await listenOn(options.gitPort ?? 0, (port) => startGitServer({ root: join(dataDir, 'git'), port }));
  const dynamo = await listenOn(options.dynamoPort ?? 0, (port) => startEmbeddedDynamo({ dataDir: options.dataDir && join(options.dataDir, 'dynamodb'), port }));
  const config = { tableName: localTableName, endpoint: dynamo.endpoint };
  Object.assign(process.env, {
    TABLE_NAME: config.tableName,
    DYNAMODB_ENDPOINT: config.endpoint,
    // Kept beside the data it protects, so credentials stored in DATA_DIR open after a restart.
    CREDENTIALS_KEY_FILE: process.env.CREDENTIALS_KEY_FILE ?? join(dataDir, 'credentials.key'),
    TASK_QUEUE_URL: sqs.queueUrl,
    SQS_ENDPOINT: sqs.endpoint,
    MAX_RECEIVE_COUNT: String(maxReceiveCount),
    PULL_RETRY_BASE_SECONDS: String(options.retryBaseSeconds ?? 1),
    PULL_LEASE_MS: process.env.PULL_LEASE_MS ?? String(5 * 60_000 + 30_000),
    // Demos call providers on this machine.
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: process.env.OUTBOUND_ALLOW_PRIVATE_NETWORKS ?? 'true',
  });
  await ensureTable(config);
  const store = createStore(config);
  const { apiKey } = options.seed === false ? { apiKey: '' } : await seedDemo(store, { apiKey: options.apiKey });
  if (options.seed !== false) await seedDemoRemote(store, join(dataDir, 'git'), git.url);
  const api = await listenOn(options.port ?? 0, (port) => startLocalApi({ port }));
  // What the stack's schedule does on AWS.
  const sweeping = setInterval(() => void handlerOf(sweeper).then((sweep) => sweep({}, lambdaContext(sweeper), () => undefined)), sweepEveryMs);
  sweeping.unref();
  return {
    url: api.url,
    apiKey,
    store,
    tableName: config.tableName,
    dynamoEndpoint: dynamo.endpoint,
    gitUrl: git.url,
    queue,
    async close() {
      clearInterval(sweeping);
      queue.close();
      await api.close();
      await Promise.all([sqs.close(), git.close()]);
      await queue.idle().catch(() => undefined);
      await dynamo.close();
    },
  };
}
