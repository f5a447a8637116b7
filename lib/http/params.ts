import { keyActor } from '../auth/actors.ts';
import { entityIdPattern, entityTypes, type EntityType } from '../vocabulary/kinds.ts';
import type { EntityRef } from '../store/types.ts';
import type { Call } from './endpoint.ts';
import { errors, type ApiError } from '../vocabulary/errors.ts';

export function entityTypeParam(value: string | undefined, served: readonly EntityType[] = entityTypes): EntityType {
  if (served.includes(value as EntityType)) return value as EntityType;
  throw errors.entityTypeNotFound(value ?? '', served);
}

/** The workspace, branch and entity type that an entity operation addresses (of the types it serves). */
export const entityScope = ({ principal, branch, path }: Call<unknown>, served: readonly EntityType[] = entityTypes) => ({
  workspaceId: principal.workspace.id,
  branch,
  entityType: entityTypeParam(path.entityType, served),
});

/** An id that no entity can have is not found without a read (nor a key DynamoDB would refuse). */
export function entityRef(call: Call<unknown>, served: readonly EntityType[] = entityTypes): EntityRef {
  const scope = entityScope(call, served);
  const id = call.path.entityId ?? '';
  if (!entityIdPattern.test(id)) throw errors.entityNotFound(scope.entityType, id);
  return { ...scope, id };
}

/** What an operation of rules only addresses: a workflow is refused as such (`refusal` says why it has none of it), before any read. */
export function ruleOnlyRef(call: Call<unknown>, refusal: () => ApiError): EntityRef {
  if (entityTypeParam(call.path.entityType) === 'workflow') throw refusal();
  return entityRef(call);
}

/** What the schedule operations address: a rule; a workflow is refused (schedule_not_supported). */
export const scheduleRef = (call: Call<unknown>) => ruleOnlyRef(call, () => errors.scheduleNotSupported());
/** What the rollout operations address: a rule; a workflow is refused as such (rollout_not_supported), before any read. */
export const rolloutRef = (call: Call<unknown>) => ruleOnlyRef(call, () => errors.rolloutNotSupported());
/** What a replay addresses: a rule; a workflow is refused as such (replay_not_supported), before any read. */
export const replayRef = (call: Call<unknown>) => ruleOnlyRef(call, () => errors.replayNotSupported());

/**
 * A path id in the form every stored id has (an entity id's: at most 128
 * letters, digits, ".", "_" or "-"; credential, integration and task ids
 * included): any other is not found without a read, nor sent to DynamoDB as
 * a key it would refuse (its key size limit).
 */
function storedFormId(value: string | undefined, notFound: (id: string) => ApiError): string {
  const id = value ?? '';
  if (!entityIdPattern.test(id)) throw notFound(id);
  return id;
}

export const credentialIdParam = (call: Call<unknown>) => storedFormId(call.path.credentialId, (id) => errors.credentialNotFound(id));
export const integrationIdParam = (call: Call<unknown>) => storedFormId(call.path.integrationId, errors.integrationNotFound);
export const taskIdParam = (call: Pick<Call<unknown>, 'path'>) => storedFormId(call.path.taskId, errors.taskNotFound);
export const keyIdParam = (call: Pick<Call<unknown>, 'path'>) => storedFormId(call.path.keyId, errors.keyNotFound);
export const changeRequestIdParam = (call: Pick<Call<unknown>, 'path'>) => storedFormId(call.path.changeRequestId, errors.changeRequestNotFound);

/** Who a write is by, in the audit fields: the API key that made it. */
export const actorOf = (call: Call<unknown>) => keyActor(call.principal.keyId);
