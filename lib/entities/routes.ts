/** The rule and workflow operations (spec 4.1, 4.2, 9): legacy paths and their /dev/v1 replacements. */
import type { Route } from '../http/routes.ts';
import { getQuerySchema, legacyListQuerySchema, listQuerySchema } from './queries.ts';

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

export const entityRoutes = {
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
