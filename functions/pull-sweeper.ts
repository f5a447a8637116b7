import { logger } from '../lib/http/logger.ts';
import { sweepTasks } from '../lib/pull/run.ts';
import { storeFromEnv } from '../lib/store/index.ts';

/** On a schedule: fails the pull tasks that can no longer finish, so none stays open forever. */
export const handler = async () => {
  const swept = await sweepTasks(storeFromEnv().store);
  logger.info('swept pull tasks', { swept });
  return { swept };
};
