/**
 * What the execute function does for a workflow, given the API call: the
 * dependencies of a run in the caller's workspace (its credentials opened
 * through the keyring, providers called through the one outbound client),
 * then the domain call. The function imports this lazily, so that executing
 * only rules never evaluates it; trying drafts (`./test-endpoints.ts`) is
 * apart, as it needs the FEEL parser and this does not.
 */
import { keyringFromEnv } from '../credentials/keyring.ts';
import type { Call } from '../http/endpoint.ts';
import { createApiCaller } from '../integrations/call.ts';
import { createOutboundClient } from '../outbound/index.ts';
import { queueFromEnv } from '../tasks/queue.ts';
import { singleParams, type ExecuteRequest } from '../rules/schema.ts';
import type { EntityRef, Store } from '../store/types.ts';
import { executeWorkflow, type RunDeps } from './run.ts';
import { startWorkflowRun } from './tasks.ts';

const outbound = createOutboundClient();

/** A run's dependencies in the workspace `workspaceId`. */
export const runDeps = (store: Store, workspaceId: string): RunDeps & { store: Store } => ({
  store,
  callApi: createApiCaller({ store, keyring: keyringFromEnv(), send: outbound.send }, workspaceId),
});

/** Why a workflow takes no batch: its steps run one input at a time, calling providers as they go. */
export const workflowBatchRefusal = (operation: 'execute' | 'test') =>
  `workflows run their steps one input at a time: call ${operation} once per input${operation === 'execute' ? ', or with async: true for runs that call slow providers' : ''}`;

/** A synchronous run answers 200 with the run; an asynchronous one 202 with its task. */
export async function executeWorkflowCall(call: Call<unknown, ExecuteRequest>, ref: EntityRef) {
  const request = { ...call.body, params: singleParams(call.body, workflowBatchRefusal('execute')) };
  if (request.async) return { status: 202, data: await startWorkflowRun({ store: call.store, queue: queueFromEnv() }, ref, request) };
  return { data: await executeWorkflow(runDeps(call.store, ref.workspaceId), ref, request) };
}
