import { entityTypes, type EntityType } from '../entities/kinds.ts';
import type { EntityRef } from '../store/types.ts';
import type { Call } from './endpoint.ts';
import { errors } from './errors.ts';

export function entityTypeParam(value: string | undefined): EntityType {
  if (entityTypes.includes(value as EntityType)) return value as EntityType;
  throw errors.entityTypeNotFound(value ?? '');
}

/** The workspace, branch and entity type that an entity operation addresses. */
export const entityScope = ({ principal, branch, path }: Call<unknown>) => ({
  workspaceId: principal.workspace.id,
  branch,
  entityType: entityTypeParam(path.entityType),
});

export const entityRef = (call: Call<unknown>): EntityRef => ({ ...entityScope(call), id: call.path.entityId ?? '' });

export const credentialIdParam = (call: Call<unknown>) => call.path.credentialId ?? '';
