import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { invocationLogging, logger } from '../lib/logging/logger.ts';
import { handleScheduledRun } from '../lib/schedules/scheduled-run.ts';
import { storeFromEnv } from '../lib/store/index.ts';
import { flushTallies } from '../lib/tallies/buffer.ts';

/** The target of every rule schedule: runs the rule and records the run; throws only when the store fails, for Scheduler to retry. */
export const handler = middy<unknown>()
  .use(injectLambdaContext(logger, invocationLogging))
  .handler(async (event) => {
    const result = await handleScheduledRun(storeFromEnv().store, event);
    // A scheduled run may be this function's last for a while: its counts (coverage, a rollout's comparison) are not left to a frozen function.
    await flushTallies();
    if ('problem' in result) logger.error('not a scheduled run: dropped', { problem: result.problem });
    else logger.info('scheduled run', { ...result });
    return result;
  });
