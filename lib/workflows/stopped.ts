/**
 * Why a workflow run's task failed when its worker stopped, or never came:
 * said by the next delivery of its message (./tasks.ts) and by the pull's
 * sweeper (lib/pull/run.ts), which imports this alone to keep the workflow
 * engine out of its bundle.
 */
export const workflowRunStopped =
  'The workflow run stopped before it finished (its worker stopped or ran out of time, or never received it); it is not started again, as its steps may have had effects. Run it again if that is safe.';
