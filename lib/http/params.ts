import { entityIdPattern, entityTypes, type EntityType } from '../entities/kinds.ts';
import type { EntityRef } from '../store/types.ts';
import type { Call } from './endpoint.ts';
import { errors } from './errors.ts';

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

/** What the schedule operations address: a rule; a workflow is refused as such (schedule_not_supported), before any read. */
export function scheduleRef(call: Call<unknown>): EntityRef {
  if (entityTypeParam(call.path.entityType) === 'workflow') throw errors.scheduleNotSupported();
  return entityRef(call);
}

export const credentialIdParam = (call: Call<unknown>) => call.path.credentialId ?? '';
/** Integration ids take the form of entity ids (steps name them as such): any other is not found without a read. */
export function integrationIdParam(call: Call<unknown>): string {
  const id = call.path.integrationId ?? '';
  if (!entityIdPattern.test(id)) throw errors.integrationNotFound(id);
  return id;
}

/** Who a write is by, in the audit fields: the API key that made it. */
export const actorOf = (call: Call<unknown>) => `key:${call.principal.keyId}`;
