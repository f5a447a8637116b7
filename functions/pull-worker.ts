import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { SQSEvent } from 'aws-lambda';
import { keyringFromEnv } from '../lib/credentials/keyring.ts';
import { openCredential } from '../lib/credentials/service.ts';
import { invocationLogging, logger } from '../lib/http/logger.ts';
import { fetchBranch } from '../lib/pull/git-remote.ts';
import { taskDelivery } from '../lib/tasks/delivery.ts';
import { queueFromEnv } from '../lib/tasks/queue.ts';
import { handleTaskMessages } from '../lib/pull/worker.ts';
import { isOpenTask } from '../lib/store/types.ts';
import { storeFromEnv } from '../lib/store/index.ts';
import { runDeps } from '../lib/workflows/endpoints.ts';
import { runWorkflowTask } from '../lib/workflows/tasks.ts';

const { store } = storeFromEnv();
const leaseMs = Number(process.env.PULL_LEASE_MS ?? 6 * 60_000);
/** The worker's own time limit is the lease less 30 s (cdk/pull-pipeline.ts); a run ends a little before it. */
const workflowRunMs = leaseMs - 35_000;

export const handler = middy<SQSEvent>()
  .use(injectLambdaContext(logger, invocationLogging))
  .handler((event) =>
    handleTaskMessages(
      {
        store,
        fetchBranch,
        openCredential: (workspaceId, credentialId) => openCredential({ store, keyring: keyringFromEnv() }, workspaceId, credentialId),
        leaseMs,
        runWorkflowTask: async (task) => (isOpenTask(task) ? runWorkflowTask(runDeps(store, task.workspaceId), task, { leaseMs, runMs: workflowRunMs }) : 'done'),
      },
      event,
      {
        maxAttempts: Number(process.env.MAX_RECEIVE_COUNT ?? taskDelivery.maxReceiveCount),
        baseDelaySeconds: Number(process.env.PULL_RETRY_BASE_SECONDS ?? taskDelivery.retryBaseSeconds),
        queue: queueFromEnv(),
      },
    ),
  );
