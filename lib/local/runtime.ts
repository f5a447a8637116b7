import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyringFromEnv } from '../credentials/keyring.ts';
import { schedulerFor } from '../schedules/aws-scheduler.ts';
import { createLocalScheduler } from './scheduler.ts';
import { startSchedulerEndpoint } from './scheduler-endpoint.ts';
import { deploymentOf, type RuleScheduler } from '../schedules/scheduler.ts';
import { createStore, type Store } from '../store/index.ts';
import { ensureTable } from '../store/dynamo/create-table.ts';
import { createConsoleHost } from './console-host.ts';
import { consolePath } from '../console/headers.ts';
import type { LocalOpenIdProvider, OpenIdProviderOptions } from './openid-provider.ts';
import { startDemoProvider } from './demo-provider.ts';
import { openLocalTable } from './embedded-dynamo.ts';
import { startGitServer } from './git-server.ts';
import { lambdaContext } from './proxy-event.ts';
import { seedDemo, seedDemoProvider, seedDemoRemote } from './seed.ts';
import { listenOn, type PortChoice } from './ports.ts';
import { handlerOf, startLocalApi } from './server.ts';
import { createLocalQueue, startLocalSqs } from './sqs.ts';
import { taskDelivery, taskTimes } from '../tasks/delivery.ts';
import { localTableName } from '../deployment/names.ts';
import { flushTallies } from '../tallies/buffer.ts';

export interface LocalRuntimeOptions {
  /** The API's port; 0 picks a free one. */
  port?: number | PortChoice;
  /** 0 picks a free port; the CLI's --local expects 8000. */
  dynamoPort?: number | PortChoice;
  /** The demo Git server's port; 0 picks a free one. */
  gitPort?: number | PortChoice;
  /** The demo provider's port (./demo-provider.ts); 0 picks a free one. */
  providerPort?: number | PortChoice;
  dataDir?: string;
  apiKey?: string;
  seed?: boolean;
  /** How long a message the worker did not finish stays invisible (SQS's visibility timeout). */
  visibilityTimeoutMs?: number;
  /** The first retry's delay, doubled for each further one. */
  retryBaseSeconds?: number;
  /**
   * Whether to start the local OpenID provider (./openid-provider.ts) and
   * have the functions take its people's tokens: by default, unless the
   * environment names an issuer already (OIDC_ISSUER).
   */
  openIdProvider?: boolean | (Pick<OpenIdProviderOptions, 'idTokenTtlSeconds' | 'people'> & { port?: number | PortChoice });
  /** The clock schedules fire by (epoch ms): tests set one just before a minute, so that a schedule fires without waiting for it. */
  schedulerNow?: () => number;
}

const worker = { handler: 'task-worker' };
const sweeper = { handler: 'task-sweeper' };
const scheduledRun = { handler: 'run-scheduled-rule' };
/** What the stack gives the schedule functions; here only names: the local scheduler calls the scheduled-run function itself. */
const localScheduleTarget = {
  SCHEDULE_TARGET_ARN: `arn:aws:lambda:local:000000000000:function:local-${scheduledRun.handler}`,
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/local-scheduler',
  SCHEDULE_DLQ_ARN: 'arn:aws:sqs:local:000000000000:schedule-dead-letters',
};
const sweepEveryMs = 60_000;

/** Sends every stored schedule (but those being deleted) to the scheduler, as it was deployed before. */
async function redeploySchedules(store: Store, scheduler: RuleScheduler) {
  for (const { scope, schedule } of await store.scanSchedules()) if (schedule.state !== 'deleting') await scheduler.putSchedule(deploymentOf(scope, schedule));
}

