import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { SQSEvent } from 'aws-lambda';
import { keyringFromEnv } from '../lib/credentials/keyring.ts';
import { openCredential } from '../lib/credentials/service.ts';
import { logger } from '../lib/http/logger.ts';
import { fetchBranch } from '../lib/pull/git-remote.ts';
import { queueFromEnv } from '../lib/pull/queue.ts';
import { handleTaskMessages } from '../lib/pull/worker.ts';
import { storeFromEnv } from '../lib/store/index.ts';

const { store } = storeFromEnv();

export const handler = middy<SQSEvent>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler((event) =>
    handleTaskMessages(
      {
        store,
        fetchBranch,
        openCredential: (workspaceId, credentialId) => openCredential({ store, keyring: keyringFromEnv() }, workspaceId, credentialId),
        leaseMs: Number(process.env.PULL_LEASE_MS ?? 6 * 60_000),
      },
      event,
      {
        maxAttempts: Number(process.env.MAX_RECEIVE_COUNT ?? 3),
        baseDelaySeconds: Number(process.env.PULL_RETRY_BASE_SECONDS ?? 30),
        queue: queueFromEnv(),
      },
    ),
  );
