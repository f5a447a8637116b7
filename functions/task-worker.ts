import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { SQSEvent } from 'aws-lambda';
import { keyringFromEnv } from '../lib/credentials/keyring.ts';
import { openCredential } from '../lib/credentials/service.ts';
import { invocationLogging, logger } from '../lib/logging/logger.ts';
import { withRemoteBranch } from '../lib/remote/git-push.ts';
import { fetchBranch } from '../lib/remote/git-remote.ts';
import { runPushTask } from '../lib/remote/push-run.ts';
import type { RemoteTaskDeps } from '../lib/remote/remote-task.ts';
import { runPullTask } from '../lib/remote/pull-run.ts';
import { runReplayTask } from '../lib/replay/run.ts';
import { replayBounds } from '../lib/replay/bounds.ts';
import { storeFromEnv } from '../lib/store/index.ts';
import { taskDelivery, taskTimes } from '../lib/tasks/delivery.ts';
import { queueFromEnv } from '../lib/tasks/queue.ts';
import { handleTaskMessages, type TaskRunners } from '../lib/tasks/worker.ts';
import { runDeps } from '../lib/workflows/endpoints.ts';
import { runWorkflowTask } from '../lib/workflows/tasks.ts';
import { flushTallies } from '../lib/tallies/buffer.ts';

const { store } = storeFromEnv();

const remoteDeps: RemoteTaskDeps = {
  store,
  openCredential: (workspaceId, credentialId) => openCredential({ store, keyring: keyringFromEnv() }, workspaceId, credentialId),
  leaseMs: taskTimes.leaseMs,
};

/** Each kind of task the queue carries, and what runs it. */
const runners: TaskRunners = {
  pull: (task, delivery) => runPullTask({ ...remoteDeps, fetchBranch }, task.taskId, delivery),
  push: (task, delivery) => runPushTask({ ...remoteDeps, withRemoteBranch }, task.taskId, delivery),
  workflowRun: (task) => runWorkflowTask(runDeps(store, task.workspaceId), task, { leaseMs: taskTimes.leaseMs, runMs: taskTimes.workflowRunMs }),
  replay: (task, delivery, message) =>
    runReplayTask(
      // REPLAY_SHARD_SIZE: smaller shards, so that tests split small windows.
      {
        store,
        queue: queueFromEnv(),
        leaseMs: taskTimes.leaseMs,
        shardSize: Number(process.env.REPLAY_SHARD_SIZE ?? replayBounds.shardSize),
        shardWorkMs: taskTimes.shardWorkMs,
      },
      task,
      delivery,
      message,
    ),
};

export const handler = middy<SQSEvent>()
  .use(injectLambdaContext(logger, invocationLogging))
  .handler(async (event) => {
    const answer = await handleTaskMessages({ store, runners }, event, {
      maxAttempts: Number(process.env.MAX_RECEIVE_COUNT ?? taskDelivery.maxReceiveCount),
      baseDelaySeconds: Number(process.env.TASK_RETRY_BASE_SECONDS ?? taskDelivery.retryBaseSeconds),
      queue: queueFromEnv(),
    });
    // The rule steps of the workflow runs it took count for the rules' coverage (and rollouts): not left to a frozen function.
    await flushTallies();
    return answer;
  });
