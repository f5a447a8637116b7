/**
 * The route table: the one list of operations. The CDK stack makes an API
 * Gateway method and a function from each entry, the local runtime serves the
 * same entries with the same handlers, and the OpenAPI document is written from
 * it (with the response schemas of `lib/openapi/responses.ts`, kept apart so
 * that the functions do not bundle them).
 */
import type { ZodMiniObject } from 'zod/mini';
import { getQuerySchema, legacyListQuerySchema, listQuerySchema } from '../entities/queries.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  operationId: string;
  method: HttpMethod;
  /** In API Gateway's form: `{name}` is a path parameter. */
  path: string;
  /** The file in `functions/` (without extension) whose `handler` serves the route. */
  handler: string;
  summary: string;
  deprecated?: boolean;
  branch: 'none' | 'optional' | 'required';
  query: ZodMiniObject;
  /** What the function may do to the table; the stack grants exactly this. */
  tableAccess: 'read' | 'readWrite';
}

const listEntities = {
  path: '/dev/v1/{entityType}',
  method: 'GET',
  branch: 'optional',
  tableAccess: 'read',
} as const;

const getEntity = {
  path: '/dev/v1/{entityType}/{entityId}',
  method: 'GET',
  branch: 'optional',
  query: getQuerySchema,
  tableAccess: 'read',
} as const;

export const routes = {
  listEntities: {
    ...listEntities,
    operationId: 'listEntities',
    handler: 'list-entities',
    summary: 'List rules or workflows of a branch',
    query: listQuerySchema,
  },
  listEntitiesLegacy: {
    ...listEntities,
    operationId: 'listEntitiesLegacy',
    path: '/dev/{entityType}',
    handler: 'list-entities-legacy',
    summary: 'List rules or workflows of a branch (legacy path)',
    deprecated: true,
    query: legacyListQuerySchema,
  },
  getEntity: {
    ...getEntity,
    operationId: 'getEntity',
    handler: 'get-entity',
    summary: 'Get a rule or workflow with its version history',
  },
  getEntityLegacy: {
    ...getEntity,
    operationId: 'getEntityLegacy',
    path: '/dev/{entityType}/{entityId}',
    handler: 'get-entity-legacy',
    summary: 'Get a rule or workflow (legacy path)',
    deprecated: true,
  },
} satisfies Record<string, Route>;

export const routeList: readonly Route[] = Object.values(routes);
