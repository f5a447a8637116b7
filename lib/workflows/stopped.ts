/**
 * Why a workflow run's task failed when its worker stopped, or never came:
 * said by the next delivery of its message (./tasks.ts) and by the sweeper
 * (lib/tasks/sweeper.ts, through `sweptWorkflowRun`). Kept apart so that the
 * sweeper bundles no workflow engine.
 */
import type { SweptKind } from '../tasks/sweeper.ts';

export const workflowRunStopped =
  'The workflow run stopped before it finished (its worker stopped or ran out of time, or never received it); it is not started again, as its steps may have had effects. Run it again if that is safe.';

/** A workflow run the sweeper ended: it held nothing besides its task. */
export const sweptWorkflowRun: SweptKind<'workflowRun'> = { reason: () => workflowRunStopped };
