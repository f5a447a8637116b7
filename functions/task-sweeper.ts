import { logger } from '../lib/logging/logger.ts';
import { sweptPull, sweptPush } from '../lib/remote/stopped.ts';
import { sweptReplay } from '../lib/replay/stopped.ts';
import { storeFromEnv, type Store } from '../lib/store/index.ts';
import { sweepTasks, type SweptKinds } from '../lib/tasks/sweeper.ts';
import { sweptWorkflowRun } from '../lib/workflows/stopped.ts';

/** Each kind of task the queue carries, and what the sweeper says of it and lets go of. */
export const sweptKinds: SweptKinds<Store> = { pull: sweptPull, push: sweptPush, workflowRun: sweptWorkflowRun, replay: sweptReplay };

/** On a schedule: fails the tasks that can no longer finish, so none stays open forever. */
export const handler = async () => {
  const swept = await sweepTasks(storeFromEnv().store, sweptKinds);
  logger.info('swept tasks', { swept });
  return { swept };
};