/**
 * The whole service in this process. The functions read their configuration
 * from the environment as on Lambda, so it is set here before any is loaded.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'rules-local-'));
  const queue = createLocalQueue({
    worker: async (event) => (await handlerOf(worker))(event, lambdaContext(worker, taskTimes.workerTimeoutMs), () => undefined),
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 5_000,
    maxReceiveCount: taskDelivery.maxReceiveCount,
    batchSize: taskDelivery.batchSize,
    maxConcurrency: taskDelivery.maxConcurrency,
  });
  const sqs = await startLocalSqs(queue);
  // Schedules saved through the API go through the real Scheduler client to this endpoint, which fires them in-process.
  const localScheduler = createLocalScheduler({
    onRun: async (event) => (await handlerOf(scheduledRun))(event, lambdaContext(scheduledRun, 60_000), () => undefined),
    ...(options.schedulerNow && { now: options.schedulerNow }),
  });
  const scheduler = await startSchedulerEndpoint({ scheduler: localScheduler, ...(options.schedulerNow && { now: options.schedulerNow }) });
  const git = await listenOn(options.gitPort ?? 0, (port) => startGitServer({ root: join(dataDir, 'git'), port }));
  const provider = await listenOn(options.providerPort ?? 0, (port) => startDemoProvider({ port }));
  const dynamo = await listenOn(options.dynamoPort ?? 0, (port) =>
    openLocalTable(localTableName, { dataDir: options.dataDir && join(options.dataDir, 'dynamodb'), port }),
  );
  const config = { tableName: dynamo.tableName, endpoint: dynamo.endpoint };
  Object.assign(process.env, {
    TABLE_NAME: config.tableName,
    DYNAMODB_ENDPOINT: config.endpoint,
    // Kept beside the data it protects, so credentials stored in DATA_DIR open after a restart.
    CREDENTIALS_KEY_FILE: process.env.CREDENTIALS_KEY_FILE ?? join(dataDir, 'credentials.key'),
    TASK_QUEUE_URL: sqs.queueUrl,
    SCHEDULER_ENDPOINT: scheduler.endpoint,
    ...localScheduleTarget,
    SQS_ENDPOINT: sqs.endpoint,
    MAX_RECEIVE_COUNT: String(taskDelivery.maxReceiveCount),
    TASK_RETRY_BASE_SECONDS: String(options.retryBaseSeconds ?? 1),
    // Demos call providers on this machine.
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: process.env.OUTBOUND_ALLOW_PRIVATE_NETWORKS ?? 'true',
  });
  await ensureTable(config);
  const store = createStore(config);
  const { apiKey } = options.seed === false ? { apiKey: '' } : await seedDemo(store, { apiKey: options.apiKey });
  if (options.seed !== false) await seedDemoRemote(store, join(dataDir, 'git'), git.url);
  if (options.seed !== false) await seedDemoProvider({ store, keyring: keyringFromEnv() }, provider.url);
  // Schedules kept in DATA_DIR from an earlier start: the table has them, the local scheduler (in memory) not yet.
  if (options.dataDir) await redeploySchedules(store, schedulerFor({ ...localScheduleTarget, SCHEDULER_ENDPOINT: scheduler.endpoint }));
  let openId: LocalOpenIdProvider | undefined;
  const consoleHost = createConsoleHost({ apiKey, signInOrigins: () => (openId ? [openId.issuer] : []) });
  const api = await listenOn(options.port ?? 0, (port) => startLocalApi({ port, console: consoleHost }));
  const openIdOptions = options.openIdProvider ?? !process.env.OIDC_ISSUER;
  if (openIdOptions) {
    const { port, ...rest } = openIdOptions === true ? {} : openIdOptions;
    // The console is reached as 127.0.0.1 or as localhost: both are its redirect URIs.
    const consoleUrls = [api.url, api.url.replace('127.0.0.1', 'localhost')].map((origin) => `${origin}${consolePath}`);
    // Loaded only when started: the package takes some 0.3 s to load, which a runtime without people (most tests) is spared.
    const { startOpenIdProvider } = await import('./openid-provider.ts');
    openId = await listenOn(port ?? 0, (free) => startOpenIdProvider({ port: free, consoleUrls, ...rest }));
    // What the stack tells every function (cdk/sign-in.ts): read when the first bearer token arrives.
    Object.assign(process.env, { OIDC_ISSUER: openId.issuer, OIDC_AUDIENCE: openId.clientId, OIDC_GROUPS_CLAIM: openId.groupsClaim });
  }
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
    /** The local OpenID provider people sign in with, when this runtime started it. */
    openId,
    /** A one-time link that signs a browser in to the console with the runtime's key. */
    consoleSignInLink: () => consoleHost.signInLink(api.url),
    /** The demo provider, which the demo integrations call. */
    providerUrl: provider.url,
    queue,
    /** The Scheduler endpoint (its `requests` are what the functions sent) and the scheduler it feeds. */
    scheduler: { endpoint: scheduler, local: localScheduler },
    async close() {
      clearInterval(sweeping);
      queue.close();
      localScheduler.close();
      await api.close();
      await Promise.all([sqs.close(), git.close(), provider.close(), scheduler.close(), openId?.close()]);
      await Promise.all([queue.idle().catch(() => undefined), localScheduler.idle()]);
      // What the functions counted since their last flush (coverage, and the rollouts' comparisons once they end), as a Lambda function shut down while frozen would not.
      await flushTallies();
      await dynamo.close();
    },
  };
}
